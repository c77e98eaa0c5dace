import { CredentialTestContext } from 'n8n-core';
import { describe, expect, it } from 'vitest';

import { intelliprintApiTest } from '../../../../nodes/Intelliprint/methods/credentialTest';
import { useFakeApi } from '../../../helpers/context';
import { testAdditionalData } from '../../../helpers/n8n';
import { byId } from '../../../helpers/printJobs';

const api = useFakeApi();
const get = { resource: 'printJob', operation: 'get', printJob: byId('print_abc123') };
/** Intelliprint's own error shape, sent as is: the fake then adds no request-id header. */
const intelliprintBody = (status: number, error: Record<string, string>) => ({
	method: 'GET', path: /\/prints\//, status, times: 4, retryAfter: 'none' as const,
	body: { text: JSON.stringify({ error }), contentType: 'application/json' },
});
const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';

describe('advice points at a field only when Intelliprint named one', () => {
	it.each([
		['parameter_invalid', 'Intelliprint refused the request (HTTP 400)', 'check every value the node sent for this item'],
		['parameter_missing', 'Intelliprint is missing a required value', 'required fields have a value for this item'],
		['parameter_unknown', 'Intelliprint does not know a field that was sent', 'spelling of Metadata keys'],
	])('%s without param', async (code, message, hint) => {
		api.fake.faults.push({ method: 'GET', status: 400, times: 1, error: { type: 'invalid_request_error', code, message: 'Something is off.' } });
		const { error } = await api.run({ parameters: get });
		expect(error?.message).toBe(message);
		expect(error?.description).toContain('Intelliprint named no field');
		expect(error?.description).toContain(hint);
		expect(error?.description).not.toMatch(/that field|allowed values/);
	});

	it('an answer not from Intelliprint names no field either', async () => {
		api.fake.faults.push({ method: 'GET', path: /\/prints\//, status: 400, body: { text: 'Request blocked', contentType: 'text/plain' }, times: 1 });
		const { error } = await api.run({ parameters: get });
		expect(error?.description).not.toMatch(/that field|allowed values/);
	});
});

describe('"send the request ID" only when there is one', () => {
	it('internal_error with a request-id header', async () => {
		api.fake.faults.push({ method: 'GET', status: 500, times: 4, retryAfter: 'none' });
		const { error } = await api.run({ parameters: get });
		expect(error?.description).toMatch(/Request ID: req_[0-9a-f]+\. Try again in a few minutes\. If it keeps happening, send the request ID to Intelliprint support\.$/);
	});

	it('internal_error without one', async () => {
		api.fake.faults.push(intelliprintBody(500, { type: 'internal_error', code: 'internal_error', message: 'Something broke.' }));
		const { error } = await api.run({ parameters: get });
		expect(error?.message).toBe('Intelliprint had an internal fault');
		expect(error?.description).toContain('Intelliprint said: Something broke');
		expect(error?.description).not.toMatch(/request ID/i);
		expect(error?.description).toContain('contact Intelliprint support with the time of this run');
	});
});

describe('an answer that is not Intelliprint\'s is never quoted as Intelliprint\'s', () => {
	const between = 'The answer came from something between n8n and Intelliprint, not from Intelliprint';

	it('an nginx 502 page: its status and title only', async () => {
		api.fake.faults.push({ method: 'GET', path: /\/prints\//, status: 502, body: { text: NGINX_502, contentType: 'text/html' }, times: 4, retryAfter: 'none' });
		const { error } = await api.run({ parameters: get });
		expect(error?.message).toBe(`${between} (HTTP 502)`);
		expect(error?.description).toMatch(/^A proxy, gateway or load balancer answered with HTTP 502 and a page titled "502 Bad Gateway"\. /);
		expect(error?.description).not.toMatch(/Intelliprint said|nginx|<|internal fault|request ID/);
		expect(error?.description).toContain('Base URL');
		expect(error?.context).toMatchObject({ code: 'internal_error' });
	});

	it('a Cloudflare-like challenge page on a 503', async () => {
		api.fake.faults.push({ method: 'GET', garbage: 'html', status: 503, times: 4, retryAfter: 'none' });
		const { error } = await api.run({ parameters: get });
		expect(error?.message).toBe(`${between} (HTTP 503)`);
		expect(error?.description).toContain('a page titled "Just a moment..."');
		expect(error?.description).not.toMatch(/Intelliprint said|Checking your connection/);
	});

	it('JSON in another shape, and plain text: quoted as the other server\'s words', async () => {
		api.fake.faults.push({ method: 'GET', path: /\/prints\//, status: 504, body: { text: JSON.stringify({ message: 'Endpoint request timed out' }), contentType: 'application/json' }, times: 4, retryAfter: 'none' });
		const json = await api.run({ parameters: get });
		// JSON may be Intelliprint's own in another form: where it came from is not stated as fact.
		expect(json.error?.message).toBe("The answer was not in Intelliprint's error form (HTTP 504)");
		expect(json.error?.description).toContain('An answer in another form came back with HTTP 504, saying "Endpoint request timed out": Intelliprint itself or something between');
		expect(json.error?.description).not.toContain('Intelliprint said');
		api.fake.faults.push({ method: 'GET', path: /\/prints\//, status: 403, body: { text: 'Request blocked by the firewall', contentType: 'text/plain' }, times: 1 });
		const text = await api.run({ parameters: get });
		expect(text.error?.message).toBe(`${between} (HTTP 403)`);
		expect(text.error?.description).toContain('saying "Request blocked by the firewall"');
		expect(text.error?.description).not.toMatch(/Intelliprint said|account owner/);
	});

	it('JSON with a message and a request ID: named as an answer in another form, with its request ID, not as a proxy', async () => {
		api.fake.faults.push({ method: 'GET', path: /\/prints\//, status: 500, headers: { 'request-id': 'req_json1' }, body: { text: JSON.stringify({ message: 'Upstream failed' }), contentType: 'application/json' }, times: 4, retryAfter: 'none' });
		const { error } = await api.run({ parameters: get });
		expect(error?.message).toBe("The answer was not in Intelliprint's error form (HTTP 500)");
		expect(error?.description).toContain('Request ID: req_json1');
		expect(error?.description).not.toMatch(/A proxy, gateway or load balancer answered/);
	});

	it('in the credential test too', async () => {
		api.fake.faults.push({ method: 'GET', path: /\/prints/, status: 502, body: { text: NGINX_502, contentType: 'text/html' }, times: 1 });
		const context = new CredentialTestContext(testAdditionalData({}));
		const result = await intelliprintApiTest.call(context, { id: 'cred-1', name: 'Intelliprint account', type: 'intelliprintApi', data: { apiKey: api.fake.apiKey, baseUrl: api.fake.url } });
		expect(result.message).toContain(`${between} (HTTP 502)`);
		expect(result.message).toContain('"502 Bad Gateway"');
		expect(result.message).not.toMatch(/Intelliprint said|nginx|internal fault/);
	});
});
