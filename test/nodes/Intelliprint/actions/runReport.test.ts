import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { shortestPacedMs } from '../../../../nodes/Intelliprint/transport';
import { startFakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';
import { runIntelliprint } from '../../../helpers/n8n';

/** The run's hints, as n8n-core records them for a run of the node. */
const rows = (count: number, blankAt: number[] = []) =>
	Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: blankAt.includes(i) ? '' : 'LS1 4AP' } }));
const create = (recipientsFrom: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom,
	recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: true, ...extra,
});

describe('what a run hints', () => {
	const api = useFakeApi();

	it('a mail run with refused rows and no Skip Items Already Sent: a hint for each, and no hint as a tool', async () => {
		const { run } = await api.run({ typeVersion: 1.2, parameters: create('allItems'), items: rows(8, [2]), continueOnFail: true });
		const hints = run.data.resultData.runData.Intelliprint[0].hints?.map((hint) => hint.message) ?? [];
		expect(hints).toEqual([
			'1 of 8 rows was not sent: see the items with an "error" field for the reason on each.',
			expect.stringMatching(/^This mail run of 8 rows has no "Skip Items Already Sent": running it again sends every letter again \(turned on now, it cannot find the letters this run sent\)\. Set it under Options/),
		]);
		const keyed = await api.run({ typeVersion: 1.2, parameters: create('allItems', { options: { sentKey: '={{ $json.name }}' } }), items: rows(8) });
		expect(keyed.run.data.resultData.runData.Intelliprint[0].hints ?? []).toEqual([]);
	});

	it('a run longer than the rate limit says how many requests and at least how long, as the pacing keeps it', async () => {
		const { run } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: rows(12), credentials: { rateLimitRequests: 10, rateLimitWindowSeconds: 0.1 } });
		expect(run.data.resultData.runData.Intelliprint[0].hints?.map((hint) => hint.message)).toEqual([
			expect.stringMatching(/^This run needed 12 requests to Intelliprint, which allows 10 per 0.1 s: at that pace it takes at least 0.1 s\. A mail run/),
		]);
		const asTool = await api.run({
			typeVersion: 1.2, asTool: true, items: rows(12), credentials: { rateLimitRequests: 10, rateLimitWindowSeconds: 0.1 },
			parameters: create('eachItem', { recipientName: 'Ada', recipientAddress: '1 High Street', recipientPostcode: 'LS1 4AP' }),
		});
		expect(asTool.items).toHaveLength(12);
		expect(asTool.run.data.resultData.runData.Intelliprint[0].hints ?? []).toEqual([]);
	});
});

describe("the hint is the pacing's own arithmetic", () => {
	it.each([
		[4, 2, 1000, 1000],
		[2, 2, 1000, 0],
		[100, 100, 60_000, 0],
		[101, 100, 60_000, 60_000],
		[300, 100, 60_000, 120_000],
		[12, 10, 100, 100],
	])('%i requests at %i per %i ms take at least %i ms', (requests, allowed, windowMs, least) => {
		expect(shortestPacedMs(requests, { requests: allowed, windowMs })).toBe(least);
	});

	it("a run's requests, as the API counted them, never span less than the hint says", async () => {
		// The API's own limit at the credential's: the fake refuses (429) whatever would beat it.
		const fake = await startFakeIntelliprint({ rateLimit: { requests: 2, windowMs: 1000 } });
		try {
			const { run } = await runIntelliprint({
				typeVersion: 1.2, parameters: create('eachItem'), items: rows(4),
				credentials: { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 2, rateLimitWindowSeconds: 1 } as never,
			});
			const hint = String(run.data.resultData.runData.Intelliprint[0].hints?.[0]?.message);
			expect(hint).toMatch(/^This run needed 4 requests to Intelliprint, which allows 2 per 1 s: at that pace it takes at least 1 s\./);
			const counted = fake.requests.filter((request) => request.status === 200).map((request) => request.countedAt ?? request.at ?? 0);
			expect(counted).toHaveLength(4);
			expect(Math.max(...counted) - Math.min(...counted)).toBeGreaterThanOrEqual(shortestPacedMs(4, { requests: 2, windowMs: 1000 }));
		} finally {
			await fake.stop();
		}
	});
});
