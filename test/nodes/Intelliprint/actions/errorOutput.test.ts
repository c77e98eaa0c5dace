import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../helpers/context';
import type { RunOptions } from '../../../helpers/n8n';
import { SIX_ROWS } from '../../../helpers/sixRows';

/**
 * A failed letter never flows down the success branch. Under On Error → "Continue (using error output)" every item
 * that did not succeed goes to n8n's error output, with its row's own fields merged in by n8n; under "Continue"
 * (regular output) the error items stay on the main output as before; under "Stop Workflow" the node fails.
 */
const SIX = SIX_ROWS.map((json) => ({ json }));
const create = (recipientsFrom: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom,
	recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: false, ...extra,
});
const refs = (items: INodeExecutionData[]) => items.map((item) => String(item.json.ref ?? item.json.error ?? item.json.id).slice(0, 40));
const isError = (item: INodeExecutionData) => item.json.error !== undefined;

describe('the error output (On Error → Continue using error output)', () => {
	const api = useFakeApi();
	const run = (options: Omit<RunOptions, 'credentials'> & { credentials?: Record<string, unknown> }) => api.run({ typeVersion: 1.2, onError: 'continueErrorOutput', ...options });

	it('a mail run of six rows, two refused: the print job on main, the two rows on the error output with their own fields', async () => {
		const { items, errorOutput } = await run({ parameters: create('allItems'), items: SIX });
		expect(items.filter(isError)).toEqual([]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ letter_count: 4 });
		expect(errorOutput.map((item) => [item.json.ref, String(item.json.error)])).toEqual([
			['r2', expect.stringMatching(/^Item 2 has no postcode/)],
			['r5', expect.stringMatching(/^Item 5 has no name/)],
		]);
		expect(errorOutput[0].json).toMatchObject({ name: 'Alan Turing', message: expect.stringMatching(/postcode/) });
	});

	it('Each Item: four print jobs on main, the two refused rows on the error output', async () => {
		const { items, errorOutput } = await run({ parameters: create('eachItem'), items: SIX });
		expect(items.filter(isError)).toEqual([]);
		expect(items.map((item) => item.json.letter_count)).toEqual([1, 1, 1, 1]);
		expect(refs(errorOutput)).toEqual(['r2', 'r5']);
	});

	it('a mail run the API refuses: every row on the error output, none on main', async () => {
		api.fake.faults.push({ method: 'POST', path: /\/prints$/, status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Refused.' } });
		const { items, errorOutput } = await run({ parameters: create('allItems'), items: SIX.filter((row) => row.json.postcode && row.json.name) });
		expect(items).toEqual([]);
		expect(refs(errorOutput)).toEqual(['r1', 'r3', 'r4', 'r6']);
		expect(errorOutput[0].json.message).toContain('Refused.');
	});

	it('an API 400 on one of three single creates: two jobs on main, the refused row on the error output', async () => {
		api.fake.faults.push({ method: 'POST', path: /\/prints$/, status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Refused.' } });
		const rows = [SIX[0], SIX[2], SIX[3]];
		const { items, errorOutput } = await run({ parameters: create('eachItem', { options: { parallelItems: 1 } }), items: rows });
		expect(items.filter(isError)).toEqual([]);
		expect(items).toHaveLength(2);
		expect(refs(errorOutput)).toEqual(['r1']);
	});

	it('a spending refusal: the draft ID and its cost on the error item, nothing on main', async () => {
		const { items, errorOutput } = await run({ parameters: create('eachItem', { testmode: false, confirmed: true }), items: [SIX[0]], credentials: { dailySpendingLimit: 0.5 } });
		expect(items).toEqual([]);
		const draft = api.fake.createdPrintJobs().at(-1)!;
		expect(errorOutput[0].json).toEqual({ ...SIX[0].json, error: expect.stringContaining(`Print job ${draft.id} (1 letter, £1.02 after tax) was not confirmed`), message: expect.stringContaining(`${draft.id} was created for this item`) });
		// Under Continue (regular output) the same refusal gives the draft and its cost as fields of their own.
		const regular = await api.run({ typeVersion: 1.2, continueOnFail: true, parameters: create('eachItem', { testmode: false, confirmed: true }), items: [SIX[0]], credentials: { dailySpendingLimit: 0.5 } });
		expect(regular.items[0].json).toMatchObject({ draft_id: api.fake.createdPrintJobs().at(-1)!.id, draft_cost_after_tax_gbp: 1.02 });
	});

	it('Background and Merge failures, and a mailing list refusal, go to the error output too', async () => {
		const background = await run({ parameters: { resource: 'background', operation: 'get', background: { __rl: true, mode: 'id', value: 'bg_missing' } }, items: [{ json: { ref: 'bg' } }] });
		expect([background.items, refs(background.errorOutput)]).toEqual([[], ['bg']]);
		const merge = await run({ parameters: { resource: 'merge', operation: 'merge', binaryPropertyNames: 'nothing' }, items: [{ json: { ref: 'merge' } }] });
		expect([merge.items, refs(merge.errorOutput)]).toEqual([[], ['merge']]);
		const list = await run({ parameters: { resource: 'mailingList', operation: 'get', mailingList: { __rl: true, mode: 'id', value: 'mal_missing' } }, items: [{ json: { ref: 'list' } }] });
		expect([list.items, refs(list.errorOutput)]).toEqual([[], ['list']]);
	});
});

describe('the other On Error settings keep what users have today', () => {
	const api = useFakeApi();

	it('Continue (regular output): the error items on the main output, paired with their rows, no error output', async () => {
		const { items, errorOutput } = await api.run({ typeVersion: 1.2, onError: 'continueRegularOutput', continueOnFail: true, parameters: create('eachItem'), items: SIX });
		expect(errorOutput).toEqual([]);
		expect(items.map((item) => (isError(item) ? 'error' : 'job'))).toEqual(['job', 'error', 'job', 'job', 'error', 'job']);
		expect(items[1]).toMatchObject({ pairedItem: { item: 1 } });
		expect(items[1].error).toBeUndefined();
	});

	it('Stop Workflow: the node fails before anything is sent, naming every refused row', async () => {
		const { error } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: SIX });
		expect(error?.message).toBe('2 of 6 rows cannot be posted, so nothing was sent');
		expect(error?.description).toMatch(/^Item 2 has no postcode for its letter; Item 5 has no name for its letter\./);
		expect(api.apiCalls()).toEqual([]);
	});
});
