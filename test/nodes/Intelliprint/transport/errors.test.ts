import { beforeAll, describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../helpers/context';
import { byId } from '../../../helpers/printJobs';
import { simplePdf } from '../../../helpers/pdfs';

const api = useFakeApi();
const get = { resource: 'printJob', operation: 'get', printJob: byId('print_abc123') };
let pdf: Buffer;
beforeAll(async () => {
	pdf = await simplePdf(1);
});

describe('API errors become messages that say what happened and what to do', () => {
	it('no API key', async () => {
		const { error } = await api.run({ parameters: get, credentials: { apiKey: '' } });
		expect(error?.message).toBe('Intelliprint received no API key');
		expect(error?.description).toContain('Code: no_api_key, HTTP 401');
		expect(error?.description).toContain('paste the API key');
		// The API's own message ends with a full stop; the sentences around it are not doubled up.
		expect(error?.description).toMatch(/^Intelliprint said: No API key provided\. Send it as a Bearer token in the Authorization header\. Code: /);
		expect(error?.description).not.toContain('..');
	});

	it('a wrong API key, without ever showing the key', async () => {
		const { error, run } = await api.run({ parameters: get, credentials: { apiKey: 'sk_live_wrong_secret_value' } });
		expect(error?.message).toBe('Intelliprint refused the API key');
		expect(error?.description).toContain('Intelliprint said: Invalid API key provided.');
		expect(JSON.stringify(run)).not.toContain('sk_live_wrong_secret_value');
	});

	it('a request that cannot even be sent says so, without the key anywhere in the run', async () => {
		const { error, run } = await api.run({ parameters: get, credentials: { apiKey: 'sk_live_never_shown', baseUrl: 'not a url' } });
		expect(error?.message).toBe('The request to Intelliprint at not a url could not be sent');
		expect(error?.description).toContain('Base URL');
		expect(JSON.stringify(run)).not.toContain('sk_live_never_shown');
	});

	it('never puts the API key into output items or the run data', async () => {
		const { run } = await api.run({ parameters: { resource: 'printJob', operation: 'create', binaryPropertyName: 'data' }, items: [{ files: { data: { data: pdf, fileName: 'a.pdf' } } }] });
		expect(JSON.stringify(run)).not.toContain(api.fake.apiKey);
	});

	it.each([
		[400, 'invalid_request_error', 'parameter_unknown', 'confimred', 'Intelliprint does not know the field "confimred"', 'Remove that field'],
		[400, 'invalid_request_error', 'parameter_missing', 'file', 'Intelliprint needs a value for "file"', 'binary property'],
		[400, 'invalid_request_error', 'parameter_invalid', 'postage.service', 'Intelliprint refused the value given for "postage.service"', 'allowed values'],
		[400, 'invalid_request_error', 'body_incorrect_format', undefined, 'Intelliprint could not read the request body', 'PDFs'],
		[413, 'invalid_request_error', 'body_too_large', undefined, 'The request is larger than Intelliprint accepts (about 100 MiB)', 'Letters per Print Job'],
		[402, 'payment_error', 'payment_error', undefined, 'Intelliprint could not take payment for this print job', 'Top up'],
		[403, 'authentication_error', 'forbidden', undefined, 'This API key is not allowed to do that', 'account owner'],
		[500, 'internal_error', 'internal_error', undefined, 'Intelliprint had an internal fault', 'request ID'],
	])('HTTP %i %s/%s', async (status, type, code, param, message, hint) => {
		api.fake.faults.push({ method: 'GET', status, times: 5, error: { type, code, message: `The API's own words for ${code}.`, param } });
		const { error } = await api.run({ parameters: get });
		expect(error?.message).toBe(message);
		expect(error?.description).toContain(`Intelliprint said: The API's own words for ${code}.`);
		expect(error?.description).toContain(`Code: ${code}${param ? `, param: ${param}` : ''}, HTTP ${status}`);
		expect(error?.description).toMatch(/Request ID: req_[0-9a-f]+/);
		expect(error?.description).toContain(hint);
		expect(error?.context).toMatchObject({ code, itemIndex: 0, ...(param ? { param } : {}) });
	});

	it('advice that fits what the request was about: a mailing list\'s ID, a field that is no file', async () => {
		const list = { resource: 'mailingList', operation: 'get', mailingList: byId('mal_nope') };
		const missing = await api.run({ parameters: list });
		expect(missing.error?.description).toContain('Check the ID (mailing lists start with "mal_") and that it belongs to this account.');
		expect(missing.error?.description).not.toMatch(/print_|bg_/);
		api.fake.faults.push({ method: 'GET', status: 400, times: 1, error: { type: 'invalid_request_error', code: 'parameter_missing', message: 'Missing name.', param: 'name' } });
		const field = await api.run({ parameters: list });
		expect(field.error?.description).toContain('Fill in that field in the node.');
		expect(field.error?.description).not.toContain('binary property');
	});

	it('rate limiting that outlasts every wait: only "Give Up Waiting After" ends it, not a count of retries', async () => {
		api.fake.faults.push({ method: 'GET', status: 429, headers: { 'retry-after': '0' }, times: 1000 });
		const started = Date.now();
		const { error } = await api.run({ parameters: get, credentials: { maxWaitSeconds: 4 } });
		const waited = Date.now() - started;
		expect(error?.message).toBe('Intelliprint is still rate limiting this API key');
		expect(error?.description).toContain('Requests Allowed');
		expect(error?.description).toMatch(/try again after \d{4}-\d\d-\d\dT/i);
		// "Retry-After: 0" is waited as 250 ms: about 16 tries in 4 s (a count of 10 used to end it sooner).
		expect(api.apiCalls().length).toBeGreaterThan(11);
		// The promise: never past the budget and one answer's time (a read's timeout is 30 s; these answer at once).
		expect(waited).toBeLessThan(4000 + 2000);
	});

	it('a 429 that asks for a short wait is retried until it goes through while budget remains', async () => {
		api.fake.faults.push({ method: 'GET', status: 429, headers: { 'retry-after': '0' }, times: 14 });
		const { error } = await api.run({ parameters: get });
		expect(error?.message).toBe('Intelliprint has nothing with that ID');
		expect(api.apiCalls()).toHaveLength(15);
	});

	it('a Retry-After longer than the item may wait fails at once, saying when to try again', async () => {
		api.fake.faults.push({ method: 'GET', status: 429, headers: { 'retry-after': '3600' }, times: 5 });
		const started = Date.now();
		const { error } = await api.run({ parameters: get });
		expect(Date.now() - started).toBeLessThan(30_000);
		expect(error?.message).toBe('Intelliprint is still rate limiting this API key');
		expect(error?.description).toContain('asks to wait 3600 seconds');
		expect(error?.context?.retryAt).toMatch(/^\d{4}-/);
		expect(api.apiCalls()).toHaveLength(1);
	});

	it('honours Retry-After given as an HTTP date, on 429 and on 5xx of reads', async () => {
		const soon = () => new Date(Date.now() + 1000).toUTCString();
		api.fake.faults.push({ method: 'GET', status: 429, headers: { 'retry-after': soon() }, times: 1 });
		const first = await api.run({ parameters: get });
		expect(api.apiCalls().map((c) => c.status)).toEqual([429, 404]);
		expect(first.error?.message).toBe('Intelliprint has nothing with that ID');
		api.fake.resetRecording();
		api.fake.faults.push({ method: 'GET', status: 503, headers: { 'retry-after': '3600' }, times: 1 });
		const second = await api.run({ parameters: get });
		expect(api.apiCalls()).toHaveLength(1);
		expect(second.error?.description).toContain('The server asks to try again after');
	});

	it('the API refusing a real request names the parameter', async () => {
		const { error } = await api.run({
			parameters: { resource: 'printJob', operation: 'create', binaryPropertyName: 'data', options: { background: { values: { firstPage: { __rl: true, mode: 'id', value: 'bg_missing' } } } } },
			items: [{ files: { data: { data: pdf, fileName: 'a.pdf' } } }],
		});
		expect(error?.message).toBe('Intelliprint refused the value given for "background.first_page"');
		expect(error?.description).toContain('No such background: bg_missing.');
	});

	it('puts the error on the item that failed, and Continue On Fail keeps the others', async () => {
		const { items } = await api.run({
			parameters: { resource: 'printJob', operation: 'get', printJob: byId('={{ $json.id }}') },
			continueOnFail: true,
			items: [{ json: { id: 'print_nope1' } }, { json: { id: 'print_nope2' } }],
		});
		expect(items).toEqual([
			{ json: expect.objectContaining({ error: 'Intelliprint has nothing with that ID' }), pairedItem: { item: 0 } },
			{ json: expect.objectContaining({ error: 'Intelliprint has nothing with that ID' }), pairedItem: { item: 1 } },
		]);
	});
});

describe('an error answer not in the API shape (a proxy, a gateway) keeps what the server said, and invents no code', () => {
	// A page or bare text is a proxy's; JSON in another shape may be Intelliprint's own, so its origin is left open.
	const answers: Array<[string, number, { text: string; contentType: string }, string, boolean]> = [
		['{"message": …} on a 400', 400, { text: JSON.stringify({ message: 'Postcode not recognised' }), contentType: 'application/json' }, ', saying "Postcode not recognised"', true],
		['a bare string on a 400', 400, { text: 'Request blocked by the firewall', contentType: 'text/plain' }, ', saying "Request blocked by the firewall"', false],
		['a 500 with a message', 500, { text: JSON.stringify({ message: 'Database unavailable' }), contentType: 'application/json' }, ', saying "Database unavailable"', true],
		['an HTML 502 page', 502, { text: '<html><body><h1>502 Bad Gateway</h1></body></html>', contentType: 'text/html' }, ' and a web page', false],
	];
	for (const [label, status, body, said, json] of answers) {
		it(label, async () => {
			api.fake.faults.push({ method: 'GET', path: /\/prints\//, status, body, times: 4, retryAfter: 'none' });
			const { error } = await api.run({ parameters: get });
			// Not Intelliprint's shape, so never quoted as Intelliprint's words.
			expect(error?.description).not.toMatch(/Intelliprint said|Code: |param/);
			if (json) {
				expect(error?.description).toContain(`An answer in another form came back with HTTP ${status}${said}: Intelliprint itself or something between`);
				expect(error?.message).toBe(`The answer was not in Intelliprint's error form (HTTP ${status})`);
			} else {
				expect(error?.description).toContain(`A proxy, gateway or load balancer answered with HTTP ${status}${said}.`);
				expect(error?.message).toBe(`The answer came from something between n8n and Intelliprint, not from Intelliprint (HTTP ${status})`);
			}
		});
	}
});
