import type { INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../helpers/context';

/**
 * Every input item comes out exactly once, with what happened to it, on the operations that send many rows in one
 * request: when the API refuses the whole request, a row's own refusal is kept and every other row gets the
 * request's error, under both continue settings; a part refused among several gives its error to its own rows only.
 */
const api = useFakeApi();
const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });
/** Three rows, of which row 2 has no postcode. */
const rows = () => [1, 2, 3].map((n) => ({ json: { name: `Member ${n}`, address: `${n} Park Road, York`, postcode: n === 2 ? '' : 'YO1 7HH' } }));
const refused = { type: 'invalid_request_error', code: 'parameter_invalid', param: 'recipients', message: 'Refused by the test.' };
const rowsOf = (item: INodeExecutionData) => [item.pairedItem ?? []].flat().map((pair) => (pair as IPairedItemData).item);

const OPERATIONS = {
	'Mailing List → Create': { parameters: { resource: 'mailingList', operation: 'create', name: 'Members' }, path: /\/mailing_lists$/, status: 400 },
	'Mailing List → Update (add to a list that does not exist)': {
		parameters: { resource: 'mailingList', operation: 'update', mailingList: byId('mal_missing'), recipientsAction: 'append' },
		path: undefined,
		status: 404,
	},
	'Mailing List Recipient → Create (on a list that does not exist)': {
		parameters: { resource: 'mailingListRecipient', operation: 'create', mailingList: byId('mal_missing') },
		path: undefined,
		status: 404,
	},
} as const;

describe.each(Object.entries(OPERATIONS))('%s, the whole request refused', (_, operation) => {
	it.each(['continueRegularOutput', 'continueErrorOutput'] as const)('under %s: each row once, row 2 with its own reason', async (onError) => {
		if (operation.path) api.fake.faults.push({ method: 'POST', path: operation.path, status: operation.status, error: refused, times: Number.POSITIVE_INFINITY });
		const { items, errorOutput, error } = await api.run({ parameters: operation.parameters, items: rows(), onError });
		expect(error).toBeUndefined();
		const errors = onError === 'continueErrorOutput' ? errorOutput : items.filter((item) => item.json.error !== undefined);
		if (onError === 'continueErrorOutput') expect(items).toEqual([]);
		expect(errors.flatMap(rowsOf).sort()).toEqual([0, 1, 2]);
		const said = (row: number) => String(errors.find((item) => rowsOf(item)[0] === row)?.json.error);
		expect(said(1)).toBe('Item 2 has no postcode for the mailing list');
		expect(said(0)).not.toContain('postcode');
		expect(said(2)).toBe(said(0));
	});

	it('under Stop Workflow: the run stops on the refused row before anything is sent', async () => {
		const { error } = await api.run({ parameters: operation.parameters, items: rows() });
		expect(error?.message).toBe('Item 2 has no postcode for the mailing list');
		expect(api.apiCalls()).toEqual([]);
	});
});

describe('a list filled in parts', () => {
	it('a part refused among three: its own rows get the error, the others are on the list', async () => {
		const many = Array.from({ length: 2500 }, (_, i) => ({ json: { name: `Member ${i + 1}`, address: `${i + 1} Park Road, York`, postcode: 'YO1 7HH' } }));
		const created = await api.run({ parameters: { resource: 'mailingList', operation: 'create', name: 'Parts' }, items: many.slice(0, 1) });
		const id = String(created.items[0].json.id);
		// The second request of the three (rows 1,001 to 2,000) is refused.
		api.fake.faults.push({ method: 'POST', path: new RegExp(`/mailing_lists/${id}$`), status: 400, error: refused, after: 1 });
		const { items } = await api.run({ parameters: { resource: 'mailingList', operation: 'update', mailingList: byId(id), recipientsAction: 'append' }, items: many, continueOnFail: true });
		const list = items.find((item) => item.json.error === undefined)!;
		expect(rowsOf(list)).toEqual([...Array.from({ length: 1000 }, (_, i) => i), ...Array.from({ length: 500 }, (_, i) => 2000 + i)]);
		expect(list.json.recipients).toBe(1 + 1500);
		const failed = items.filter((item) => item.json.error !== undefined);
		expect(failed.flatMap(rowsOf)).toEqual(Array.from({ length: 1000 }, (_, i) => 1000 + i));
	});

	it('without Continue On Fail, the stop says which rows were already on the list', async () => {
		const created = await api.run({ parameters: { resource: 'mailingList', operation: 'create', name: 'Stop' }, items: rows().slice(0, 1) });
		const id = String(created.items[0].json.id);
		const many = Array.from({ length: 1500 }, (_, i) => ({ json: { name: `Member ${i + 1}`, address: `${i + 1} Park Road, York`, postcode: 'YO1 7HH' } }));
		api.fake.faults.push({ method: 'POST', path: new RegExp(`/mailing_lists/${id}$`), status: 400, error: refused, after: 1 });
		const { error } = await api.run({ parameters: { resource: 'mailingList', operation: 'update', mailingList: byId(id), recipientsAction: 'append' }, items: many });
		expect(error?.description).toContain('This concerns the recipients of items 1001 to 1500.');
		expect(error?.description).toContain(`The recipients of items 1 to 1000 were added to mailing list ${id} before this.`);
	});
});
