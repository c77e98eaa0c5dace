/**
 * A sheet of overdue invoices as a scheduled mail run reads it, day by day (issue 55): day 1 holds `size` invoices;
 * day 2 has 20 new ones on top, 10 of the first 100 removed, 5 moved and INV-50's address corrected. With
 * `shareEvery`, every n-th invoice goes to the customer of the one before it (One Letter per Recipient's case). Also
 * run as an n8n Code node's JavaScript (its source), so it is plain code without imports.
 */
export interface InvoiceRow {
	invoice: string;
	name: string;
	address: string;
	postcode: string;
}

export function invoiceSheet(day: number, size: number, shareEvery: number): InvoiceRow[] {
	const row = (n: number) => {
		const a = shareEvery && n % shareEvery === 0 ? n - 1 : n;
		return { invoice: `INV-${n}`, name: `Customer ${a}`, address: `${a} Mill Lane\nLeeds`, postcode: 'LS1 4AP' };
	};
	let rows = Array.from({ length: size }, (_, i) => row(i + 1));
	if (day >= 2) {
		rows = rows.filter((_, i) => !(i < 100 && i % 10 === 3));
		rows = [...rows.slice(5, 10), ...rows.slice(0, 5), ...rows.slice(10)];
		rows = rows.map((r) => (r.invoice === 'INV-50' ? { ...r, address: '50 Mill Lane\nHeadingley' } : r));
		rows = [...Array.from({ length: 20 }, (_, i) => row(size + 1 + i)), ...rows];
	}
	return rows;
}

/** The customer an invoice's letter goes to, as the sheet writes it. */
export const customerOf = (invoice: string, shareEvery: number) => {
	const n = Number(invoice.slice(4));
	return `Customer ${shareEvery && n % shareEvery === 0 ? n - 1 : n}`;
};
