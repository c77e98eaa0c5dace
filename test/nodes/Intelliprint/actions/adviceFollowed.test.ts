import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { FakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';

/**
 * Every sentence that tells a user what to do next after a letter was held back, refused or stopped, done exactly as
 * it says, with what follows checked: nothing posted twice, the draft named, the limit kept. The rest are followed in
 * printJob/spendingLimits.test.ts ("advice followed to the letter", a keyed rerun, a mail run held back),
 * printJob/mailRunParts.test.ts (a part too large, keyed) and docs/spending-limits.md lists them all.
 */
const api = useFakeApi({ rateLimit: false });
const named = (tag: string, count: number) => Array.from({ length: count }, (_, i) => ({ json: { name: `${tag} ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } as IDataObject }));
const live = (extra: IDataObject = {}) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello {{name}}</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: false, confirmed: true, ...extra,
});
const byId = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
/** Confirmed letters per recipient name of `tag`, and every job (draft or not) that holds one. */
const posted = (fake: FakeIntelliprint, tag: string) =>
	Object.fromEntries(named(tag, 3).map(({ json }) => [json.name, fake.createdPrintJobs().filter((job) => job.confirmed && job.letters.some((letter) => letter.address.name === json.name)).length]));
const spentGbp = (fake: FakeIntelliprint) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
const limitLeaving = (fake: FakeIntelliprint, pounds: number) => Math.round((spentGbp(fake) + pounds) * 100) / 100;
const refusedOf = (items: INodeExecutionData[]) => items.filter((item) => item.json.error);

describe('a draft held back without a key: "confirm it with Print Job → Confirm, or delete it and run this item again"', () => {
	it('confirmed with Print Job → Confirm once the limit allows: one letter, the one named', async () => {
		const limit = limitLeaving(api.fake, 0.5);
		const first = await api.run({ parameters: live(), items: named('Hand', 1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		const [held] = refusedOf(first.items);
		expect(String(held.json.description)).toContain('confirm it with Print Job → Confirm (or by hand in Intelliprint), or delete it and run this item again');
		const confirm = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: byId(held.json.draft_id) }, credentials: { dailySpendingLimit: limit + 2 } });
		expect(confirm.items[0].json).toMatchObject({ id: held.json.draft_id, confirmed: true });
		expect(posted(api.fake, 'Hand')['Hand 1']).toBe(1);
	});

	it('deleted, then the item run again once the limit allows: one letter', async () => {
		const limit = limitLeaving(api.fake, 0.5);
		const first = await api.run({ parameters: live(), items: named('Gone', 1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		const [held] = refusedOf(first.items);
		await api.run({ parameters: { resource: 'printJob', operation: 'delete', printJob: byId(held.json.draft_id) } });
		const again = await api.run({ parameters: live(), items: named('Gone', 1), continueOnFail: true, credentials: { dailySpendingLimit: limit + 2 } });
		expect(refusedOf(again.items)).toEqual([]);
		expect(posted(api.fake, 'Gone')['Gone 1']).toBe(1);
	});

	it('"no rerun can find it": turning Skip Items Already Sent on for the rerun makes another draft, as the words warn', async () => {
		const limit = limitLeaving(api.fake, 0.5);
		const first = await api.run({ parameters: live(), items: named('Warn', 1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		const [held] = refusedOf(first.items);
		const keyed = await api.run({ parameters: live({ options: { sentKey: '={{ $json.name }}' } }), items: named('Warn', 1), credentials: { dailySpendingLimit: limit + 2 } });
		expect(keyed.items[0].json.id).not.toBe(held.json.draft_id);
		expect(api.fake.prints.jobs.get(String(held.json.draft_id))?.confirmed).toBe(false);
	});
});

describe('Print Job → Confirm refused by the limit: "run this again to confirm it"', () => {
	it('run again once the limit allows: the same job confirmed, once', async () => {
		const draft = await api.run({ parameters: live({ confirmed: false }), items: named('Again', 1) });
		const id = draft.items[0].json.id;
		const limit = limitLeaving(api.fake, 0.5);
		const refused = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: byId(id) }, continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(String(refused.items[0].json.description)).toContain('Once the limit allows, run this again to confirm it');
		const again = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: byId(id) }, credentials: { dailySpendingLimit: limit + 2 } });
		expect(again.items[0].json).toMatchObject({ id, confirmed: true });
		expect(posted(api.fake, 'Again')['Again 1']).toBe(1);
	});
});

describe('a draft whose price could not be read: "confirm it with Print Job → Confirm if it is right"', () => {
	it('confirmed with Print Job → Confirm once the price is readable: one letter, within the limit', async () => {
		api.fake.withholdCost = 'absent';
		const first = await api.run({ parameters: live(), items: named('Price', 1), continueOnFail: true, credentials: { dailySpendingLimit: 100 } }).finally(() => (api.fake.withholdCost = false));
		const [held] = refusedOf(first.items);
		expect(String(held.json.description)).toContain('confirm it by hand (in Intelliprint or with Print Job → Confirm) if it is right');
		const confirm = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: byId(held.json.draft_id) }, credentials: { dailySpendingLimit: 100 } });
		expect(confirm.items[0].json).toMatchObject({ confirmed: true });
		expect(posted(api.fake, 'Price')['Price 1']).toBe(1);
	});
});

describe('the error that stops a run', () => {
	const stopAt = (after: number) => api.fake.faults.push({ method: 'POST', path: /\/prints$/, status: 400, after, times: 1, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'No.' } });

	it('without a key: "run only the items not listed here"; done so, each row has one letter', async () => {
		stopAt(1);
		const first = await api.run({ parameters: live({ options: { parallelItems: 1 } }), items: named('Stop', 3) });
		expect(first.error?.description).toContain('Running the same items again would create these again: run only the items not listed here');
		const listed = Object.keys(first.error?.context?.createdByItem as IDataObject).map(Number);
		const rest = named('Stop', 3).filter((_, i) => !listed.includes(i));
		const again = await api.run({ parameters: live({ options: { parallelItems: 1 } }), items: rest });
		expect(again.error).toBeUndefined();
		expect(posted(api.fake, 'Stop')).toEqual({ 'Stop 1': 1, 'Stop 2': 1, 'Stop 3': 1 });
	});

	it('with a key: "running the same items again is safe"; done so whole, each row has one letter', async () => {
		stopAt(1);
		const parameters = live({ options: { parallelItems: 1, sentKey: '={{ $json.name }}' } });
		const first = await api.run({ parameters, items: named('Safe', 3) });
		expect(first.error?.description).toContain('Running the same items again is safe');
		const again = await api.run({ parameters, items: named('Safe', 3) });
		expect(again.error).toBeUndefined();
		expect(posted(api.fake, 'Safe')).toEqual({ 'Safe 1': 1, 'Safe 2': 1, 'Safe 3': 1 });
	});
});

describe('a mail run part too large, without a key: "run again only the rows they do not hold"', () => {
	// A small body limit, so that a part of ten large rows is refused (413) and a part of three is not.
	const small = useFakeApi({ rateLimit: false, maxBodyBytes: 60_000 });
	const rows = Array.from({ length: 20 }, (_, i) => ({ json: { name: `Part ${i + 1}`, address: `${i + 1} High Street`, postcode: 'LS1 4AP', ...(i >= 10 ? { notes: 'x'.repeat(12_000) } : {}) } as IDataObject }));
	const mailRun = (lettersPerJob: number) => ({ resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello {{name}}</p>', testmode: true, variables: 'all', options: { lettersPerJob } });

	it('done so with smaller parts: every row has one letter', async () => {
		const first = await small.run({ typeVersion: 1.1, parameters: mailRun(10), items: rows });
		expect(first.error?.description).toContain('created without Skip Items Already Sent, which cannot find them later: run again only the rows they do not hold, or delete them first');
		const held = new Set(small.fake.createdPrintJobs().flatMap((job) => job.letters.map((letter) => letter.address.name)));
		const again = await small.run({ typeVersion: 1.1, parameters: mailRun(3), items: rows.filter((row) => !held.has(String(row.json.name))) });
		expect(again.error).toBeUndefined();
		const letters = small.fake.createdPrintJobs().flatMap((job) => job.letters.map((letter) => letter.address.name));
		expect(letters.sort()).toEqual(rows.map((row) => row.json.name).sort());
	});
});
