import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { recipients as people, simplePdf } from '../helpers/pdfs';
import { cost } from './letters';
import { pageCount, readPages } from './pdf';
import { startFakeIntelliprint, type FakeIntelliprint } from './server';
import { api } from './wire';

let fake: FakeIntelliprint;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
});
afterAll(async () => fake.stop());

const ann = { address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP' }, variables: { first_name: 'Ann', balance: 12.5 } };
const bob = { address: { name: 'Bob Jones', line: '10 Park Avenue, York', postcode: 'YO1 7HH' }, variables: { first_name: 'Bob' } };
const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const textOf = async (url: string) => (await readPages(await download(url))).map((page) => page.text).join(' ');
const pdfPart = (data: Buffer) => new Blob([new Uint8Array(data)], { type: 'application/pdf' });

/** Reads a letter's address as the fake reads any uploaded file: upload the PDF and look at the letter it makes. */
async function readBack(pdf: Buffer, window = 'left') {
	const form = new FormData();
	form.append('file', pdfPart(pdf), 'letter.pdf');
	form.append('address_window', window);
	return (await api(fake, 'POST', '/prints', form)).body.letters[0].address;
}

describe('letters from content', () => {
	it("answers the SDK's live test: one recipient, one draft letter of one page and one sheet", async () => {
		const { status, body } = await api(fake, 'POST', '/prints', { content: 'Hello, World!', recipients: [ann] });
		expect(status).toBe(200);
		expect(body).toMatchObject({ object: 'print', type: 'letter', confirmed: false, pages: 1, sheets: 1, file: null, reference: null, cost: cost(85) });
		expect(body.letters).toHaveLength(1);
		expect(body.letters[0]).toMatchObject({ status: 'draft', pages: 1, sheets: 1, envelope: 'c5', address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB' } });
	});

	it('fills placeholders per recipient and turns HTML into text; a placeholder with no variable is left empty', async () => {
		const content = '<h1>Hello {{first_name}}</h1>\n<p>Your balance is {{ balance }} &amp; due &lt;soon&gt;.</p><ul><li>One</li><li>Two&nbsp;items</li></ul><p>Missing: [{{nope}}].<br>Bye</p>';
		const { body } = await api(fake, 'POST', '/prints', { content, recipients: [ann, bob] });
		const [first, second] = [await textOf(body.letters[0].pdf), await textOf(body.letters[1].pdf)];
		for (const text of ['Hello Ann', 'Your balance is 12.5 & due <soon>.', '• One', '• Two items', 'Missing: [].', 'Bye']) expect(first).toContain(text);
		expect(second).toContain('Hello Bob');
		expect(second).toContain('Your balance is & due');
		expect(first).not.toMatch(/\{\{|<p>|&amp;/);
	});

	it('prints the address in the envelope window, where the fake reads addresses back from a PDF', async () => {
		const { body } = await api(fake, 'POST', '/prints', { content: 'Dear {{first_name}},', recipients: [ann, bob] });
		expect(body.letters[1].address).toEqual({ name: 'Bob Jones', line: '10 Park Avenue\nYork', postcode: 'YO1 7HH', country: 'GB' });
		for (const [index, person] of [ann, bob].entries()) {
			const address = await readBack(await download(body.letters[index].pdf));
			const lines = person.address.line.split(/\n|, /);
			expect(address).toEqual({ name: person.address.name, line: [...lines, person.address.postcode].join('\n'), postcode: person.address.postcode, country: 'GB' });
		}
		const right = await api(fake, 'POST', '/prints', { content: 'Dear {{first_name}},', recipients: [ann], address_window: 'right' });
		expect(right.body.address_window).toBe('right');
		const pdf = await download(right.body.letters[0].pdf);
		expect(await readBack(pdf, 'right')).toMatchObject({ name: 'Ann Smith', postcode: 'LS1 4AP' });
		expect((await readBack(pdf, 'left')).name).toBeNull();
	});

	it('flows long content onto further pages: pages, sheets, costs and the letter PDFs agree', async () => {
		const paragraph = 'This statement explains every charge on your account in words long enough to wrap across the line. '.repeat(4);
		const content = Array.from({ length: 40 }, (_, i) => `<p>${i + 1}. ${paragraph}</p>`).join('');
		const { body } = await api(fake, 'POST', '/prints', { content, recipients: [ann, bob], printing: { double_sided: 'yes' } });
		const letter = body.letters[0];
		expect(letter.pages).toBeGreaterThanOrEqual(4);
		expect(await pageCount(await download(letter.pdf))).toBe(letter.pages);
		expect(letter.sheets).toBe(Math.ceil(letter.pages / 2));
		expect(letter.cost).toEqual(cost(85 + (letter.sheets - 1) * 5));
		expect(body.pages).toBe(2 * letter.pages);
		expect(body.sheets).toBe(2 * letter.sheets);
		expect(await textOf(letter.pdf)).toContain('40. This statement');
	});

	it('renders 100 recipients quickly, each letter addressed to its recipient', async () => {
		const list = people(100).map((person) => ({ address: { name: person.name, line: person.lines.join('\n'), postcode: person.postcode }, variables: { name: person.name } }));
		const started = Date.now();
		const { status, body } = await api(fake, 'POST', '/prints', { content: '<p>Dear {{name}},</p><p>Your statement is enclosed.</p>', recipients: list });
		expect(status).toBe(200);
		expect(Date.now() - started).toBeLessThan(3000);
		expect(body.letters.map((letter) => letter.address.name)).toEqual(list.map((entry) => entry.address.name));
		expect(body.cost).toEqual(cost(8500));
		expect(await textOf(body.letters[41].pdf)).toContain('Dear Customer 042,');
	});

	it('drops letters holding the remove_letters phrase, and refuses splitting', async () => {
		const quiet = { ...bob, variables: { first_name: 'EMAIL ONLY' } };
		const { body } = await api(fake, 'POST', '/prints', { content: 'Dear {{first_name}}', recipients: [ann, quiet], remove_letters: { with_phrase: 'EMAIL ONLY' } });
		expect(body.letters.map((letter) => letter.address.name)).toEqual(['Ann Smith']);
		const split = await api(fake, 'POST', '/prints', { content: 'Hi', recipients: [ann], splitting: { method: 'split_on_pages', pages: 1 } });
		expect(split.body.error).toMatchObject({ code: 'parameter_invalid', param: 'splitting.method' });
	});

	it('updates content and recipients of a content job; a refused update changes nothing', async () => {
		const { body: job } = await api(fake, 'POST', '/prints', { content: 'Hi {{first_name}}', recipients: [ann] });
		const { body: updated } = await api(fake, 'POST', `/prints/${job.id}`, { recipients: [ann, bob, ann], content: 'Hello {{first_name}}' });
		expect(updated.letters.map((letter) => letter.address.name)).toEqual(['Ann Smith', 'Bob Jones', 'Ann Smith']);
		expect(await textOf(updated.letters[1].pdf)).toContain('Hello Bob');
		const refused = await api(fake, 'POST', `/prints/${job.id}`, { reference: 'changed', printing: { matt_finish: true } });
		expect(refused.body.error).toMatchObject({ param: 'printing.matt_finish' });
		const kept = (await api(fake, 'GET', `/prints/${job.id}`)).body;
		expect([kept.reference, kept.letters.length, kept.printing]).toEqual([null, 3, { double_sided: 'no', double_sided_specific_pages: null, premium_quality: false, black_and_white: false }]);
		const form = new FormData();
		form.append('file', pdfPart(await simplePdf(1)), 'a.pdf');
		const { body: fileJob } = await api(fake, 'POST', '/prints', form);
		expect((await api(fake, 'POST', `/prints/${fileJob.id}`, { content: 'Hi' })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'content' });
	});
});

describe('what a create must say', () => {
	it("refuses a create with nothing to print, in the API's words", async () => {
		const message = "Missing required parameter: You must provide either 'content', 'file', or 'template'";
		const form = new FormData();
		form.append('reference', 'x');
		for (const body of [form, {}, { recipients: [ann] }]) {
			const answer = await api(fake, 'POST', '/prints', body);
			expect(answer.status).toBe(400);
			expect(answer.body.error).toEqual({ type: 'invalid_request_error', code: 'parameter_missing', message, param: 'file' });
		}
	});

	it('refuses sources that do not go together, and names the parameter', async () => {
		const form = new FormData();
		form.append('file', pdfPart(await simplePdf(1)), 'a.pdf');
		form.append('recipients[0][address][name]', 'Ann');
		const cases: Array<[unknown, string, string]> = [
			[{ content: 'Hi' }, 'parameter_missing', 'recipients'],
			[{ content: 'Hi', recipients: [] }, 'parameter_missing', 'recipients'],
			[{ content: '  ', recipients: [ann] }, 'parameter_invalid', 'content'],
			// A file may go to recipients now, but each needs a whole address.
			[form, 'parameter_missing', 'recipients.0.address.line'],
			[{ content: 'Hi', recipients: [ann], mailing_list: 'mal_x' }, 'parameter_invalid', 'mailing_list'],
			[{ content: 'Hi', mailing_list: 'mal_nope' }, 'parameter_invalid', 'mailing_list'],
			[{ template: 'tpl_1', recipients: [ann] }, 'parameter_invalid', 'template'],
			[{ template: 'tpl_1', content: 'Hi', recipients: [ann] }, 'parameter_invalid', 'template'],
			[{ file: { content: 'JVBERi0=', name: 'a.pdf' }, content: 'Hi' }, 'parameter_invalid', 'content'],
		];
		for (const [body, code, param] of cases) expect((await api(fake, 'POST', '/prints', body)).body.error, JSON.stringify(body)).toMatchObject({ code, param });
	});

	it('checks every recipient field strictly, with dot paths', async () => {
		const send = async (recipient: unknown, extra: object = {}) => (await api(fake, 'POST', '/prints', { content: 'Hi', recipients: [ann, recipient], ...extra })).body.error;
		const address = (change: object) => ({ address: { ...ann.address, ...change } });
		expect(await send(address({ postcode: undefined }))).toMatchObject({ code: 'parameter_missing', param: 'recipients.1.address.postcode' });
		expect(await send(address({ name: ' ' }))).toMatchObject({ code: 'parameter_missing', param: 'recipients.1.address.name' });
		expect(await send({ variables: {} })).toMatchObject({ code: 'parameter_missing', param: 'recipients.1.address' });
		expect(await send(address({ country: 'gb' }))).toMatchObject({ code: 'parameter_invalid', param: 'recipients.1.address.country' });
		expect(await send(address({ line: 'a\nb\nc\nd\ne\nf\ng' }))).toMatchObject({ code: 'parameter_invalid', param: 'recipients.1.address.line' });
		expect(await send(address({ name: { first: 'Ann' } }))).toMatchObject({ code: 'parameter_invalid', param: 'recipients.1.address.name' });
		expect(await send({ ...ann, variables: { extra: { nested: 1 } } })).toMatchObject({ code: 'parameter_invalid', param: 'recipients.1.variables.extra' });
		expect(await send({ ...ann, variables: { ok: true } })).toMatchObject({ code: 'parameter_invalid', param: 'recipients.1.variables.ok' });
		expect(await send({ adress: ann.address })).toMatchObject({ code: 'parameter_unknown', param: 'recipients.1.adress', message: 'Received unknown parameter: recipients.1.adress (Did you mean recipients.1.address?)' });
		expect((await api(fake, 'POST', '/prints', { content: 'Hi', recipients: 'Ann' })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'recipients' });
		const many = Array.from({ length: 10_001 }, () => ann);
		expect((await api(fake, 'POST', '/prints', { content: 'Hi', recipients: many })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'recipients', message: expect.stringContaining('at most 10000') });
	});

	it('reads recipients in the wire form the SDK sends, multipart or urlencoded', async () => {
		const form = new FormData();
		// A letter to France goes International: one print job has one service (destinations.ts).
		const fields: Record<string, string> = {
			'postage[service]': 'international',
			content: '<p>Hello {{first_name}} {{last_name}}</p>',
			'recipients[0][address][name]': 'Ann Smith', 'recipients[0][address][line]': '1 Rue Haute\nLyon', 'recipients[0][address][postcode]': '69001', 'recipients[0][address][country]': 'FR',
			'recipients[0][variables][first_name]': 'Ann', 'recipients[0][variables][last_name]': 'Smith',
			'recipients[1][address][name]': 'Chloé Martin', 'recipients[1][address][line]': '5 Rue de la Paix, Paris', 'recipients[1][address][postcode]': '75002',
			'recipients[1][address][country]': 'FR', 'recipients[1][variables][first_name]': 'Chloé',
		};
		for (const [key, value] of Object.entries(fields)) form.append(key, value);
		const { body } = await api(fake, 'POST', '/prints', form);
		expect(body.letters.map((letter) => letter.address)).toEqual([
			{ name: 'Ann Smith', line: '1 Rue Haute\nLyon', postcode: '69001', country: 'FR' },
			{ name: 'Chloé Martin', line: '5 Rue de la Paix\nParis', postcode: '75002', country: 'FR' },
		]);
		expect(await textOf(body.letters[0].pdf)).toContain('Hello Ann Smith');
		expect(await textOf(body.letters[1].pdf)).toContain('Hello Chloé');
		const encoded = await api(fake, 'POST', '/prints', new URLSearchParams(fields));
		expect(encoded.body.letters).toHaveLength(2);
	});
});

describe('a file named by URL or given inline', () => {
	it('downloads file[url] (a PDF only) and names the job after it', async () => {
		const url = fake.publish('three-pages.pdf', await simplePdf(3));
		const form = new FormData();
		form.append('file[url]', url);
		const { body } = await api(fake, 'POST', '/prints', form);
		expect(body).toMatchObject({ reference: 'three-pages.pdf', file: { name: 'three-pages.pdf', pages: 3 }, pages: 3 });
		expect((await api(fake, 'POST', '/prints', { file: { url, name: 'renamed.pdf' } })).body.file).toEqual({ name: 'renamed.pdf', pages: 3 });
		const text = fake.publish('notes.txt', Buffer.from('hello'), 'text/plain');
		for (const bad of [text, `${fake.fileUrl}/demo/missing.pdf`, 'ftp://example.com/a.pdf', 'not a url', 'http://127.0.0.1:9/a.pdf']) {
			expect((await api(fake, 'POST', '/prints', { file: { url: bad } })).body.error, bad).toMatchObject({ code: 'parameter_invalid', param: 'file.url' });
		}
	});

	it('takes file[content] in base64 with file[name]', async () => {
		const content = (await simplePdf(2)).toString('base64');
		const form = new FormData();
		form.append('file[content]', content);
		form.append('file[name]', 'inline.pdf');
		expect((await api(fake, 'POST', '/prints', form)).body).toMatchObject({ reference: 'inline.pdf', file: { name: 'inline.pdf', pages: 2 } });
		const refused = async (file: unknown) => (await api(fake, 'POST', '/prints', { file })).body.error;
		expect(await refused({ content })).toMatchObject({ code: 'parameter_missing', param: 'file.name' });
		expect(await refused({ content: '***', name: 'a.pdf' })).toMatchObject({ code: 'parameter_invalid', param: 'file.content' });
		expect(await refused({ content: Buffer.from('hello').toString('base64'), name: 'a.pdf' })).toMatchObject({ code: 'parameter_invalid', param: 'file.content' });
		expect(await refused({ content, name: 'a.pdf', url: 'http://x/a.pdf' })).toMatchObject({ code: 'parameter_invalid', param: 'file' });
		expect(await refused({ name: 'a.pdf' })).toMatchObject({ code: 'parameter_missing', param: 'file' });
		expect(await refused({ contents: content })).toMatchObject({ code: 'parameter_unknown', param: 'file.contents' });
		expect(await refused('just text')).toMatchObject({ code: 'parameter_invalid', param: 'file' });
	});
});
