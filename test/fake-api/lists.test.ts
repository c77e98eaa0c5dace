import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { cost } from './letters';
import { startFakeIntelliprint, type FakeIntelliprint } from './server';
import { call, printForm } from './wire';

let fake: FakeIntelliprint;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	// Created in this order within the same second: creation order breaks the tie on `created`.
	fake.prints.seed(1, { reference: 'b', pages: 3, cost: cost(300), metadata: { batch: '7' } });
	fake.prints.seed(1, { reference: 'c', pages: 1, cost: cost(100) });
	fake.prints.seed(1, { reference: 'a', pages: 2, cost: cost(200) });
});
afterAll(async () => fake.stop());
beforeEach(() => fake.calm());

interface List {
	object: string;
	data: Array<Record<string, unknown>>;
	has_more: boolean;
	error?: { code: string; param: string };
}
const list = async (query: string, path = '/prints') => JSON.parse((await call(fake, 'GET', `${path}?${query}`)).text) as List;
const references = async (query: string) => (await list(query)).data.map((job) => job.reference);

describe('list sorting', () => {
	it('is newest first by default, and takes any documented /prints sort field either way', async () => {
		expect(await references('')).toEqual(['a', 'c', 'b']);
		expect(await references('sort_order=asc')).toEqual(['b', 'c', 'a']);
		expect(await references('sort_field=reference&sort_order=asc')).toEqual(['a', 'b', 'c']);
		expect(await references('sort_field=pages')).toEqual(['b', 'a', 'c']);
		expect(await references('sort_field=cost.amount&sort_order=asc')).toEqual(['c', 'a', 'b']);
		expect(await references('sort_field=created&sort_order=desc')).toEqual(['a', 'c', 'b']);
		for (const field of ['mail_date', 'cost.after_tax', 'letters.returned.date', 'sheets', 'letters', 'type', 'confirmed_at']) {
			expect(await references(`sort_field=${field}`)).toHaveLength(3);
		}
	});

	it('refuses unknown sort fields and orders', async () => {
		expect((await list('sort_field=metadata.batch')).error).toMatchObject({ code: 'parameter_invalid', param: 'sort_field' });
		expect((await list('sort_order=up')).error).toMatchObject({ code: 'parameter_invalid', param: 'sort_order' });
		expect((await list('sort_field=reference', '/backgrounds')).error).toMatchObject({ param: 'sort_field' });
	});

	it('sorts backgrounds by name or created', async () => {
		const upload = async (name: string) => {
			const form = await printForm({ name });
			await call(fake, 'POST', '/backgrounds', { body: form });
		};
		await upload('Zeta');
		await upload('Alpha');
		const names = async (query: string) => (await list(query, '/backgrounds')).data.map((b) => b.name);
		expect(await names('sort_field=name&sort_order=asc')).toEqual(['Alpha', 'Zeta']);
		expect(await names('')).toEqual(['Alpha', 'Zeta']);
		expect(await names('sort_field=created&sort_order=asc')).toEqual(['Zeta', 'Alpha']);
	});

	it('has no metadata filter (the API has none): the query key changes nothing', async () => {
		expect(await references('metadata.batch=7')).toEqual(['a', 'c', 'b']);
	});
});

describe('list fields', () => {
	it('trims each object to the asked paths plus id and object, in the SDK\'s fields[] form, repeated or comma form', async () => {
		const sdk = await list('fields%5B%5D=reference');
		expect(sdk.data[0]).toEqual({ id: expect.stringMatching(/^print_/), object: 'print', reference: 'a' });
		const repeated = await list('fields=reference&fields=pages');
		expect(repeated.data.map((job) => Object.keys(job).sort())).toEqual(Array(3).fill(['id', 'object', 'pages', 'reference']));
		const comma = await list('fields=reference,%20cost.amount');
		expect(comma.data[0]).toEqual({ id: expect.stringMatching(/^print_/), object: 'print', reference: 'a', cost: { amount: 200_000_000 } });
	});

	it('follows dot paths through arrays', async () => {
		const { data } = await list('fields=letters.status,letters.address.postcode');
		expect(data[0]).toEqual({ id: expect.any(String), object: 'print', letters: [{ status: 'draft', address: { postcode: 'LS1 4AP' } }] });
	});
});

describe('a list that pages forever', () => {
	it('ignores skip with ignoreSkip: the first page again, with has_more while more exist', async () => {
		fake.ignoreSkip = true;
		const first = await list('limit=2');
		for (const skip of [2, 4, 100]) {
			const page = await list(`limit=2&skip=${skip}`);
			expect([page.data.map((job) => job.id), page.has_more]).toEqual([first.data.map((job) => job.id), true]);
		}
		expect((await list('limit=10')).has_more).toBe(false);
		fake.calm();
		expect((await list('limit=2&skip=2')).data.map((job) => job.reference)).toEqual(['b']);
	});
});
