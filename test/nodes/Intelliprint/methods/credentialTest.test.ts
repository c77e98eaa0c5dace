import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { intelliprintApiTest } from '../../../../nodes/Intelliprint/methods/credentialTest';
import { Intelliprint } from '../../../../nodes/Intelliprint/Intelliprint.node';
import { CLOSED_API_URL } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';
import { testAdditionalData } from '../../../helpers/n8n';

const api = useFakeApi();

/** Runs the test as n8n's credentials tester does: in n8n-core's CredentialTestContext, with the decrypted credential. */
async function testCredential(data: ICredentialDataDecryptedObject) {
	const context = new CredentialTestContext(testAdditionalData({}));
	return await intelliprintApiTest.call(context, { id: 'cred-1', name: 'Intelliprint account', type: 'intelliprintApi', data });
}


describe('Intelliprint API credential test (run by the node)', () => {
	it('is what the node names in testedBy', () => {
		const node = new Intelliprint();
		expect(node.description.credentials).toContainEqual(expect.objectContaining({ name: 'intelliprintApi', testedBy: 'intelliprintApiTest' }));
		expect(node.methods.credentialTest.intelliprintApiTest).toBe(intelliprintApiTest);
	});

	it('connects with a good key, reading one print job with the key as Bearer header', async () => {
		expect(await testCredential({ apiKey: api.fake.apiKey, baseUrl: `${api.fake.url}/` })).toEqual({ status: 'OK', message: 'Connected' });
		expect(api.apiCalls()).toHaveLength(1);
		expect(api.apiCalls()[0]).toMatchObject({ method: 'GET', path: '/v1/prints', query: { limit: '1' } });
		expect(api.apiCalls()[0].headers.authorization).toBe(`Bearer ${api.fake.apiKey}`);
	});

	it('a daily spending limit that is not an amount in pounds fails the test, naming the field; 0 and "100.50" pass', async () => {
		for (const limit of ['£100', '-5', '100,50', 'abc']) {
			const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url, dailySpendingLimit: limit });
			expect(result, limit).toMatchObject({ status: 'Error', message: expect.stringMatching(/^"Daily Spending Limit \(GBP\)" must be an amount in pounds of 0 or more.*the node confirms no live job/) });
		}
		for (const limit of [0, '100.50', 250]) {
			expect(await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url, dailySpendingLimit: limit })).toEqual({ status: 'OK', message: 'Connected' });
		}
	});

	it('a wrong key: the API\'s own words and "check the API key", never the key', async () => {
		const revoked = [...api.fake.apiKey].reverse().join('');
		const result = await testCredential({ apiKey: revoked, baseUrl: api.fake.url });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('Intelliprint refused the API key');
		expect(result.message).toContain('Intelliprint said: Invalid API key provided. Code: invalid_api_key, HTTP 401');
		expect(result.message).toContain('Check the API key');
		expect(result.message).not.toContain(revoked);
	});

	it('a closed port: the host cannot be reached, named with its port, in words (not just ECONNREFUSED)', async () => {
		const baseUrl = CLOSED_API_URL;
		const { host } = new URL(baseUrl);
		expect(host).toMatch(/^127\.0\.0\.1:\d+$/);
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl });
		expect(result.status).toBe('Error');
		expect(result.message.startsWith(`Cannot reach ${host}. `)).toBe(true);
		expect(result.message).toContain(`Intelliprint at ${baseUrl} refused the connection`);
		expect(result.message).toContain('Check the Base URL');
		expect(result.message).not.toContain('ECONNREFUSED');
		expect(result.message).not.toContain(api.fake.apiKey);
	});

	it('an unknown host name: a DNS message naming the host', async () => {
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: 'http://intelliprint.invalid/v1' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Cannot reach intelliprint\.invalid\. The host name intelliprint\.invalid could not be found\. /);
		expect(result.message).toContain("spelling of the Base URL in the Intelliprint API credential, and this machine's DNS settings");
		expect(result.message).not.toContain(api.fake.apiKey);
	});

	it('a host that never answers: a timeout within the credential\'s Answer Timeout', async () => {
		api.fake.faults.push({ method: 'GET', hang: true, times: 1 });
		const started = Date.now();
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url, timeoutSeconds: 1 });
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`No answer from ${new URL(api.fake.url).host}. Intelliprint at ${api.fake.url} did not answer within 1 second`);
		expect(result.message).toContain('Answer Timeout');
	});

	it('a dropped connection is told apart from a refused one', async () => {
		api.fake.faults.push({ method: 'GET', reset: 'beforeActing', times: 1 });
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url });
		expect(result).toMatchObject({ status: 'Error', message: expect.stringContaining('was cut before the answer arrived') });
		expect(result.message).not.toContain('refused');
	});

	it('a wrong path: no Intelliprint API at that Base URL', async () => {
		const baseUrl = api.fake.url.replace('/v1', '/v9');
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl });
		expect(result).toEqual({ status: 'Error', message: `${new URL(baseUrl).host} answered but has no Intelliprint API at ${baseUrl}. Check that the Base URL ends in /v1.` });
	});

	it('a redirect is not followed: the key never leaves the Base URL', async () => {
		api.fake.faults.push({ method: 'GET', redirect: { status: 302, to: 'elsewhere' }, times: 1 });
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('Intelliprint answered with a redirect (HTTP 302)');
		expect(api.fake.elsewhere).toHaveLength(0);
		expect(api.fake.keyLeaks()).toBe(0);
	});

	it('a 2xx page that is not the API (a proxy\'s HTML) is not taken for success', async () => {
		api.fake.faults.push({ method: 'GET', garbage: 'html', times: 1 });
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('answered, but not as the Intelliprint API does');
	});

	it('a server fault and a rate limit say so', async () => {
		api.fake.faults.push({ method: 'GET', status: 503, times: 1 });
		expect((await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url })).message).toContain('Intelliprint had an internal fault');
		api.fake.faults.push({ method: 'GET', status: 429, headers: { 'retry-after': '30' }, times: 1 });
		expect((await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url })).message).toContain('rate limiting this API key');
	});

	it('a server that echoes the key back: the key is blanked out of the message', async () => {
		const echo = { type: 'invalid_request_error', code: 'parameter_invalid', message: `Key ${api.fake.apiKey} is not allowed here.` };
		api.fake.faults.push({ method: 'GET', status: 400, error: echo, times: 1 });
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: api.fake.url });
		expect(result.message).toContain('Key ***** is not allowed here');
		expect(result.message).not.toContain(api.fake.apiKey);
	});

	it('a Base URL that is not a web address is refused before anything is sent', async () => {
		const result = await testCredential({ apiKey: api.fake.apiKey, baseUrl: 'api.intelliprint.net/v1' });
		expect(result).toEqual({ status: 'Error', message: 'The Base URL "api.intelliprint.net/v1" is not a web address. Enter it in full, e.g. https://api.intelliprint.net/v1' });
		expect(api.apiCalls()).toHaveLength(0);
	});
});
