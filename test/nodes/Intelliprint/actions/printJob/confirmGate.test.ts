import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { FakeIntelliprint } from '../../../../fake-api/server';
import { useFakeApi } from '../../../../helpers/context';

/**
 * Every path to a confirm passes the spending gate, and every value an expression can give for Confirm or a
 * limit is read one strict way. The fake prices a one-page second-class letter at £1.02 after tax.
 */
const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
const liveCreate = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello {{name}}</p>', recipientsFrom: 'eachItem', variables: 'none',
	testmode: false, confirmed: true, ...extra,
});
const liveGbp = (fake: FakeIntelliprint) =>
	Math.round([...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e6) / 100;
const locator = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
const errorsOf = (items: INodeExecutionData[]) => items.map((item) => String(item.json.error ?? ''));

describe('every path to a confirm keeps the spending limits', () => {
	const api = useFakeApi();
	const draft = async () => String((await api.run({ parameters: liveCreate({ confirmed: false }), items: rows(1) })).items[0].json.id);

	/** Each way the node can confirm a live job, as a user (or an agent) sets it up. */
	const paths: Array<[string, () => Promise<{ parameters: INodeParameters; asTool?: boolean; items?: ReturnType<typeof rows> }>]> = [
		['Create, each item', async () => ({ parameters: liveCreate() })],
		['Create, a mail run (all items)', async () => ({ parameters: liveCreate({ recipientsFrom: 'allItems' }), items: rows(2) })],
		['Create rerun: a draft found again under Skip Items Already Sent', async () => {
			const key = `gate-${Math.random()}`;
			await api.run({ parameters: liveCreate({ confirmed: false, options: { sentKey: key } }), items: rows(1) });
			return { parameters: liveCreate({ options: { sentKey: key } }) };
		}],
		['Confirm', async () => ({ parameters: { resource: 'printJob', operation: 'confirm', printJob: locator(await draft()) } })],
		['Update with Confirm alone', async () => ({ parameters: { resource: 'printJob', operation: 'update', printJob: locator(await draft()), updateFields: { confirmed: true } } })],
		['Update with Confirm and other changes', async () => ({
			parameters: { resource: 'printJob', operation: 'update', printJob: locator(await draft()), updateFields: { confirmed: true, reference: 'changed' } },
		})],
		['AI tool: Create', async () => ({
			parameters: liveCreate({ allowLive: true, recipientName: 'Ada Lovelace', recipientAddress: '1 High Street\nLeeds', recipientPostcode: 'LS1 4AP' }),
			asTool: true,
		})],
		['AI tool: Confirm', async () => ({ parameters: { resource: 'printJob', operation: 'confirm', printJob: locator(await draft()), allowLive: true }, asTool: true })],
		['AI tool: Update with Confirm', async () => ({
			parameters: { resource: 'printJob', operation: 'update', printJob: locator(await draft()), updateFields: { confirmed: true }, allowLive: true },
			asTool: true,
		})],
	];

	for (const [path, setUp] of paths) {
		it(`${path}: refused over the daily limit, confirmed within it`, async () => {
			const run = await setUp();
			const spent = liveGbp(api.fake);
			const over = await api.run({ ...run, items: run.items ?? rows(1), continueOnFail: true, credentials: { dailySpendingLimit: spent + 0.5 } });
			expect(errorsOf(over.items).join(' | ')).toMatch(/over the daily limit of £/);
			expect(liveGbp(api.fake)).toBe(spent);
			// The same path does confirm once the limit allows: the test above cannot pass by never confirming.
			const within = await api.run({ ...(await setUp()), items: run.items ?? rows(1), continueOnFail: true, credentials: { dailySpendingLimit: spent + 100 } });
			expect(errorsOf(within.items).filter(Boolean)).toEqual([]);
			expect(liveGbp(api.fake)).toBeGreaterThan(spent);
		});
	}

	it('Update with Confirm under a limit applies the changes to the draft and holds it back, naming the draft', async () => {
		const id = await draft();
		const spent = liveGbp(api.fake);
		const { error } = await api.run({
			parameters: { resource: 'printJob', operation: 'update', printJob: locator(id), updateFields: { confirmed: true, reference: 'Checked by finance' } },
			credentials: { dailySpendingLimit: spent + 0.5 },
		});
		expect(error?.message).toBe(`Print job ${id} (1 letter, £1.02 after tax) was not confirmed: it would take today's spending over the daily limit of £${(spent + 0.5).toFixed(2)}`);
		expect(api.fake.prints.jobs.get(id)).toMatchObject({ reference: 'Checked by finance', confirmed: false });
	});
});

describe('Confirm from an expression is read as n8n reads a boolean, with or without a limit', () => {
	const api = useFakeApi();
	const cases: Array<[unknown, boolean | 'refused']> = [
		[false, false], ['false', false], ['FALSE', false], [0, false], ['0', false],
		[true, true], ['true', true], ['True', true], [1, true], ['1', true],
		['no', 'refused'], ['yes', 'refused'], ['', 'refused'], ['2', 'refused'], [null, 'refused'],
	];
	const limits: Array<[string, Record<string, unknown>, INodeParameters]> = [
		['no limit', {}, {}],
		['a daily limit of £100', { dailySpendingLimit: 100 }, {}],
		['Confirm Only Up To £5', {}, { confirmUpTo: 5 }],
	];
	for (const [label, credentials, options] of limits) {
		it(`with ${label}`, async () => {
			const seen: string[] = [];
			for (const [value, expected] of cases) {
				const before = api.fake.createdPrintJobs().length;
				const { items } = await api.run({ parameters: liveCreate({ confirmed: `={{ $json.send }}`, options }), items: [{ json: { ...rows(1)[0].json, send: value as string } }], continueOnFail: true, credentials });
				const made = api.fake.createdPrintJobs().slice(before);
				const outcome = items[0].json.error ? 'refused' : made[0]?.confirmed;
				seen.push(`${JSON.stringify(value)} → ${String(outcome)}`);
				if (expected === 'refused') {
					expect(String(items[0].json.error)).toMatch(/^"Confirm" must be true or false, but got /);
					expect(made).toEqual([]);
				}
			}
			expect(seen).toEqual(cases.map(([value, expected]) => `${JSON.stringify(value)} → ${String(expected)}`));
		});
	}
});

describe('a limit that is not an amount in pounds refuses every confirm (fail closed)', () => {
	const api = useFakeApi();
	const bad: unknown[] = [-5, -1, '£100', '100,50', 'abc', '', '-1', ' ', Number.NaN];

	it('the daily limit: each refused on its item, naming the field; nothing is created or confirmed', async () => {
		for (const value of bad) {
			const before = api.fake.createdPrintJobs().length;
			const { items } = await api.run({ parameters: liveCreate(), items: rows(2), continueOnFail: true, credentials: { dailySpendingLimit: value } });
			expect(errorsOf(items).every((error) => error.startsWith(`The credential's "Daily Spending Limit (GBP)" must be an amount in pounds of 0 or more`)), String(value)).toBe(true);
			expect(api.fake.createdPrintJobs().length, String(value)).toBe(before);
		}
		expect(liveGbp(api.fake)).toBe(0);
	});

	it('Confirm Only Up To: the same, on Create and on Confirm', async () => {
		for (const value of ['£1.00', -1, 'abc', '']) {
			const { items } = await api.run({ parameters: liveCreate({ options: { confirmUpTo: value } }), items: rows(1), continueOnFail: true });
			expect(errorsOf(items)[0], String(value)).toMatch(/^"Confirm Only Up To \(GBP\)" must be an amount in pounds of 0 or more/);
		}
		const id = (await api.run({ parameters: liveCreate({ confirmed: false }), items: rows(1) })).items[0].json.id;
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: locator(id), options: { confirmUpTo: '£5' } } });
		expect(error?.message).toContain('(write the amount without a currency sign, e.g. 100)');
		expect(liveGbp(api.fake)).toBe(0);
	});

	it('text amounts and zero keep their meaning: "100.50" is a limit, 0 and "0" are none', async () => {
		const spent = liveGbp(api.fake);
		const held = await api.run({ parameters: liveCreate(), items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: String(spent + 0.5) } });
		expect(errorsOf(held.items)[0]).toMatch(/over the daily limit/);
		for (const none of [0, '0']) {
			const { items } = await api.run({ parameters: liveCreate(), items: rows(1), credentials: { dailySpendingLimit: none } });
			expect(items[0].json).toMatchObject({ confirmed: true });
		}
	});
});
