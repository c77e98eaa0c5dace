import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { BROKEN_MODES, type BrokenMode } from '../../../fake-api/brokenModes';
import type { FakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';

/**
 * Every guarantee against an API that breaks one assumption of the contract (transport/contract.ts), as the fake does
 * on demand per base URL (fake-api/brokenModes.ts): nothing confirmed past a limit, nothing posted twice. Where a
 * mode cannot touch a guarantee, the guarantee does its normal work; where it can, the node fails closed and says
 * which assumption broke. Each base URL spelling is a process of its own (the node keeps its state per credential).
 */
const MODES = Object.keys(BROKEN_MODES) as BrokenMode[];
const LETTER = 1.02;
const now = () => Math.floor(Date.now() / 1000);
const rows = (keys: string[]) => keys.map((key, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP', key } }));
const errors = (items: INodeExecutionData[]) => items.filter((item) => item.json.error).map((item) => `${String(item.json.error)} ${String(item.json.description)}`);
const brokenUrl = (fake: FakeIntelliprint, mode: BrokenMode, spelling = 'http://') => fake.url.replace(/\/v1$/, `/broken/${mode}/v1`).replace('http://', spelling);
const liveToday = (fake: FakeIntelliprint) =>
	[...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode && (job.confirmed_at ?? 0) > now() - 3600).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
/** Print jobs made through the API for a key (seeded ones left out). */
const madeFor = (fake: FakeIntelliprint, key: string) => fake.createdPrintJobs().filter((job) => job.metadata.n8n_sent_key === key || job.reference === key).length;

/** Which guarantees a mode can reach at all; elsewhere the node must simply work. */
const REACHES: Record<BrokenMode, { spending: boolean; rerun: boolean }> = {
	ignoreSort: { spending: true, rerun: true },
	insertionOrder: { spending: true, rerun: true },
	ignoreReference: { spending: false, rerun: false },
	ignoreConfirmed: { spending: true, rerun: false },
	dropFields: { spending: true, rerun: true },
	countsOff: { spending: true, rerun: true },
	ignoreSkip: { spending: false, rerun: false },
	dropMetadata: { spending: true, rerun: true },
	// The node's own entries here are short; a mail run's long ones against it: keyedMailRuns.test.ts.
	shortMetadata: { spending: false, rerun: false },
	renamedKeys: { spending: false, rerun: false },
	// These rows are in the UK; rows abroad against it: brokenPostage.test.ts.
	noInternational: { spending: false, rerun: false },
};

/** Live jobs confirmed today, then older ones stored after them: the order stored is not the order made. */
function busyDay(fake: FakeIntelliprint) {
	for (const [count, ago] of [[10, 600], [30, 86_400 + 600]]) {
		for (const job of fake.prints.seed(count, { confirmed: true })) {
			job.confirmed_at = now() - ago;
			job.created = job.confirmed_at - 5;
			job.letters.forEach((letter) => (letter.status = 'waiting_to_print'));
		}
	}
}

describe.each(MODES)('the API breaks "%s"', (mode) => {
	const api = useFakeApi();
	const { assumption } = BROKEN_MODES[mode];

	it.each([1, 2])('the daily limit, %i process(es) at once: never past it', async (processes) => {
		busyDay(api.fake);
		const limit = Math.round((liveToday(api.fake) + 9.5 * LETTER) * 100) / 100;
		const live = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hi</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: false, confirmed: true, options: { parallelItems: 2 } };
		const run = (spelling: string) => api.run({ parameters: live, items: rows(Array(20 / processes).fill('')), continueOnFail: true, credentials: { baseUrl: brokenUrl(api.fake, mode, spelling), dailySpendingLimit: limit } });
		const results = await Promise.all(['http://', 'HTTP://'].slice(0, processes).map(run));
		const items = results.flatMap((result) => result.items);
		expect(liveToday(api.fake)).toBeLessThanOrEqual(limit);
		const confirmed = items.filter((item) => item.json.confirmed === true).length;
		if (REACHES[mode].spending) {
			expect(confirmed).toBe(0);
			expect(errors(items).every((text) => text.includes(`("${assumption}")`)), errors(items)[0]).toBe(true);
		} else {
			// Two processes near the limit may leave a letter's room (the protocol's bound); one fills it.
			expect(confirmed).toBeGreaterThanOrEqual(9 - (processes - 1));
		}
	});

	const keyed = (extra: Record<string, unknown> = {}) => ({
		resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hi</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: true,
		confirmed: true, options: { sentKey: '={{ $json.key }}', parallelItems: 1 }, ...extra,
	});

	it('Skip Items Already Sent, item by item: a rerun in a fresh process posts nothing twice', async () => {
		const keys = [`${mode}-a`, `${mode}-b`];
		// The first run meets the same API (a renamed key is renamed as it is made).
		const firstUrl = mode === 'renamedKeys' ? brokenUrl(api.fake, mode, 'hTTp://') : api.fake.url;
		await api.run({ parameters: keyed(), items: rows(keys), credentials: { baseUrl: firstUrl } });
		// An older job stored after them, as a late listing or an import leaves one.
		api.fake.prints.seed(1, { testmode: true, created: now() - 86_400 });
		const again = await api.run({ parameters: keyed(), items: rows([...keys, `${mode}-new`]), continueOnFail: true, credentials: { baseUrl: brokenUrl(api.fake, mode) } });
		expect(keys.map((key) => madeFor(api.fake, key))).toEqual([1, 1]);
		if (REACHES[mode].rerun && mode !== 'dropMetadata') {
			expect(errors(again.items)).toHaveLength(3);
			expect(errors(again.items).every((text) => text.includes(`("${assumption}")`)), errors(again.items)[0]).toBe(true);
		} else {
			expect(again.items.slice(0, 2).map((item) => item.json.already_sent)).toEqual([true, true]);
		}
	});

	it('Skip Items Already Sent, a mail run: its rerun posts nothing twice', async () => {
		const mailRun = keyed({ recipientsFrom: 'allItems', options: { sentKey: `run-${mode}` } });
		await api.run({ parameters: mailRun, items: rows(['x', 'y']) });
		api.fake.prints.seed(1, { testmode: true, created: now() - 86_400 });
		const again = await api.run({ parameters: mailRun, items: rows(['x', 'y']), continueOnFail: true, credentials: { baseUrl: brokenUrl(api.fake, mode, 'HTtp://') } });
		expect(api.fake.createdPrintJobs().filter((job) => job.metadata.n8n_run_key === `run-${mode}`)).toHaveLength(1);
		if (!REACHES[mode].rerun || mode === 'dropMetadata') expect(again.items[0].json.already_sent).toBe(true);
	});
});

describe('a big account (a fresh process looks keys up by reference)', () => {
	const api = useFakeApi();

	/** 12,000 keyed test jobs of the last 20 days: the window is twelve pages, so three keys are looked up. */
	function bigAccount(prefix: string) {
		const jobs = api.fake.prints.seed(12_000, { testmode: true, confirmed: true });
		jobs.forEach((job, i) => {
			job.created = now() - 60 - Math.floor((i / jobs.length) * 20 * 86_400);
			job.metadata = { n8n_sent_key: `${prefix}${i + 1}` };
			job.reference = `${prefix}${i + 1}`;
		});
		return jobs;
	}
	const create = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hi</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: true, confirmed: true, options: { sentKey: '={{ $json.key }}', parallelItems: 1 } };

	it('a list that ignores the reference filter: the window is read instead, and nothing is posted twice', async () => {
		bigAccount('ref-');
		const { items } = await api.run({ parameters: create, items: rows(['ref-9000', 'ref-new']), credentials: { baseUrl: brokenUrl(api.fake, 'ignoreReference') } });
		expect(items.map((item) => item.json.already_sent === true)).toEqual([true, false]);
		expect(api.fake.createdPrintJobs().filter((job) => job.metadata.n8n_sent_key === 'ref-9000')).toHaveLength(0);
		const reads = api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints');
		// The first page, the lookups (refused on their answers), then the window's other pages.
		expect(reads.length).toBeGreaterThanOrEqual(12);
	});

	it('keys renamed in the dashboard: found by the window, not by a lookup (the limit docs/api-contract.md states)', async () => {
		const jobs = bigAccount('ren-');
		jobs[8999].reference = 'Renamed in the dashboard';
		jobs[5000].reference = 'Renamed too';
		const looked = await api.run({ parameters: create, items: rows(['ren-9000', 'ren-new']), credentials: { baseUrl: api.fake.url.replace('http://', 'HTTP://') } });
		// Measured, not hidden: the lookup cannot see a renamed job, so the letter is made again.
		expect(looked.items[0].json.already_sent).toBeUndefined();
		// A process that holds the window (more new keys than pages) finds it by its metadata.
		const many = Array.from({ length: 40 }, (_, i) => `ren-${i * 250 + 7}`);
		const wide = await api.run({ parameters: create, items: rows([...many, 'ren-5001']), credentials: { baseUrl: api.fake.url.replace('http://', 'HTtP://') } });
		expect(wide.items.every((item) => item.json.already_sent === true)).toBe(true);
	});
});

describe('510,000 jobs in the look-back (a big sender), a fresh process each time', () => {
	const api = useFakeApi();
	const create = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hi</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: true, confirmed: true, options: { sentKey: '={{ $json.key }}', parallelItems: 1 } };
	const keys = ['inv-250000', 'inv-400000', 'inv-499999'];
	const reads = () => api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints').length;

	it('as the API is: three keys looked up, nothing made; ignoring the sort: refused with nothing made; ignoring the reference: the window read, nothing made', async () => {
		api.fake.seedHistory({ count: 510_000, testmode: true, sentKeys: 'inv-' });
		const plain = await api.run({ parameters: create, items: rows(keys) });
		expect(plain.items.map((item) => item.json.already_sent)).toEqual([true, true, true]);
		expect(reads()).toBe(1 + 3);
		api.fake.resetRecording();
		const unsorted = await api.run({ parameters: create, items: rows(keys), continueOnFail: true, credentials: { baseUrl: brokenUrl(api.fake, 'ignoreSort') } });
		expect(errors(unsorted.items).every((text) => text.includes('("list-order")'))).toBe(true);
		expect(reads()).toBe(1);
		api.fake.resetRecording();
		const unfiltered = await api.run({ parameters: create, items: rows(keys), credentials: { baseUrl: brokenUrl(api.fake, 'ignoreReference') } });
		expect(unfiltered.items.map((item) => item.json.already_sent)).toEqual([true, true, true]);
		// The first page, the three lookups refused on their answers, then the rest of the window: 510 pages in all.
		expect(reads()).toBe(1 + 3 + 509);
		expect(api.fake.createdPrintJobs()).toHaveLength(0);
	});
});
