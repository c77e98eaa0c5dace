import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { FakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';

/**
 * The daily limit at a big sender's volume: a process keeps today's total and reads only the confirms since its last
 * read, checks that the list accounts for every job it added (else reads the whole day again), and spends nothing on
 * items once the day cannot take another letter. The bound across processes is unchanged.
 */
const LETTER = 1.02;
const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
const live = (extra: Record<string, unknown> = {}) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello</p>', recipientsFrom: 'eachItem', variables: 'none',
	testmode: false, confirmed: true, options: { parallelItems: 1 }, ...extra,
});
const errors = (items: INodeExecutionData[]) => items.filter((item) => item.json.error).map((item) => String(item.json.error));
const spent = (fake: FakeIntelliprint) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;

/** `count` live jobs confirmed earlier today (the last `minutes` minutes), as another sender's day has them. */
function confirmedToday(fake: FakeIntelliprint, count: number, minutes = 60) {
	const now = Math.floor(Date.now() / 1000);
	const jobs = fake.prints.seed(count, { confirmed: true });
	jobs.forEach((job, i) => {
		job.confirmed_at = now - 120 - Math.floor((i / count) * minutes * 60);
		job.created = job.confirmed_at - 5;
	});
	return jobs;
}

describe('the daily limit, read as it changes', () => {
	const api = useFakeApi();
	const reads = () => api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints').length;

	it('2,500 confirms today: the first check reads the day, each later one a page (and a page of claims each)', async () => {
		confirmedToday(api.fake, 2500);
		const { items } = await api.run({ parameters: live(), items: rows(5), credentials: { dailySpendingLimit: 1_000_000 } });
		expect(items.every((item) => item.json.confirmed === true)).toBe(true);
		// One item at a time: 3 pages for the day, then one per check, and each check a page of claims.
		expect(reads()).toBe(3 + 4 + 5);
		expect(api.apiCalls()).toHaveLength(3 + 4 + 5 + 5 * 2);
	});

	it("one read serves the run: 40 letters far from the limit cost one request each, one confirm and two reads (an allowance)", async () => {
		api.fake.resetRecording();
		const { items } = await api.run({ parameters: live({ options: { parallelItems: 40 } }), items: rows(40), credentials: { dailySpendingLimit: 1_000_000 } });
		expect(items.every((item) => item.json.confirmed === true)).toBe(true);
		// The first item's draft claims room for the 39 after it (spending/allowance.ts); they are made confirmed.
		expect(reads()).toBe(2);
		expect(api.apiCalls()).toHaveLength(40 + 1 + 2);
	});

	it('items one at a time ask for no allowance: each is a draft and a confirm, as before', async () => {
		api.fake.resetRecording();
		const { items } = await api.run({ parameters: live({ options: { parallelItems: 1 } }), items: rows(3), credentials: { dailySpendingLimit: 1_000_000 } });
		expect(items.every((item) => item.json.confirmed === true)).toBe(true);
		expect(api.apiCalls().filter((call) => call.method === 'POST')).toHaveLength(3 * 2);
	});

	it('a confirm listed later than the read goes back is caught by the count, and the day read again: it is refused', async () => {
		const limit = Math.round((spent(api.fake) + 3 * LETTER + 0.5) * 100) / 100;
		const first = await api.run({ parameters: live(), items: rows(1), credentials: { dailySpendingLimit: limit } });
		expect(first.items[0].json.confirmed).toBe(true);
		// Another process's two letters, listed only now with times ten minutes back.
		const [a, b] = confirmedToday(api.fake, 2);
		a.confirmed_at = b.confirmed_at = Math.floor(Date.now() / 1000) - 600;
		const next = await api.run({ parameters: live(), items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(errors(next.items)[0]).toMatch(/over the daily limit/);
		expect(spent(api.fake)).toBeLessThanOrEqual(limit);
	});

	it('once the day cannot take another letter, the other items are refused with no draft and no read', async () => {
		const limit = Math.round((spent(api.fake) + 2 * LETTER + 0.5) * 100) / 100;
		api.fake.resetRecording();
		const { items } = await api.run({ parameters: live(), items: rows(10), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(items.map((item) => item.json.confirmed === true)).toEqual([true, true, ...Array(8).fill(false)]);
		expect(errors(items)).toEqual(Array(8).fill("Nothing was sent for this item: today's spending cannot take another letter"));
		// The second confirm leaves less than a letter: two drafts, two checks, two confirms; nothing for items 3 to 10.
		expect(api.apiCalls().filter((call) => call.method === 'POST' && call.path === '/v1/prints')).toHaveLength(2);
		expect(api.apiCalls().filter((call) => !(call.method === 'GET' && call.path === '/v1/prints'))).toHaveLength(2 + 2);
	});
});

describe.each([2, 3])('%i processes at once, the list a half second late (new jobs and confirms)', (processes) => {
	const api = useFakeApi({ rateLimit: false, listingDelayMs: 500 });

	it('pass the limit by at most one letter per other process', async () => {
		const spellings = ['http://', 'HTTP://', 'Http://'].slice(0, processes);
		const runs = spellings.map((scheme) =>
			api.run({ parameters: live({ options: { parallelItems: 4 } }), items: rows(8), continueOnFail: true, credentials: { dailySpendingLimit: 5, baseUrl: api.fake.url.replace('http://', scheme) } }),
		);
		await Promise.all(runs);
		const total = spent(api.fake);
		expect(total, `£${total.toFixed(2)}`).toBeLessThanOrEqual(5 + (processes - 1) * LETTER);
		// Drafts made for these confirms are claims every check counts: none passes the limit at all. The stated bound
		// is what a confirm made alone (a rerun's held draft, the Confirm operation) may add per other process.
		expect(total, `£${total.toFixed(2)}`).toBeLessThanOrEqual(5);
		expect(total).toBeGreaterThan(5 - LETTER);
	});
});

describe('two processes near the limit take turns', () => {
	const api = useFakeApi({ rateLimit: false });

	it('300 items each under £100, all their drafts claims at once: the day is filled and never passed', async () => {
		const runs = ['http://', 'HTTP://'].map((scheme) =>
			api.run({ parameters: live({ options: {} }), items: rows(300), continueOnFail: true, credentials: { dailySpendingLimit: 100, rateLimitRequests: 100_000, baseUrl: api.fake.url.replace('http://', scheme) } }),
		);
		const outcomes = (await Promise.all(runs)).flatMap((run) => run.items);
		const total = spent(api.fake);
		// Without turns each counted the other's 96 drafts and refused its own: £41.82 in one run of six.
		expect(total, `£${total.toFixed(2)}`).toBeGreaterThan(100 - LETTER);
		expect(total, `£${total.toFixed(2)}`).toBeLessThanOrEqual(100);
		expect(outcomes.filter((item) => item.json.confirmed === true)).toHaveLength(98);
	});
});
