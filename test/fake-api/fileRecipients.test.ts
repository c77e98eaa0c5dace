import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { simplePdf } from '../helpers/pdfs';
import { cost } from './letters';
import { MM, pageCount, readPages } from './pdf';
import { SANDBOX, seedSandbox } from './sandbox';
import { startFakeIntelliprint, type FakeIntelliprint } from './server';
import { api } from './wire';

/** A PDF to recipients: the same file once per recipient, each copy showing its recipient's address in the window. */
let fake: FakeIntelliprint;
let leaflet: Buffer;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	await seedSandbox(fake);
	leaflet = await leafletPdf(2);
});
afterAll(async () => fake.stop());

/**
 * A leaflet with nothing in the address window (its text 150 mm down): the window then holds only what the
 * fake prints there. The copy's white-out hides a file's own window text from the eye but not from a text reader.
 */
async function leafletPdf(pages: number): Promise<Buffer> {
	const document = await PDFDocument.create();
	const font = await document.embedFont(StandardFonts.Helvetica);
	for (let page = 1; page <= pages; page++) {
		const sheet = document.addPage([210 * MM, 297 * MM]);
		sheet.drawText(`Winter leaflet ${page}`, { x: 25 * MM, y: (297 - 150) * MM, size: 14, font });
	}
	return Buffer.from(await document.save());
}

const ann = { address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP' } };
const bob = { address: { name: 'Bob Jones', line: '10 Park Avenue\nYork', postcode: 'YO1 7HH' } };
const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const textOf = async (url: string) => (await readPages(await download(url))).map((page) => page.text).join(' ');
const pdfPart = (data: Buffer) => new Blob([new Uint8Array(data)], { type: 'application/pdf' });
/** The wire form the SDK sends: the file part, then each recipient's fields. */
function withFile(people: Array<typeof ann>, fields: Record<string, string> = {}, pdf = leaflet) {
	const form = new FormData();
	form.append('file', pdfPart(pdf), 'leaflet.pdf');
	people.forEach(({ address }, index) => {
		for (const [key, value] of Object.entries(address)) form.append(`recipients[${index}][address][${key}]`, value);
	});
	for (const [key, value] of Object.entries(fields)) form.append(key, value);
	return form;
}
/** The address the fake reads from a PDF's window, as it reads any uploaded letter. */
async function readBack(pdf: Buffer) {
	const form = new FormData();
	form.append('file', pdfPart(pdf), 'letter.pdf');
	return (await api(fake, 'POST', '/prints', form)).body.letters[0].address;
}

describe('a PDF to recipients', () => {
	it('prints the same PDF once per recipient: one letter each, addressed to them, priced as the whole file', async () => {
		const { status, body } = await api(fake, 'POST', '/prints', withFile([ann, bob]));
		expect(status).toBe(200);
		expect(body).toMatchObject({ reference: 'leaflet.pdf', file: { name: 'leaflet.pdf', pages: 2 }, pages: 4, sheets: 4, cost: cost(2 * 90) });
		expect(body.letters.map((letter) => [letter.address, letter.pages, letter.sheets, letter.cost])).toEqual([
			[{ name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB' }, 2, 2, cost(90)],
			[{ name: 'Bob Jones', line: '10 Park Avenue\nYork', postcode: 'YO1 7HH', country: 'GB' }, 2, 2, cost(90)],
		]);
		for (const [index, person] of [ann, bob].entries()) {
			const pdf = await download(body.letters[index].pdf);
			expect(await pageCount(pdf)).toBe(2);
			const text = (await readPages(pdf)).map((page) => page.text).join(' ');
			for (const expected of [person.address.name, person.address.postcode, 'Winter leaflet 1', 'Winter leaflet 2']) expect(text).toContain(expected);
			expect(text).not.toContain([ann, bob][1 - index].address.name);
			expect(await readBack(pdf)).toEqual({ name: person.address.name, line: [...person.address.line.split('\n'), person.address.postcode].join('\n'), postcode: person.address.postcode, country: 'GB' });
		}
	});

	it('adds extra documents to every letter, and writes in the right-hand window when asked', async () => {
		const { body } = await api(fake, 'POST', '/prints', withFile([ann, bob], { 'extra_documents[0][id]': 'doc_terms', address_window: 'right' }));
		expect(body.letters.map((letter) => [letter.pages, letter.cost])).toEqual([[3, cost(95)], [3, cost(95)]]);
		const form = new FormData();
		form.append('file', pdfPart(await download(body.letters[1].pdf)), 'letter.pdf');
		form.append('address_window', 'right');
		expect((await api(fake, 'POST', '/prints', form)).body.letters[0].address).toMatchObject({ name: 'Bob Jones', postcode: 'YO1 7HH' });
	});

	it('sends a linked PDF to a mailing list, and an inline one to recipients', async () => {
		const url = fake.publish('leaflet-for-list.pdf', leaflet);
		const { body } = await api(fake, 'POST', '/prints', { file: { url }, mailing_list: SANDBOX.mailingList });
		expect(body).toMatchObject({ reference: 'leaflet-for-list.pdf', pages: 50 });
		expect(body.letters).toHaveLength(25);
		expect(body.letters[24].address).toEqual({ name: 'Eve Member 25', line: '25 Park Road\nHull', postcode: 'HU1 1AA', country: 'GB' });
		expect(await textOf(body.letters[24].pdf)).toContain('Eve Member 25');
		const inline = await api(fake, 'POST', '/prints', { file: { content: leaflet.toString('base64'), name: 'inline.pdf' }, recipients: [bob] });
		expect(inline.body.letters.map((letter) => letter.address.name)).toEqual(['Bob Jones']);
	});

	it("addresses a file that prints something of its own in the window: the recipient's address is written over it", async () => {
		const { body } = await api(fake, 'POST', '/prints', withFile([bob], {}, await simplePdf(1, 'Window text')));
		expect(body.letters[0].address).toEqual({ name: 'Bob Jones', line: '10 Park Avenue\nYork', postcode: 'YO1 7HH', country: 'GB' });
		expect(await textOf(body.letters[0].pdf)).toContain('Bob Jones');
	});

	it('drops every copy when the file holds the remove_letters phrase, and none when it does not', async () => {
		const kept = await api(fake, 'POST', '/prints', withFile([ann, bob], { 'remove_letters[with_phrase]': 'EMAIL ONLY' }));
		expect(kept.body.letters).toHaveLength(2);
		const dropped = await api(fake, 'POST', '/prints', withFile([ann, bob], { 'remove_letters[with_phrase]': 'Winter leaflet' }));
		expect(dropped.body).toMatchObject({ letters: [], pages: 0, cost: cost(0) });
	});

	it('makes postcards of a one- or two-page file, and refuses a longer one', async () => {
		const { body } = await api(fake, 'POST', '/prints', withFile([ann], { type: 'postcard' }, await leafletPdf(1)));
		expect(body.letters[0]).toMatchObject({ pages: 2, sheets: 1, envelope: 'postcard_a6', cost: cost(55), address: { name: 'Ann Smith' } });
		expect(await textOf(body.letters[0].pdf)).toContain('Ann Smith');
		expect((await api(fake, 'POST', '/prints', withFile([ann], { type: 'postcard' }, await leafletPdf(3)))).body.error).toEqual({
			type: 'invalid_request_error', code: 'parameter_invalid', param: 'file',
			message: "Invalid value for file: a postcard has two sides, but the file has 3 pages, and each recipient's postcard is the whole file.",
		});
	});

	it('refuses splitting: it is for a file that carries its own addresses', async () => {
		const { body } = await api(fake, 'POST', '/prints', withFile([ann], { 'splitting[method]': 'split_on_pages', 'splitting[pages]': '1' }));
		expect(body.error).toMatchObject({
			code: 'parameter_invalid', param: 'splitting.method',
			message: 'Invalid value for splitting.method: letters to recipients are one per recipient; splitting is for an uploaded file that carries its own addresses.',
		});
	});

	it('lets a draft change its recipients, keeping the file; content cannot be added', async () => {
		const { body: draft } = await api(fake, 'POST', '/prints', withFile([ann]));
		const { body } = await api(fake, 'POST', `/prints/${draft.id}`, { recipients: [bob, ann] });
		expect(body).toMatchObject({ reference: 'leaflet.pdf', file: { name: 'leaflet.pdf', pages: 2 }, pages: 4 });
		expect(body.letters.map((letter) => letter.address.name)).toEqual(['Bob Jones', 'Ann Smith']);
		const first = await textOf(body.letters[0].pdf);
		expect(first).toContain('Bob Jones');
		expect(first).toContain('Winter leaflet 2');
		expect((await api(fake, 'POST', `/prints/${draft.id}`, { content: 'Hi' })).body.error).toMatchObject({
			code: 'parameter_invalid', param: 'content', message: 'Invalid value for content: this print job was made from a file, so it has no content to change.',
		});
		expect((await api(fake, 'POST', `/prints/${draft.id}`, { splitting: { method: 'split_on_phrase', phrase: 'Dear' } })).body.error).toMatchObject({ param: 'splitting.method' });
		expect((await api(fake, 'GET', `/prints/${draft.id}`)).body.letters).toHaveLength(2);
	});

	it('leaves a file without recipients to its own addresses, and refuses recipients added to it later', async () => {
		const form = new FormData();
		form.append('file', pdfPart(leaflet), 'leaflet.pdf');
		const { body } = await api(fake, 'POST', '/prints', form);
		expect(body.letters).toHaveLength(1);
		expect(body.letters[0].address.name).toBeNull();
		expect((await api(fake, 'POST', `/prints/${body.id}`, { recipients: [ann] })).body.error).toMatchObject({
			code: 'parameter_invalid', param: 'recipients',
			message: 'Invalid value for recipients: this print job was made from a file that carries its own addresses, so it has no content or recipients to change.',
		});
	});
});
