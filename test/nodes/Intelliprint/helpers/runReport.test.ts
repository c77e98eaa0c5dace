import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../helpers/context';

/** The execution's custom data and the run's hints, as n8n-core records them for a run of the node. */
const rows = (count: number, blankAt: number[] = []) =>
	Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: blankAt.includes(i) ? '' : 'LS1 4AP' } }));
const create = (recipientsFrom: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom,
	recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: true, ...extra,
});

describe('what a run records and hints', () => {
	const api = useFakeApi();

	it('records the print jobs it made in the execution custom data, within n8n limits', async () => {
		const { run, items } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: rows(3) });
		const ids = items.map((item) => item.json.id);
		expect(run.data.resultData.metadata).toEqual({
			intelliprint_print_jobs: '3', intelliprint_print_job_ids: ids.join(', '), intelliprint_letters: '3', intelliprint_mode: 'test', intelliprint_cost_gbp: '3.06',
		});
	});

	it('past 255 characters keeps the count, the first and the last ID', async () => {
		const { run, items } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: rows(20) });
		expect(run.data.resultData.metadata).toMatchObject({ intelliprint_print_jobs: '20', intelliprint_print_job_ids: `${String(items[0].json.id)} … ${String(items[19].json.id)}` });
		for (const value of Object.values(run.data.resultData.metadata ?? {})) expect(String(value).length).toBeLessThanOrEqual(255);
	});

	it('a mail run with refused rows and no Skip Items Already Sent: a hint for each, and no hint as a tool', async () => {
		const { run } = await api.run({ typeVersion: 1.2, parameters: create('allItems'), items: rows(8, [2]), continueOnFail: true });
		const hints = run.data.resultData.runData.Intelliprint[0].hints?.map((hint) => hint.message) ?? [];
		expect(hints).toEqual([
			'1 of 8 rows was not sent: see the items with an "error" field for the reason on each.',
			expect.stringMatching(/^This mail run of 8 rows has no "Skip Items Already Sent": running it again sends every letter again\./),
		]);
		const keyed = await api.run({ typeVersion: 1.2, parameters: create('allItems', { options: { sentKey: '={{ $json.name }}' } }), items: rows(8) });
		expect(keyed.run.data.resultData.runData.Intelliprint[0].hints ?? []).toEqual([]);
	});

	it('a run longer than the rate limit says how many requests and about how long', async () => {
		const { run } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: rows(12), credentials: { rateLimitRequests: 10, rateLimitWindowSeconds: 0.1 } });
		expect(run.data.resultData.runData.Intelliprint[0].hints?.map((hint) => hint.message)).toEqual([
			expect.stringMatching(/^This run needed 12 requests to Intelliprint, which allows 10 per 0.1 s: it takes about a minute at that pace\. A mail run/),
		]);
		const asTool = await api.run({
			typeVersion: 1.2, asTool: true, items: rows(12), credentials: { rateLimitRequests: 10, rateLimitWindowSeconds: 0.1 },
			parameters: create('eachItem', { recipientName: 'Ada', recipientAddress: '1 High Street', recipientPostcode: 'LS1 4AP' }),
		});
		expect(asTool.items).toHaveLength(12);
		expect(asTool.run.data.resultData.runData.Intelliprint[0].hints ?? []).toEqual([]);
	});
});
