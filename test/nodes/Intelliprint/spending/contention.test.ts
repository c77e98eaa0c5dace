import { describe, expect, it } from 'vitest';

import type { FakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';

/**
 * Processes that share a daily limit all finish (docs/spending-limits.md): 2 to 8 n8n processes on one key, 300
 * letters each under £100, the list of new jobs and confirms 0 to 5 s late. Each fills the limit to within a letter,
 * none passes it, and no more drafts are left than there are processes (twice that with the list late and a loaded
 * host: see the test). Each base URL spelling is a process of its
 * own (the node keeps its state per credential). Before the line decided who goes (commit 873ea24), three processes
 * did not finish in 120 s here, and in real n8n made and handed back hundreds of drafts.
 */
const LETTER = 1.02;
const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
const live = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: false, confirmed: true, options: {} };
const spent = (fake: FakeIntelliprint) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
const SCHEMES = ['http://', 'HTTP://', 'Http://', 'hTTP://', 'htTP://', 'httP://', 'HTtp://', 'HttP://'];

describe.each([
	[2, 0],
	[3, 0],
	[3, 1000],
	[3, 5000],
	[4, 0],
	[8, 0],
	[8, 1000],
])('%i processes, the list %i ms late', (processes, delay) => {
	const api = useFakeApi({ rateLimit: false, listingDelayMs: delay });

	it('fill the limit to within a letter, never pass it, and leave no more drafts than processes', async () => {
		const runs = SCHEMES.slice(0, processes).map((scheme) =>
			api.run({ parameters: live, items: rows(300), continueOnFail: true, credentials: { dailySpendingLimit: 100, baseUrl: api.fake.url.replace('http://', scheme) } }),
		);
		const items = (await Promise.all(runs)).flatMap((run) => run.items);
		const total = spent(api.fake);
		const drafts = [...api.fake.prints.jobs.values()].filter((job) => !job.confirmed).length;
		const measured = `£${total.toFixed(2)}, ${drafts} drafts left, ${api.apiCalls().length} requests`;
		expect(total, measured).toBeLessThanOrEqual(100);
		expect(total, measured).toBeGreaterThan(100 - LETTER);
		// A process drafts its share of what is left as its last check saw it. With the list late, a process that starts
		// more than that late after another is not seen by the other's first check, which then drafts alone: on a loaded
		// host (CI's suites side by side) one run in about ten left a few more.
		expect(drafts, measured).toBeLessThanOrEqual(delay === 0 ? processes : 2 * processes);
		// Every item has its outcome, and the refusals that end the runs say why.
		expect(items).toHaveLength(300 * processes);
		const refusals = items.filter((item) => item.json.error).map((item) => String(item.json.error));
		expect(refusals.every((text) => /today's spending cannot take another letter|would take today's spending over the daily limit/.test(text)), refusals[0]).toBe(true);
	});
});
