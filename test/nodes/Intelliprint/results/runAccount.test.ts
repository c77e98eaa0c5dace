import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { SIX_ROWS } from '../../../helpers/sixRows';
import { useFakeApi } from '../../../helpers/context';

/**
 * The execution's custom data, as n8n-core records it: each print job once whichever nodes touched it, recorded
 * however the run ends, and the drafts a spending limit held back counted apart.
 */
const api = useFakeApi();
const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
const create = (recipientsFrom: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom,
	recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: true, ...extra,
});
const liveConfirmedGbp = () => [...api.fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;

describe('what an execution records of its print jobs', () => {
	it('the print jobs it made, within n8n limits', async () => {
		const { run, items } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: rows(3) });
		const ids = items.map((item) => item.json.id);
		expect(run.data.resultData.metadata).toEqual({
			intelliprint_print_jobs: '3', intelliprint_print_job_ids: ids.join(', '), intelliprint_letters: '3', intelliprint_mode: 'test', intelliprint_cost_gbp: '3.06',
		});
	});

	it('past 255 characters keeps the count, the lowest and the highest ID (not the first and last noted: items run in parallel)', async () => {
		const { run, items } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: rows(20) });
		const ids = items.map((item) => String(item.json.id)).sort();
		expect(run.data.resultData.metadata).toMatchObject({ intelliprint_print_jobs: '20', intelliprint_print_job_ids: `${ids[0]} … ${ids[19]}` });
		for (const value of Object.values(run.data.resultData.metadata ?? {})) expect(String(value).length).toBeLessThanOrEqual(255);
	});

	it('a job created by one node and confirmed by the next counts once: 1 job, 1 letter, £1.02', async () => {
		const { run, items } = await api.run({
			typeVersion: 1.2, parameters: create('eachItem', { testmode: false, confirmed: false }), items: rows(1),
			then: { resource: 'printJob', operation: 'confirm', printJob: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
		});
		expect(run.data.resultData.runData['Intelliprint 2'][0].data?.main[0]?.[0].json).toMatchObject({ id: items[0].json.id, confirmed: true });
		expect(run.data.resultData.metadata).toEqual({
			intelliprint_print_jobs: '1', intelliprint_print_job_ids: String(items[0].json.id), intelliprint_letters: '1', intelliprint_mode: 'live', intelliprint_cost_gbp: '1.02',
		});
	});

	it('the six-row mail run: one job of four letters, the two refused rows not counted', async () => {
		const { run, items } = await api.run({ typeVersion: 1.2, parameters: create('allItems'), items: SIX_ROWS.map((json) => ({ json })), continueOnFail: true });
		const job = items.find((item) => item.json.error === undefined)!;
		expect(run.data.resultData.metadata).toEqual({
			intelliprint_print_jobs: '1', intelliprint_print_job_ids: String(job.json.id), intelliprint_letters: '4', intelliprint_mode: 'test', intelliprint_cost_gbp: '4.08',
		});
	});

	it('a run that stops after charging still records what it charged, and the draft held back apart', async () => {
		const { run, error } = await api.run({
			// The third item may cost at most £0.50: its draft is held back.
			typeVersion: 1.2, parameters: create('eachItem', { testmode: false, options: { parallelItems: 1, confirmUpTo: '={{ $itemIndex === 2 ? 0.5 : 0 }}' } }), items: rows(3),
		});
		expect(error?.message).toMatch(/costs more than "Confirm Only Up To"/);
		const [first, second, third] = api.fake.createdPrintJobs().slice(-3);
		expect([first.confirmed, second.confirmed, third.confirmed]).toEqual([true, true, false]);
		expect(run.data.resultData.metadata).toEqual({
			intelliprint_print_jobs: '2', intelliprint_print_job_ids: `${first.id}, ${second.id}`, intelliprint_letters: '2', intelliprint_mode: 'live', intelliprint_cost_gbp: '2.04',
			intelliprint_held_drafts: `1 (${third.id})`,
		});
	});

	it('a held draft confirmed by a later node of the same execution moves from held to made', async () => {
		const { run } = await api.run({
			typeVersion: 1.2, parameters: create('eachItem', { testmode: false }), items: rows(1), continueOnFail: true,
			credentials: { dailySpendingLimit: liveConfirmedGbp() + 0.5 },
			then: { resource: 'printJob', operation: 'confirm', printJob: { __rl: true, mode: 'id', value: '={{ $json.draft_id }}' } },
		});
		// The second node is under the same limit, so it is refused too: still held, and counted once.
		const draft = api.fake.createdPrintJobs().at(-1)!;
		expect(run.data.resultData.metadata).toEqual({ intelliprint_held_drafts: `1 (${draft.id})` });
	});
});
