import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { letterRow } from '../../../../../nodes/Intelliprint/results/letterRow';
import type { PrintJob } from '../../../../../nodes/Intelliprint/results/output';

/**
 * Issue 55: a scheduled mail run keyed as the docs advise (Skip Items Already Sent and Row ID = the invoice number)
 * sends each invoice once however the sheet changes, and every letter names every row it carried.
 */
const api = useFakeApi({ rateLimit: false });

interface Invoice {
	invoice_no: string;
	name: string;
	address: string;
	postcode: string;
}
const invoice = (tag: string, n: number): Invoice => ({ invoice_no: `${tag}-${n}`, name: `${tag} customer ${n}`, address: `${n} Mill Lane\nLeeds`, postcode: 'LS1 4AP' });
const sheet = (tag: string, from: number, count: number) => Array.from({ length: count }, (_, i) => invoice(tag, from + i));
const items = (rows: Invoice[]) => rows.map((json) => ({ json: json as unknown as IDataObject }));
const mailRun = (options: INodeParameters = {}, output = 'letters') => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}, invoice {{invoice_no}} is overdue.</p>', testmode: true, variables: 'all', output,
	options: { sentKey: '={{ $json.invoice_no }}', rowId: '={{ $json.invoice_no }}', ...options },
});
const jobsOf = (tag: string) => api.fake.createdPrintJobs().filter((job) => job.letters.some((letter) => letter.address.name?.startsWith(`${tag} `)));
/** Letters posted per customer name, across every job the fake holds. */
const lettersPer = (tag: string) => {
	const count = new Map<string, number>();
	for (const job of jobsOf(tag)) for (const letter of job.letters) count.set(letter.address.name!, (count.get(letter.address.name!) ?? 0) + 1);
	return count;
};
const readJob = async (id: string) => (await (await fetch(`${api.fake.url}/prints/${id}`, { headers: { authorization: `Bearer ${api.fake.apiKey}` } })).json()) as PrintJob;

describe('Print Job → Create, a keyed mail run: each row once, whatever the sheet does', () => {
	it('day 1, day 1 again, day 2 (+20 on top, 10 removed, 5 moved, 1 address corrected), day 2 again: each invoice one letter ever', async () => {
		const day1 = sheet('D', 1001, 100);
		const first = await api.run({ typeVersion: 1.1, parameters: mailRun({}, 'printJob'), items: items(day1) });
		expect(first.error).toBeUndefined();
		expect(jobsOf('D')).toHaveLength(1);

		const again = await api.run({ typeVersion: 1.1, parameters: mailRun({}, 'printJob'), items: items(day1) });
		expect(again.items.map((item) => item.json.already_sent)).toEqual([true]);
		expect(jobsOf('D')).toHaveLength(1);

		const kept = day1.filter((_, at) => at % 10 !== 3);
		const moved = [...kept.slice(5, 10), ...kept.slice(0, 5), ...kept.slice(10)];
		const corrected = moved.map((row) => (row.invoice_no === 'D-1050' ? { ...row, address: '50 Mill Lane\nHeadingley' } : row));
		const day2 = [...sheet('D', 2001, 20), ...corrected];
		const second = await api.run({ typeVersion: 1.1, parameters: mailRun(), items: items(day2) });
		expect(second.error).toBeUndefined();
		const sentNow = second.items.filter((item) => item.json.already_sent !== true);
		expect(sentNow).toHaveLength(20);
		// Each letter is paired with its own row: the row's customer is the letter's.
		for (const item of second.items) {
			const row = day2[(item.pairedItem as { item: number }).item];
			expect(item.json.name).toBe(row.name);
		}
		const changed = second.items.find((item) => item.json.name === 'D customer 1050');
		expect(changed?.json).toMatchObject({ already_sent: true, address_changed: true, row_ids: ['D-1050'] });
		// Only that letter says so; each letter names its row's ID.
		expect(second.items.filter((item) => item.json.address_changed)).toHaveLength(1);
		for (const item of second.items) expect(item.json.row_ids).toEqual([day2[(item.pairedItem as { item: number }).item].invoice_no]);
		expect(second.items.filter((item) => item.json.already_sent === true)).toHaveLength(90);

		const third = await api.run({ typeVersion: 1.1, parameters: mailRun(), items: items(day2) });
		expect(third.items.every((item) => item.json.already_sent === true)).toBe(true);
		expect(third.items).toHaveLength(110);
		const perCustomer = lettersPer('D');
		expect(perCustomer.size).toBe(120);
		expect([...perCustomer.values()].every((count) => count === 1)).toBe(true);
	});

	it('a row whose key is in the sheet twice gets one letter, paired with both rows', async () => {
		const rows = [...sheet('T', 1, 3), invoice('T', 2)];
		const { items: out } = await api.run({ typeVersion: 1.1, parameters: mailRun(), items: items(rows) });
		expect(jobsOf('T')[0].letters).toHaveLength(3);
		expect(out.find((item) => item.json.name === 'T customer 2')?.pairedItem).toEqual([{ item: 1 }, { item: 3 }]);
	});

	it('One Letter per Recipient: the letter for rows 2 and 4 carries both keys and IDs, and a rerun sends neither', async () => {
		const rows = sheet('P', 1, 4).map((row, at) => (at === 3 ? { ...row, name: 'P customer 2', address: '2 Mill Lane\nLeeds' } : row));
		const { items: out } = await api.run({ typeVersion: 1.1, parameters: mailRun({ oneLetterPerRecipient: true }), items: items(rows) });
		expect(out).toHaveLength(3);
		const job = await readJob(String(out[0].json.print_id));
		const letter = job.letters!.find((one) => one.address?.name === 'P customer 2')!;
		expect(letterRow(job, letter.id)).toMatchObject({ row: 2, row_id: 'P-2', rows: [{ row: 2, row_id: 'P-2', sent_key: 'P-2' }, { row: 4, row_id: 'P-4', sent_key: 'P-4' }], row_ids: ['P-2', 'P-4'] });
		const rerun = await api.run({ typeVersion: 1.1, parameters: mailRun({ oneLetterPerRecipient: true }), items: items(rows) });
		expect(rerun.items.every((item) => item.json.already_sent === true)).toBe(true);
		expect(jobsOf('P')).toHaveLength(1);
	});

	it('letters listed in another order than sent still name their own rows, in the output and in letterRow', async () => {
		api.fake.letterOrder = 'shuffled';
		try {
			const rows = sheet('S', 1, 40);
			const { items: out } = await api.run({ typeVersion: 1.1, parameters: mailRun(), items: items(rows) });
			const job = await readJob(String(out[0].json.print_id));
			expect(job.letters!.map((one) => one.address?.name)).not.toEqual(rows.map((row) => row.name));
			for (const item of out) expect(rows[(item.pairedItem as { item: number }).item].name).toBe(item.json.name);
			for (const letter of job.letters!) {
				const named = letterRow(job, letter.id);
				expect(rows[(named.row as number) - 1].name).toBe(letter.address?.name);
				expect(named.row_id).toBe(rows[(named.row as number) - 1].invoice_no);
			}
		} finally {
			api.fake.letterOrder = 'sent';
		}
	});

	it('2,000 rows with long keys: parts are made small enough to keep every key and Row ID within the metadata budget', async () => {
		const rows = Array.from({ length: 2000 }, (_, i) => ({ ...invoice('B', i + 1), invoice_no: `INVOICE-2026-12-${String(i + 1).padStart(6, '0')}` }));
		const { items: out, error } = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 1000 }, 'printJob'), items: items(rows) });
		expect(error).toBeUndefined();
		const jobs = jobsOf('B');
		expect(jobs.length).toBeGreaterThan(2);
		expect(out.reduce((sum, item) => sum + Number(item.json.letter_count), 0)).toBe(2000);
		for (const job of jobs) {
			expect(Object.keys(job.metadata).length).toBeLessThanOrEqual(50);
			expect(Object.values(job.metadata).every((value) => String(value).length <= 500)).toBe(true);
		}
		const last = await readJob(jobs[jobs.length - 1].id);
		const named = letterRow(last, last.letters![last.letters!.length - 1].id);
		expect(named.row_id).toBe('INVOICE-2026-12-002000');
	});

	it('two processes running the same mail run at once: each row once, the job made first keeps it, the other is withdrawn', async () => {
		const rows = sheet('W', 1, 30);
		// Each spelling of the API's address is a process of its own to the node (its state is kept per credential).
		const run = (spelling: string) => api.run({ typeVersion: 1.1, parameters: { ...mailRun({}, 'printJob'), confirmed: true }, items: items(rows), credentials: { baseUrl: api.fake.url.replace('http://', spelling) } });
		const [one, two] = await Promise.all([run('http://'), run('HTTP://')]);
		expect([one.error, two.error]).toEqual([undefined, undefined]);
		const confirmed = jobsOf('W').filter((job) => job.confirmed);
		expect(confirmed).toHaveLength(1);
		expect(confirmed[0].letters).toHaveLength(30);
		// The other's draft is gone (deleted: free), and its run says where its rows went.
		expect(jobsOf('W').filter((job) => api.fake.prints.jobs.has(job.id))).toHaveLength(1);
		const outputs = [...one.items, ...two.items].map((item) => [item.json.id, item.json.already_sent ?? false]);
		expect(outputs).toEqual(expect.arrayContaining([[confirmed[0].id, false], [confirmed[0].id, true]]));
	});

	it('a run of three parts, Confirm on: three drafts, one read of the list for all of them, three confirms', async () => {
		api.fake.resetRecording();
		const { items: out, error } = await api.run({ typeVersion: 1.1, parameters: { ...mailRun({ lettersPerJob: 10 }, 'printJob'), confirmed: true }, items: items(sheet('K', 1, 30)) });
		expect(error).toBeUndefined();
		expect(out.map((item) => [item.json.confirmed, item.json.letter_count])).toEqual([[true, 10], [true, 10], [true, 10]]);
		const calls = api.apiCalls();
		const creates = calls.filter((call) => call.method === 'POST' && call.path === '/v1/prints');
		const confirms = calls.filter((call) => call.method === 'POST' && call.path !== '/v1/prints');
		const raceReads = calls.filter((call) => call.method === 'GET' && call.query?.reference === 'n8n mail run');
		expect([creates.length, raceReads.length, confirms.length]).toEqual([3, 1, 3]);
		expect(creates.every((call) => call.body?.confirmed === false || call.body?.confirmed === 'false')).toBe(true);
	});

	it('a Reference other than the mail runs\' own is refused before anything is sent', async () => {
		const { error } = await api.run({ typeVersion: 1.1, parameters: mailRun({ reference: 'Overdue invoices' }), items: items(sheet('R', 1, 3)) });
		expect(error?.message).toBe('With Skip Items Already Sent on, Reference must be empty or "n8n mail run"');
		expect(jobsOf('R')).toHaveLength(0);
	});
});
