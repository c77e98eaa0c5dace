import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';

const api = useFakeApi();
const getMany = (extra: Record<string, unknown> = {}) => ({ resource: 'printJob', operation: 'getMany', ...extra });

describe('Print Job → Get Many', () => {
	it('returns everything across pages of 1,000 with Return All', async () => {
		api.fake.prints.seed(2345);
		const { items, error } = await api.run({ parameters: getMany({ returnAll: true }) });
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThanOrEqual(2345);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(items.length);
		const pages = api.apiCalls().map((c) => c.query);
		expect(pages.map((q) => q.limit)).toEqual(['1000', '1000', '1000']);
		expect(pages.map((q) => q.skip)).toEqual(['0', '1000', '2000']);
	});

	it('stops at the limit and asks for no more than it needs', async () => {
		const { items } = await api.run({ parameters: getMany({ returnAll: false, limit: 7 }) });
		expect(items).toHaveLength(7);
		expect(api.apiCalls()).toHaveLength(1);
		expect(api.apiCalls()[0].query).toMatchObject({ limit: '7', skip: '0' });
	});

	it('filters by test mode, confirmation, letter status and reference on the API side', async () => {
		const [testJob] = api.fake.prints.seed(1, { testmode: true, reference: 'only-test' });
		const [confirmedJob] = api.fake.prints.seed(1, { confirmed: true, reference: 'confirmed-one' });
		api.fake.prints.setLetterStatus(confirmedJob.letters[0].id, 'returned');

		const test = await api.run({ parameters: getMany({ returnAll: true, filters: { testmode: true } }) });
		expect(test.items.map((i) => i.json.id)).toEqual([testJob.id]);

		const returned = await api.run({ parameters: getMany({ returnAll: true, filters: { letterStatus: ['returned', 'failed_wrong_address'], confirmed: true } }) });
		expect(returned.items.map((i) => i.json.id)).toEqual([confirmedJob.id]);

		const byReference = await api.run({ parameters: getMany({ returnAll: true, filters: { reference: 'confirmed-one' }, output: 'letters' }) });
		expect(byReference.items).toHaveLength(1);
		expect(byReference.items[0].json).toMatchObject({ print_id: confirmedJob.id, status: 'returned' });

		const queries = api.apiCalls().map((c) => c.query);
		expect(queries[0]).toMatchObject({ testmode: 'true' });
		expect(queries[1]).toMatchObject({ 'letters.status': 'returned,failed_wrong_address', confirmed: 'true' });
		expect(queries[2]).toMatchObject({ reference: 'confirmed-one' });
		// Without a test mode filter, the API's default (live jobs only) applies.
		expect(queries[2].testmode).toBeUndefined();
	});

	it('asks for only the fields given, as the SDK does (fields[]=…), a list even with one field', async () => {
		api.fake.prints.seed(2, { reference: 'trimmed' });
		const one = await api.run({ parameters: getMany({ returnAll: false, limit: 2, listOptions: { fields: 'reference' }, simplify: false }) });
		const two = await api.run({ parameters: getMany({ returnAll: false, limit: 2, listOptions: { fields: 'reference, letters.status' }, simplify: false }) });
		const [first, second] = api.apiCalls().map((call) => call.search);
		expect(first).toBe('fields[]=reference&limit=2&skip=0');
		expect(second).toBe('fields[]=reference&fields[]=letters.status&limit=2&skip=0');
		expect(Object.keys(one.items[0].json).sort()).toEqual(['id', 'object', 'reference']);
		expect(two.items[0].json).toMatchObject({ reference: 'trimmed', letters: [{ status: expect.any(String) }] });
		expect(Object.keys(two.items[0].json).sort()).toEqual(['id', 'letters', 'object', 'reference']);
	});
});
