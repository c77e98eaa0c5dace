import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { randomBytes } from 'node:crypto';

const MM = 72 / 25.4;
const A4 = { width: 595.28, height: 841.89 };

export interface TestRecipient {
	name: string;
	lines: string[];
	postcode: string;
	pages: number;
	emailOnly: boolean;
}

const STREETS = ['High Street', 'Station Road', 'Church Lane', 'Mill Road', 'Park Avenue', 'Victoria Road'];
const TOWNS = ['Leeds', 'Bristol', 'York', 'Norwich', 'Bath', 'Exeter', 'Durham'];
const POSTCODES = ['LS1 4AP', 'BS1 5TR', 'YO1 7HH', 'NR2 1TF', 'BA1 1LZ', 'EX4 3LS', 'DH1 3HP'];

/** The recipients of a mail-merge file: n letters, 1-3 pages each, every `emailOnlyEvery`th marked EMAIL ONLY. */
export function recipients(count: number, emailOnlyEvery = 10): TestRecipient[] {
	return Array.from({ length: count }, (_, i) => ({
		name: `Customer ${String(i + 1).padStart(3, '0')}`,
		lines: [`${i + 1} ${STREETS[i % STREETS.length]}`, TOWNS[i % TOWNS.length]],
		postcode: POSTCODES[i % POSTCODES.length],
		pages: (i % 3) + 1,
		emailOnly: emailOnlyEvery > 0 && (i + 1) % emailOnlyEvery === 0,
	}));
}

/**
 * A mail-merge PDF like the vendor's demo: each letter has its address block in the envelope window
 * (top left) and a "Dear ..." line on its first page; continuation pages carry neither.
 */
export async function mailMergePdf(people: TestRecipient[]): Promise<Buffer> {
	const document = await PDFDocument.create();
	const font = await document.embedFont(StandardFonts.Helvetica);
	for (const person of people) {
		for (let page = 1; page <= person.pages; page++) {
			const sheet = document.addPage([A4.width, A4.height]);
			const line = (text: string, xMm: number, fromTopMm: number, size = 11) =>
				sheet.drawText(text, { x: xMm * MM, y: A4.height - fromTopMm * MM, size, font });
			line('Example Utilities Ltd, 1 Sender Way, Manchester M1 1AA', 110, 15, 8);
			if (page === 1) {
				[person.name, ...person.lines, person.postcode].forEach((text, i) => line(text, 25, 50 + i * 6));
				line(`Dear ${person.name},`, 25, 110);
				line('Thank you for being a customer. Your statement is enclosed.', 25, 120);
			} else {
				line(`Page ${page} of your statement`, 25, 30);
				line('Further details of your account follow.', 25, 120);
			}
			if (person.emailOnly && page === person.pages) line('EMAIL ONLY - do not post', 25, 270, 9);
		}
	}
	return Buffer.from(await document.save());
}

/** A plain PDF with n numbered pages. */
export async function simplePdf(pages = 1, label = 'Page'): Promise<Buffer> {
	const document = await PDFDocument.create();
	const font = await document.embedFont(StandardFonts.Helvetica);
	for (let page = 1; page <= pages; page++) {
		document.addPage([A4.width, A4.height]).drawText(`${label} ${page}`, { x: 72, y: 700, size: 14, font });
	}
	return Buffer.from(await document.save());
}

/** A one-letter PDF padded to about `bytes` with an embedded attachment: big, but quick to parse. */
export async function largePdf(bytes: number): Promise<Buffer> {
	const document = await PDFDocument.create();
	const font = await document.embedFont(StandardFonts.Helvetica);
	const page = document.addPage([A4.width, A4.height]);
	page.drawText('Customer 001', { x: 25 * MM, y: A4.height - 50 * MM, size: 11, font });
	page.drawText('Dear Customer 001,', { x: 25 * MM, y: A4.height - 110 * MM, size: 11, font });
	await document.attach(randomBytes(bytes), 'statement-data.bin', { mimeType: 'application/octet-stream' });
	return Buffer.from(await document.save({ useObjectStreams: false }));
}
