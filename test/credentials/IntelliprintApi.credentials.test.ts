import type { IHttpRequestOptions } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { IntelliprintApi } from '../../credentials/IntelliprintApi.credentials';
import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { TestCredentialsHelper } from '../helpers/credentials';
import { singleNodeWorkflow } from '../helpers/n8n';

const credentialType = new IntelliprintApi();
let fake: FakeIntelliprint;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
});
afterAll(async () => fake.stop());

/** Sends the credential's test request the way n8n does: expressions resolved, authentication applied. */
async function testCredential(data: { apiKey: string; baseUrl: string }) {
	const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprint');
	const request = credentialType.test.request;
	const baseURL = workflow.expression.resolveSimpleParameterValue(request.baseURL!, {}, null, 0, 0, node.name, [], 'internal', { $credentials: data } as never) as string;
	const helper = new TestCredentialsHelper({ intelliprintApi: credentialType }, {});
	const options = (await helper.authenticate(data, 'intelliprintApi', { ...request, url: request.url!, baseURL } as IHttpRequestOptions, workflow, node)) as IHttpRequestOptions;
	const url = new URL(`${options.baseURL}${options.url}`);
	for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, String(value));
	const response = await fetch(url, { headers: options.headers as Record<string, string> });
	const rule = credentialType.test.rules?.find((r) => r.type === 'responseCode' && r.properties.value === response.status);
	return { status: response.status, message: rule?.properties.message };
}

describe('Intelliprint API credential', () => {
	it('keeps the API key in a password field and defaults to the official host', () => {
		const apiKey = credentialType.properties.find((p) => p.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
		expect(credentialType.properties.find((p) => p.name === 'baseUrl')?.default).toBe('https://api.intelliprint.net/v1');
	});

	it('passes with a good key, also when the base URL ends in a slash', async () => {
		expect(await testCredential({ apiKey: fake.apiKey, baseUrl: `${fake.url}/` })).toEqual({ status: 200, message: undefined });
		expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/prints', query: { limit: '1' } });
	});

	it('tells a wrong key apart from a wrong path and an unreachable host', async () => {
		const wrongKey = await testCredential({ apiKey: 'nope', baseUrl: fake.url });
		expect(wrongKey.message).toContain('refused the API key');
		const wrongPath = await testCredential({ apiKey: fake.apiKey, baseUrl: fake.url.replace('/v1', '/v9') });
		expect(wrongPath.message).toContain('no Intelliprint API at this Base URL');
		const gone = await startFakeIntelliprint();
		const url = gone.url;
		await gone.stop();
		await expect(testCredential({ apiKey: fake.apiKey, baseUrl: url })).rejects.toThrow(/fetch failed/);
	});
});
