import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import type { FakeIntelliprint } from '../../../../fake-api/server';

/**
 * Spending limits, against the fake's prices: a one-page letter second class is £0.85, £1.02 after tax. Each
 * describe has its own fake API (its own address), so the process-wide holds of one do not reach another.
 */
const LETTER = 1.02;
const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
const liveCreate = (extra: Record<string, unknown> = {}) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello {{name}}</p>', recipientsFrom: 'eachItem', variables: 'none',
	testmode: false, confirmed: true, ...extra,
});
const liveConfirmedGbp = (fake: FakeIntelliprint) =>
	[...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
const errors = (items: INodeExecutionData[]) => items.filter((item) => item.json.error).map((item) => String(item.json.error));

describe('Confirm Only Up To (per job)', () => {
	const api = useFakeApi();

	it('a live job over it stays a draft, and the error names the draft and its cost', async () => {
		const { error } = await api.run({ parameters: liveCreate({ options: { confirmUpTo: 1 } }), items: rows(1) });
		expect(error?.message).toMatch(/^Print job print_\w+ \(1 letter, £1\.02 after tax\) was not confirmed: it costs more than "Confirm Only Up To" \(£1\.00\)$/);
		const draft = api.fake.createdPrintJobs().at(-1)!;
		expect(error?.message).toContain(draft.id);
		expect(draft.confirmed).toBe(false);
	});

	it('a job costing exactly the bound is confirmed, whatever floating point makes of the pounds', async () => {
		// Ten letters at £1.02: £10.20, which is 1019999999.9999999 units when multiplied out unrounded.
		const { items } = await api.run({ parameters: liveCreate({ recipientsFrom: 'allItems', options: { confirmUpTo: 10.2 } }), items: rows(10) });
		expect(items[0].json).toMatchObject({ confirmed: true, cost_after_tax_gbp: 10.2 });
	});

	it('a job within it is confirmed; a test job is never held back', async () => {
		const { items } = await api.run({ parameters: liveCreate({ options: { confirmUpTo: 1.02 } }), items: rows(1) });
		expect(items[0].json).toMatchObject({ confirmed: true, testmode: false });
		const test = await api.run({ parameters: liveCreate({ testmode: true, options: { confirmUpTo: 0.01 } }), items: rows(1) });
		expect(test.items[0].json).toMatchObject({ confirmed: true, testmode: true });
	});

	it('Confirm refuses a dearer draft, and confirms one that fits', async () => {
		const draft = await api.run({ parameters: liveCreate({ confirmed: false }), items: rows(1) });
		const id = { __rl: true, mode: 'id', value: String(draft.items[0].json.id) };
		const refused = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: id, options: { confirmUpTo: 0.5 } } });
		expect(refused.error?.message).toContain('was not confirmed: it costs more than "Confirm Only Up To" (£0.50)');
		const confirmed = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: id, options: { confirmUpTo: 2 } } });
		expect(confirmed.items[0].json).toMatchObject({ confirmed: true });
	});
});

describe('the daily spending limit on the credential', () => {
	const api = useFakeApi();

	it('100 items in parallel stop exactly at the limit: the rest refused with no draft, each with its error', async () => {
		const { items, error } = await api.run({ parameters: liveCreate({ options: { parallelItems: 100 } }), items: rows(100), continueOnFail: true, credentials: { dailySpendingLimit: 20 } });
		expect(error).toBeUndefined();
		const confirmed = items.filter((item) => item.json.confirmed === true);
		expect(confirmed).toHaveLength(Math.floor(20 / LETTER));
		expect(liveConfirmedGbp(api.fake)).toBeLessThanOrEqual(20);
		expect(errors(items)).toEqual(Array(100 - confirmed.length).fill("Nothing was sent for this item: today's spending cannot take another letter"));
		// Drafts are made only while they could fit, and the last confirm left less than a letter: no draft is left over.
		expect([...api.fake.prints.jobs.values()].filter((job) => !job.confirmed)).toHaveLength(0);
	});

	it('counts what was confirmed earlier today, and two executions at once do not pass it together', async () => {
		const before = liveConfirmedGbp(api.fake);
		const limit = Math.round((before + 10) * 100) / 100;
		const run = () => api.run({ parameters: liveCreate({ options: { parallelItems: 10 } }), items: rows(10), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		await Promise.all([run(), run()]);
		expect(liveConfirmedGbp(api.fake)).toBeLessThanOrEqual(limit);
		expect(liveConfirmedGbp(api.fake)).toBeGreaterThan(limit - LETTER);
	});

	it('fails closed: when the day cannot be read, nothing is confirmed', async () => {
		api.fake.faults.push({ method: 'GET', path: /\/prints$/, status: 401, times: Number.POSITIVE_INFINITY, error: { type: 'authentication_error', code: 'unauthorized', message: 'No.' } });
		const confirmedBefore = [...api.fake.prints.jobs.values()].filter((job) => job.confirmed).length;
		const { error } = await api.run({ parameters: liveCreate(), items: rows(1), credentials: { dailySpendingLimit: 1000 } });
		expect(error?.message).toMatch(/^Print job print_\w+ was not confirmed: today's spending could not be read$/);
		expect([...api.fake.prints.jobs.values()].filter((job) => job.confirmed)).toHaveLength(confirmedBefore);
	});

	it('a mail run held back is confirmed on a rerun too, part by part, once the limit allows', async () => {
		const spent = liveConfirmedGbp(api.fake);
		const parameters = liveCreate({ recipientsFrom: 'allItems', options: { sentKey: '={{ "mailrun-held" }}', lettersPerJob: 2 } });
		const before = api.fake.createdPrintJobs().length;
		const held = await api.run({ parameters, items: rows(4), continueOnFail: true, credentials: { dailySpendingLimit: spent + 0.5 } });
		expect(errors(held.items)).toHaveLength(4);
		// The first part's draft showed the day cannot take a letter: the second part was refused without a draft.
		const [draft] = api.fake.createdPrintJobs().slice(before);
		expect(api.fake.createdPrintJobs().slice(before).map((job) => [job.letters.length, job.confirmed])).toEqual([[2, false]]);
		expect(errors(held.items).slice(2)).toEqual([expect.stringMatching(/^Nothing was sent for this item: today's spending cannot take another letter$/), expect.anything()]);
		const again = await api.run({ parameters, items: rows(4), continueOnFail: true, credentials: { dailySpendingLimit: spent + 10 } });
		expect(errors(again.items)).toEqual([]);
		const second = api.fake.createdPrintJobs().at(-1)!;
		expect(again.items.map((item) => [item.json.id, item.json.confirmed, item.json.already_sent])).toEqual([[draft.id, true, true], [second.id, true, undefined]]);
	});

	it('a draft held back is confirmed on a rerun under Skip Items Already Sent, once the limit allows', async () => {
		const spent = liveConfirmedGbp(api.fake);
		const parameters = liveCreate({ options: { sentKey: '={{ "held-" + $json.name }}' } });
		const held = await api.run({ parameters, items: rows(1), credentials: { dailySpendingLimit: spent + 0.5 } });
		expect(held.error?.message).toContain('over the daily limit');
		const again = await api.run({ parameters, items: rows(1), credentials: { dailySpendingLimit: spent + 5 } });
		expect(again.items[0].json).toMatchObject({ confirmed: true, already_sent: true, id: api.fake.createdPrintJobs().at(-1)!.id });
	});
});

describe('a rerun after the limit changed: it confirms or refuses the drafts it finds, never reports them sent', () => {
	const api = useFakeApi();
	/**
	 * Three items under a limit below one letter: the first is held back as a draft, and the day, full, makes no
	 * draft for the other two. Then the same items again under `limit`.
	 */
	async function heldThenRerun(key: string, limit: number, extra: Record<string, unknown> = {}) {
		const spent = liveConfirmedGbp(api.fake);
		const parameters = liveCreate({ options: { sentKey: `={{ "${key}-" + $json.name }}`, parallelItems: 1 } });
		const before = api.fake.createdPrintJobs().length;
		const held = await api.run({ parameters, items: rows(3), continueOnFail: true, credentials: { dailySpendingLimit: spent + 0.5 } });
		expect(errors(held.items)).toHaveLength(3);
		const [draft] = api.fake.createdPrintJobs().slice(before);
		expect(api.fake.createdPrintJobs().slice(before)).toHaveLength(1);
		const again = await api.run({ parameters: { ...parameters, ...extra }, items: rows(3), continueOnFail: true, credentials: { dailySpendingLimit: limit === 0 ? 0 : spent + limit } });
		const made = api.fake.createdPrintJobs().slice(before);
		const left = made.filter((job) => !job.confirmed).map((job) => job.id);
		const reportedSent = again.items.filter((item) => item.json.error === undefined && item.json.confirmed !== true);
		return { again, draft, made, left, reportedSent };
	}

	it('limit removed (0): the held draft is confirmed now, the others sent, none reported as sent while a draft', async () => {
		const { again, draft, made, left, reportedSent } = await heldThenRerun('removed', 0);
		expect(left).toEqual([]);
		expect(reportedSent).toEqual([]);
		expect(made).toHaveLength(3);
		expect(again.items.map((item) => [item.json.confirmed, item.json.already_sent, item.json.confirmed_in_this_run])).toEqual([[true, true, true], [true, undefined, undefined], [true, undefined, undefined]]);
		expect(again.items[0].json.id).toBe(draft.id);
	});

	it('limit lowered: the draft is refused again with its error, the others with theirs, none reported as sent', async () => {
		const { again, left, made, reportedSent } = await heldThenRerun('lowered', 0.01);
		expect(left).toHaveLength(1);
		expect(made).toHaveLength(1);
		expect(reportedSent).toEqual([]);
		expect(errors(again.items)).toHaveLength(3);
		expect(errors(again.items)[0]).toMatch(/would take today's spending over the daily limit/);
	});

	it('limit raised enough for two: the draft and one more confirmed, the third refused with its error', async () => {
		const { again, reportedSent } = await heldThenRerun('raised', 2 * LETTER);
		expect(reportedSent).toEqual([]);
		expect(again.items.filter((item) => item.json.confirmed === true)).toHaveLength(2);
		expect(errors(again.items)).toHaveLength(1);
	});

	it('Confirm switched off for the rerun: the held draft is handed back as a draft, the others made as drafts, as asked', async () => {
		const { again, left } = await heldThenRerun('off', 0, { confirmed: false });
		expect(left).toHaveLength(3);
		expect(again.items.map((item) => [item.json.confirmed, item.json.already_sent, item.json.confirmed_in_this_run])).toEqual([[false, true, undefined], [false, undefined, undefined], [false, undefined, undefined]]);
	});
});

describe('a price that cannot be read is not £0', () => {
	const api = useFakeApi();

	it.each(['absent', 'unreadable'] as const)('cost %s: nothing is confirmed under a daily limit or Confirm Only Up To, and the error says why', async (how) => {
		api.fake.withholdCost = how;
		try {
			const daily = await api.run({ parameters: liveCreate(), items: rows(3), continueOnFail: true, credentials: { dailySpendingLimit: 0.01 } });
			const perJob = await api.run({ parameters: liveCreate({ options: { confirmUpTo: 1 } }), items: rows(3), continueOnFail: true });
			for (const run of [daily, perJob]) {
				expect(errors(run.items)).toHaveLength(3);
				expect(errors(run.items)[0]).toMatch(/^Print job print_\w+ \(1 letter\) was not confirmed: Intelliprint's answer did not give its price$/);
				expect(run.items[0].json).toMatchObject({ draft_cost_after_tax_gbp: null });
			}
			expect(liveConfirmedGbp(api.fake)).toBe(0);
		} finally {
			api.fake.withholdCost = false;
		}
	});

	it('a job of today listed without its price makes the day unknown: the next confirm is refused', async () => {
		const first = await api.run({ parameters: liveCreate(), items: rows(1), credentials: { dailySpendingLimit: 100 } });
		expect(first.items[0].json).toMatchObject({ confirmed: true });
		// Only the list of today's jobs leaves prices out: the draft's own answer still has its price.
		const original = api.fake.prints.list.bind(api.fake.prints);
		api.fake.prints.list = (query) => original(query).map((job) => ({ ...job, cost: null }) as never);
		try {
			const next = await api.run({ parameters: liveCreate(), items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: 100 } });
			expect(errors(next.items)[0]).toMatch(/today's spending could not be read$/);
			expect(String(next.items[0].json.description)).toContain('without a price that can be read');
			// Left out of the list altogether, the price is a field the list was asked for (the contract's projection).
			api.fake.prints.list = (query) => original(query).map((job) => ({ ...job, cost: undefined }) as never);
			const again = await api.run({ parameters: liveCreate(), items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: 100 } });
			expect(String(again.items[0].json.description)).toMatch(/is not as the node relies on \("projection"\): the list was asked for .*cost.* came without cost/);
		} finally {
			api.fake.prints.list = original;
		}
	});

	it('without a limit a job without a price is confirmed as asked: there is nothing to check it against', async () => {
		api.fake.withholdCost = 'absent';
		try {
			const { items } = await api.run({ parameters: liveCreate(), items: rows(1) });
			expect(items[0].json).toMatchObject({ confirmed: true, cost_after_tax_gbp: null });
		} finally {
			api.fake.withholdCost = false;
		}
	});
});

describe('an API that lists a confirm late', () => {
	const api = useFakeApi({ rateLimit: false, listingDelayMs: 500 });

	it('two processes pass the limit by at most one letter: each waits to see its own last confirm listed before it checks again', async () => {
		// Another spelling of the same API's address gives a run its own process-wide state, as a second n8n process has.
		const asOtherProcess = { baseUrl: api.fake.url.replace('http://', 'HTTP://') };
		const run = (extra: Record<string, unknown>) =>
			api.run({ parameters: liveCreate({ options: { parallelItems: 4 } }), items: rows(8), continueOnFail: true, credentials: { dailySpendingLimit: 5, ...extra } });
		const [a, b] = await Promise.all([run({}), run(asOtherProcess)]);
		const confirmed = [...a.items, ...b.items].filter((item) => item.json.confirmed === true).length;
		const spent = liveConfirmedGbp(api.fake);
		// Without the wait each process saw only its own listed confirms and the two confirmed 8 or more together (£8.16).
		expect(spent, `£${spent.toFixed(2)} in ${confirmed} letters`).toBeLessThanOrEqual(5 + LETTER);
		expect(spent).toBeGreaterThan(5 - LETTER);
	});
});

describe('failing closed, fast', () => {
	const api = useFakeApi();

	it('when today\'s list cannot be read, the first item reads it (with its retries) and the rest are refused at once: no drafts made for nothing', async () => {
		api.fake.faults.push({ method: 'GET', path: /\/prints$/, status: 500, times: Number.POSITIVE_INFINITY });
		const { items } = await api.run({ parameters: liveCreate({ options: { parallelItems: 1 } }), items: rows(300), continueOnFail: true, credentials: { dailySpendingLimit: 100 } });
		expect(items).toHaveLength(300);
		expect(errors(items).every((error) => /: today's spending could not be read$/.test(error))).toBe(true);
		const listReads = api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints').length;
		expect(listReads).toBe(4);
		expect(api.fake.createdPrintJobs().filter((job) => job.confirmed)).toEqual([]);
		// The first item's draft names it; the others were refused before anything was created for them.
		expect(api.fake.createdPrintJobs()).toHaveLength(1);
		expect(errors(items).slice(1).every((error) => error === "Nothing was sent for this item: today's spending could not be read")).toBe(true);
	});
});

describe('what a refusal tells the user', () => {
	const api = useFakeApi();

	it('one instruction per situation: without a key, confirm by hand; with Skip Items Already Sent, run it again', async () => {
		const plain = await api.run({ parameters: liveCreate(), items: rows(1), credentials: { dailySpendingLimit: 0.5 } });
		expect(plain.error?.description).toMatch(/confirm it with Print Job → Confirm \(or by hand in Intelliprint\), or delete it and run this item again\. It was made without Skip Items Already Sent, so no rerun can find it/);
		expect(plain.error?.description).not.toMatch(/do not run it again|run it again once the limit allows/);
		const keyed = await api.run({ parameters: liveCreate({ options: { sentKey: '={{ $json.name }}' } }), items: rows(1), credentials: { dailySpendingLimit: 0.5 } });
		expect(keyed.error?.description).toMatch(/run the workflow again: Skip Items Already Sent makes the rerun confirm this draft, not create another\./);
		expect(keyed.error?.description).not.toMatch(/do not run it again|by hand/);
	});

	it('the error that stops a run lists the confirmed jobs apart from the drafts', async () => {
		// The third item may cost at most £0.50: its draft is held back.
		const { error } = await api.run({ parameters: liveCreate({ options: { parallelItems: 1, confirmUpTo: '={{ $itemIndex === 2 ? 0.5 : 0 }}' } }), items: rows(3) });
		const jobs = api.fake.createdPrintJobs().slice(-3);
		expect(jobs.map((job) => job.confirmed)).toEqual([true, true, false]);
		expect(error?.description).toContain(`Confirmed print jobs: item 1 → ${jobs[0].id}; item 2 → ${jobs[1].id}.`);
		expect(error?.description).toContain(`Drafts (not confirmed, nothing charged): item 3 → ${jobs[2].id}.`);
	});
});

describe('advice followed to the letter posts nothing twice', () => {
	const api = useFakeApi();
	const rowsNamed = (names: string[]) => names.map((name, i) => ({ json: { name, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
	const letters = (names: string[]) => api.fake.createdPrintJobs().filter((job) => job.confirmed && job.letters.some((letter) => names.includes(String(letter.address.name)))).length;

	it('without a key: the refused items say to run only them again; done so once the limit allows, each name has one letter', async () => {
		const names = ['Kay One', 'Kay Two', 'Kay Three'];
		const limit = Math.round((liveConfirmedGbp(api.fake) + 1.5) * 100) / 100;
		const first = await api.run({ parameters: liveCreate({ options: { parallelItems: 1 } }), items: rowsNamed(names), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		const refused = first.items.filter((item) => item.json.error);
		expect(refused).toHaveLength(2);
		for (const item of refused) expect(String(item.json.description)).toMatch(/run only the items that were not sent/);
		// As advised: only the refused items, once the limit allows.
		const again = rowsNamed(names).filter((_, i) => refused.some((item) => (item.pairedItem as { item: number }).item === i));
		const rerun = await api.run({ parameters: liveCreate({ options: { parallelItems: 1 } }), items: again, continueOnFail: true, credentials: { dailySpendingLimit: limit + 5 } });
		expect(errors(rerun.items)).toEqual([]);
		expect(names.map((name) => letters([name]))).toEqual([1, 1, 1]);
	});

	it('with a key: the refused items say to run the workflow again; done so whole once the limit allows, each name has one letter', async () => {
		const names = ['Lee One', 'Lee Two', 'Lee Three'];
		const parameters = liveCreate({ options: { parallelItems: 1, sentKey: '={{ $json.name }}' } });
		const limit = Math.round((liveConfirmedGbp(api.fake) + 1.5) * 100) / 100;
		const first = await api.run({ parameters, items: rowsNamed(names), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		const refused = first.items.filter((item) => item.json.error);
		expect(refused).toHaveLength(2);
		for (const item of refused) expect(String(item.json.description)).toMatch(/Run the workflow again tomorrow or once the limit is raised: with Skip Items Already Sent, the rerun sends only the items not sent\./);
		const rerun = await api.run({ parameters, items: rowsNamed(names), continueOnFail: true, credentials: { dailySpendingLimit: limit + 5 } });
		expect(errors(rerun.items)).toEqual([]);
		expect(rerun.items.map((item) => item.json.already_sent === true)).toEqual([true, false, false]);
		expect(names.map((name) => letters([name]))).toEqual([1, 1, 1]);
	});
});

describe('a keyed rerun refused before anything is made says what an earlier run left for each item', () => {
	const api = useFakeApi();

	it('a job already sent comes out as sent, a draft held back is named on its error item', async () => {
		const parameters = (extra: Record<string, unknown>) => liveCreate({ options: { parallelItems: 1, sentKey: '={{ $json.name }}' }, ...extra });
		const sent = await api.run({ parameters: parameters({}), items: rows(1) });
		// Drafts an earlier run left (here made as drafts; a limit leaves them so too).
		await api.run({ parameters: parameters({ confirmed: false }), items: rows(4).slice(1) });
		const drafts = api.fake.createdPrintJobs().slice(-3).map((job) => job.id);
		const limit = Math.round((liveConfirmedGbp(api.fake) + 0.5) * 100) / 100;
		const { items } = await api.run({ parameters: parameters({}), items: rows(4), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(items[0].json).toMatchObject({ id: sent.items[0].json.id, already_sent: true, confirmed: true });
		// The first draft is refused by the check itself (naming it); that check filled the day, so the others are refused
		// before anything is made, and each names the draft an earlier run holds for it.
		expect(items[1].json).toMatchObject({ draft_id: drafts[0] });
		for (const [i, item] of items.slice(2).entries()) {
			expect(item.json.error).toBe("Nothing was sent for this item: today's spending cannot take another letter");
			expect(String(item.json.description)).toContain(`An earlier run holds draft ${drafts[i + 1]} for this item (1 letter, £1.02 after tax, not confirmed)`);
			expect(item.json).toMatchObject({ draft_id: drafts[i + 1], draft_cost_after_tax_gbp: 1.02 });
		}
		expect(api.fake.createdPrintJobs().slice(-3).map((job) => job.confirmed)).toEqual([false, false, false]);
	});
});

