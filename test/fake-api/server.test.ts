import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { mailMergePdf, recipients, simplePdf } from '../helpers/pdfs';
import { pageCount } from './pdf';
import { startFakeIntelliprint, type FakeIntelliprint } from './server';

let fake: FakeIntelliprint;
let pdf: Buffer;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	pdf = await simplePdf(4);
});
afterAll(async () => fake.stop());

/** Just enough of the API's answers to read them in assertions. */
interface Answer {
	id: string;
	error: { code: string; type: string; param?: string; message: string };
	data: Array<{ testmode: boolean }>;
	total_available: number;
	letters: Array<{ status: string; pdf: string; address: { name: string } }>;
	[key: string]: unknown;
}

const bearer = () => ({ authorization: `Bearer ${fake.apiKey}` });
async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
	const response = await fetch(`${fake.url}${path}`, { method, headers: { ...bearer(), ...init.headers }, body: init.body });
	return { status: response.status, headers: response.headers, body: (await response.json()) as Answer };
}
function form(fields: Record<string, string>, file: Buffer | null = pdf, name = 'letters.pdf') {
	const data = new FormData();
	if (file) data.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), name);
	for (const [key, value] of Object.entries(fields)) data.append(key, value);
	return data;
}

describe('fake Intelliprint API', () => {
	it('authenticates with Bearer or Basic, and says which key problem it is', async () => {
		expect((await call('GET', '/prints')).status).toBe(200);
		const basic = `Basic ${Buffer.from(`${fake.apiKey}:`).toString('base64')}`;
		expect((await call('GET', '/prints', { headers: { authorization: basic } })).status).toBe(200);
		const none = await fetch(`${fake.url}/prints`);
		expect(none.status).toBe(401);
		expect(((await none.json()) as Answer).error).toMatchObject({ type: 'authentication_error', code: 'no_api_key' });
		const wrong = await call('GET', '/prints', { headers: { authorization: 'Bearer nope' } });
		expect(wrong.body.error.code).toBe('invalid_api_key');
		expect(wrong.headers.get('request-id')).toMatch(/^req_/);
	});

	it('answers unknown routes with the not_found body', async () => {
		const { status, body } = await call('POST', '/../v0/prints');
		expect(status).toBe(404);
		expect(body.error).toEqual({ type: 'invalid_request_error', code: 'not_found', message: 'No such resource exists: POST /v0/prints' });
	});

	it('refuses unknown parameters with a hint, bad enum values, and a missing file', async () => {
		const unknown = await call('POST', '/prints', { body: form({ confimred: 'true' }) });
		expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'confimred', message: 'Received unknown parameter: confimred (Did you mean confirmed?)' });
		const nested = await call('POST', '/prints', { body: form({ 'postage[servce]': 'x' }) });
		expect(nested.body.error).toMatchObject({ code: 'parameter_unknown', param: 'postage.servce', message: expect.stringContaining('Did you mean postage.service?') });
		const invalid = await call('POST', '/prints', { body: form({ 'postage[service]': 'pigeon' }) });
		expect(invalid.body.error).toMatchObject({ code: 'parameter_invalid', param: 'postage.service' });
		const missing = await call('POST', '/prints', { body: form({ reference: "x" }, null) });
		expect(missing.status).toBe(400);
		expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_missing', param: 'file' });
		const notPdf = await call('POST', '/prints', { body: form({}, Buffer.from('hello')) });
		expect(notPdf.body.error).toMatchObject({ code: 'parameter_invalid', param: 'file' });
	});

	it('reads bracketed, dotted, JSON and urlencoded bodies alike', async () => {
		const created = await call('POST', '/prints', { body: form({ 'postage.service': 'tracked_24', 'metadata[batch]': '7', 'printing[double_sided]': 'yes' }) });
		expect(created.body).toMatchObject({ postage: { service: 'tracked_24' }, metadata: { batch: '7' }, printing: { double_sided: 'yes' }, sheets: 2, pages: 4 });
		const id = created.body.id;
		const json = await call('POST', `/prints/${id}`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'via json', nudge: { x: 1.5, y: -2 } }) });
		expect(json.body).toMatchObject({ reference: 'via json', nudge: { x: 1.5, y: -2 } });
		const urlencoded = await call('POST', `/prints/${id}`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'reference=via+form&confidential=true' });
		expect(urlencoded.body).toMatchObject({ reference: 'via form', confidential: true });
		const refused = await call('POST', `/prints/${id}`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ testmode: true }) });
		expect(refused.body.error).toMatchObject({ code: 'parameter_unknown', param: 'testmode' });
	});

	it('refuses updates to a confirmed job; deleting it cancels its waiting letters', async () => {
		const { body: job } = await call('POST', '/prints', { body: form({ confirmed: 'true', 'splitting[method]': 'split_on_pages', 'splitting[pages]': '2' }) });
		expect(job.letters.map((l) => l.status)).toEqual(['waiting_to_print', 'waiting_to_print']);
		const update = await call('POST', `/prints/${job.id}`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'late' }) });
		expect(update.status).toBe(400);
		const cancelled = await call('DELETE', `/prints/${job.id}`);
		expect(cancelled.body.letters.map((l) => l.status)).toEqual(['cancelled', 'cancelled']);
		const { body: draft } = await call('POST', '/prints', { body: form({}) });
		expect((await call('DELETE', `/prints/${draft.id}`)).body).toEqual({ id: draft.id, object: 'print', deleted: true });
	});

	it('lists in an envelope with limit 1..1000 and skip, test jobs only on request', async () => {
		fake.prints.seed(25);
		fake.prints.seed(3, { testmode: true });
		const page = await call('GET', '/prints?limit=20&skip=5');
		expect(page.body).toMatchObject({ object: 'list', has_more: true });
		expect(page.body.data).toHaveLength(20);
		expect(page.body.total_available).toBeGreaterThanOrEqual(25);
		expect((await call('GET', '/prints')).body.data).toHaveLength(10);
		expect((await call('GET', '/prints?testmode=true')).body.data.every((j) => j.testmode)).toBe(true);
		expect((await call('GET', '/prints?testmode=true')).body.total_available).toBe(3);
		for (const limit of ['0', '1001', 'x']) expect((await call('GET', `/prints?limit=${limit}`)).body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
		expect((await call('GET', '/prints?letters.status=lost')).body.error).toMatchObject({ param: 'letters.status' });
	});

	it('builds letters from the PDF: split on a phrase, drop letters with a phrase anywhere, read the address window', async () => {
		const people = recipients(12, 4);
		const { body } = await call('POST', '/prints', { body: form({ 'splitting[method]': 'split_on_phrase', 'splitting[phrase]': 'Dear', 'remove_letters[with_phrase]': 'EMAIL ONLY' }, await mailMergePdf(people)) });
		const posted = people.filter((p) => !p.emailOnly);
		expect(body.letters.map((l) => l.address.name)).toEqual(posted.map((p) => p.name));
		expect(body.letters[0].address).toEqual({ name: people[0].name, line: `${people[0].lines.join('\n')}\n${people[0].postcode}`, postcode: people[0].postcode, country: 'GB' });
		expect(body.pages).toBe(posted.reduce((sum, p) => sum + p.pages, 0));
		// Each letter's PDF is served by a separate file host, without the API key.
		const letterPdf = await fetch(body.letters[2].pdf);
		expect(body.letters[2].pdf.startsWith(fake.fileUrl)).toBe(true);
		expect(await pageCount(Buffer.from(await letterPdf.arrayBuffer()))).toBe(posted[2].pages);
	});

	it('keeps backgrounds: upload, get, update by PATCH or POST, list by team, delete, PNG preview', async () => {
		const { body: created } = await call('POST', '/backgrounds', { body: form({ name: 'Head', team: 'team_a' }) });
		expect(created).toMatchObject({ object: 'background', name: 'Head', team: 'team_a', filename: 'letters.pdf' });
		const json = { 'content-type': 'application/json' };
		expect((await call('PATCH', `/backgrounds/${created.id}`, { headers: json, body: JSON.stringify({ name: 'Head 2' }) })).body.name).toBe('Head 2');
		expect((await call('POST', `/backgrounds/${created.id}`, { headers: json, body: JSON.stringify({ team: 'team_b' }) })).body.team).toBe('team_b');
		expect((await call('GET', '/backgrounds?team=team_b')).body.data).toHaveLength(1);
		expect((await call('GET', '/backgrounds?team=team_a')).body.data).toHaveLength(0);
		const png = Buffer.from(await (await fetch(created.preview as string)).arrayBuffer());
		expect(png.subarray(1, 4).toString()).toBe('PNG');
		expect((await call('DELETE', `/backgrounds/${created.id}`)).body).toEqual({ id: created.id, object: 'background', deleted: true });
		expect((await call('GET', `/backgrounds/${created.id}`)).status).toBe(404);
	});

	it('merges repeated files[] parts in order and serves the result at download_link', async () => {
		const data = new FormData();
		for (const pages of [1, 2, 3]) data.append('files[]', new Blob([new Uint8Array(await simplePdf(pages))], { type: 'application/pdf' }), `${pages}.pdf`);
		const { body } = await call('POST', '/tools/merge', { body: data });
		expect(body).toMatchObject({ object: 'merge', id: expect.stringMatching(/^merge_/) });
		expect(await pageCount(Buffer.from(await (await fetch(body.download_link as string)).arrayBuffer()))).toBe(6);
		const single = new FormData();
		single.append('files[]', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'one.pdf');
		expect((await call('POST', '/tools/merge', { body: single })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'files' });
	});

	it('answers 429 with Retry-After over its rate limit', async () => {
		const limited = await startFakeIntelliprint({ rateLimit: { requests: 3, windowMs: 5000 } });
		try {
			const statuses: number[] = [];
			let last: Response | undefined;
			for (let i = 0; i < 4; i++) {
				last = await fetch(`${limited.url}/prints`, { headers: { authorization: `Bearer ${limited.apiKey}` } });
				statuses.push(last.status);
			}
			expect(statuses).toEqual([200, 200, 200, 429]);
			expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
			expect(((await last!.json()) as Answer).error).toMatchObject({ type: 'rate_limited', code: 'rate_limited' });
		} finally {
			await limited.stop();
		}
	});
});
