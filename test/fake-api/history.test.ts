import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ukMidnight, type History } from './history';
import { ApiFailure } from './http';
import { cost } from './letters';
import { PRINT_SORTS } from './lists';
import { startFakeIntelliprint, type FakeIntelliprint } from './server';
import { api } from './wire';

/** A big sender's history (issue 42): listed as the documented list does, in milliseconds at 510,000 jobs. */
interface Envelope {
	object: string;
	data: Array<Record<string, unknown>>;
	total_available: number;
	has_more: boolean;
}
const SENT_KEYS = 'fields[]=id&fields[]=created&fields[]=metadata';
const TODAY = 'fields[]=id&fields[]=confirmed_at&fields[]=cost';
/** The two lists the node reads: keys already sent (newest created first) and today's confirms (newest confirm first). */
const sentKeysPage = (skip: number) => `testmode=false&sort_field=created&sort_order=desc&${SENT_KEYS}&limit=1000&skip=${skip}`;
const todayPage = (skip: number) => `testmode=false&confirmed=true&sort_field=confirmed_at&sort_order=desc&${TODAY}&limit=1000&skip=${skip}`;

/** The list route's answer, in process (what GET /prints?<query> answers), or the failure it answers with. */
function list(fake: FakeIntelliprint, query: string): Envelope | { error: string } {
	const params = new URLSearchParams(query);
	try {
		return fake.listEnvelope(fake.prints.list(params), params, PRINT_SORTS) as Envelope;
	} catch (error) {
		// The API's refusal as it answers it; anything else is the fake failing, which no answer may be.
		return { error: error instanceof ApiFailure ? `${error.code} ${error.param}: ${error.message}` : `crashed: ${String(error)}` };
	}
}
const page = (fake: FakeIntelliprint, query: string) => list(fake, query) as Envelope;
const timed = <T>(work: () => T): [T, number] => {
	const started = performance.now();
	const result = work();
	return [result, performance.now() - started];
};
/** Timings are printed, not asserted: they say what this machine did. */
const say = (text: string) => fs.writeSync(1, `history: ${text}\n`);

describe('a small history answers every list exactly as the full list does', () => {
	let fake: FakeIntelliprint;
	let history: History;
	beforeAll(async () => {
		fake = await startFakeIntelliprint({ rateLimit: false });
		// 300 jobs over 3 days, 40 of them confirmed today, every third with a sent key.
		history = fake.seedHistory({ count: 300, days: 3, confirmedToday: 40, sentKeys: (i) => (i % 3 === 0 ? `inv-${i}` : undefined) });
		// The store's own jobs among the history: ties on created with history jobs, between them, a draft, a test job.
		const [a, b] = [history.createdAt(10), history.createdAt(200)];
		fake.prints.seed(1, { created: a, confirmed: true, confirmed_at: a + 5, reference: 'tie', metadata: { n8n_sent_key: 'inv-live' } });
		fake.prints.seed(1, { created: b + 1, confirmed: true, confirmed_at: history.confirmedAtOf(299), reference: 'between' });
		fake.prints.seed(1, { created: b, reference: 'draft' });
		fake.prints.seed(1, { created: b, testmode: true, confirmed: true, confirmed_at: b, reference: 'test' });
		await api(fake, 'POST', '/prints', { content: 'Hello', recipients: [{ address: { name: 'Ann', line: '1 High St', postcode: 'LS1 4AP' } }], confirmed: true });
		await api(fake, 'POST', '/prints', { content: 'Hello', recipients: [{ address: { name: 'Bob', line: '2 High St', postcode: 'LS1 4AP' } }] });
		// Changed history jobs: today's job 290 cancelled, old job 5 cancelled (sent: unchanged), job 100's letter returned.
		expect((await api(fake, 'DELETE', `/prints/${history.idAt(290)}`)).status).toBe(200);
		expect((await api(fake, 'DELETE', `/prints/${history.idAt(5)}`)).status).toBe(200);
		fake.prints.setLetterStatus(history.letterIdAt(100, 0), 'returned', { returned: { date: history.createdAt(299), reason: 'moved', acknowledged: false } });
	});
	afterAll(async () => fake.stop());

	it('lists the store\'s jobs among the history by time, ties in creation order (history first)', () => {
		const all = page(fake, 'limit=1000').data;
		// The history, four live jobs and the two made through the API (the test job is listed only with testmode=true).
		expect(all).toHaveLength(300 + 3 + 2);
		// History jobs with a sent key carry it as their reference too.
		const references = all.filter((job) => history.indexOf(String(job.id)) === undefined).map((job) => job.reference).filter(Boolean);
		expect(references).toEqual(['between', 'draft', 'tie']);
		expect(all.find((job) => String(job.id) === history.idAt(10))?.reference).toBe(history.sentKeyAt(10) ?? null);
		const tie = all.findIndex((job) => job.reference === 'tie');
		expect(all[tie + 1].id).toBe(history.idAt(10));
		expect(all.map((job) => job.created)).toEqual([...all.map((job) => job.created as number)].sort((x, y) => y - x));
	});

	it('answers a history job by its ID, with its letters, price, confirm times and key', async () => {
		const { status, body } = await api(fake, 'GET', `/prints/${history.idAt(3)}`);
		expect(status).toBe(200);
		expect(body).toMatchObject({
			id: history.idAt(3), object: 'print', confirmed: true, testmode: false, created: history.createdAt(3), confirmed_at: history.createdAt(3) + 60,
			metadata: { n8n_sent_key: 'inv-3' }, cost: { amount: 85_000_000, after_tax: 102_000_000, currency: 'GBP' }, pages: 1, sheets: 1,
		});
		expect(body.letters).toEqual([expect.objectContaining({ id: history.letterIdAt(3, 0), status: 'sent', cost: cost(85) })]);
		expect(body).not.toHaveProperty('_seq');
		expect((await api(fake, 'GET', `/prints/${history.idAt(4)}`)).body.metadata).toEqual({});
		expect((await api(fake, 'GET', `/prints/${history.idAt(299)}`)).body.letters[0].status).toBe('waiting_to_print');
		expect((await api(fake, 'GET', `/prints/${history.idAt(300)}`)).status).toBe(404);
		expect((await api(fake, 'GET', `/prints/print_${'0'.repeat(16)}`)).status).toBe(404);
	});

	it('cancels and refunds a seeded job of today when deleted (it stays, listed at £0); one sent days ago stays as it was', async () => {
		const cancelled = (await api(fake, 'GET', `/prints/${history.idAt(290)}`)).body;
		expect(cancelled).toMatchObject({ confirmed: true, cost: { amount: 0, after_tax: 0 } });
		expect(cancelled.letters[0].status).toBe('cancelled');
		const today = page(fake, 'testmode=false&confirmed=true&sort_field=confirmed_at&limit=1000').data;
		const listed = today.find((job) => job.id === history.idAt(290));
		expect(listed).toMatchObject({ cost: { amount: 0 } });
		// In its place by time: after job 291, before job 289.
		const at = today.indexOf(listed!);
		expect([today[at - 1].id, today[at + 1].id]).toEqual([history.idAt(291), history.idAt(289)]);
		const old = (await api(fake, 'DELETE', `/prints/${history.idAt(5)}`)).body;
		expect(old).toMatchObject({ id: history.idAt(5), cost: { amount: 85_000_000 } });
		expect(old.letters[0].status).toBe('sent');
		// Changed jobs are the store's own from then on; the rest are made when answered.
		expect(fake.prints.jobs.has(history.idAt(290))).toBe(true);
		expect(fake.prints.jobs.has(history.idAt(3))).toBe(false);
	});

	it('answers any query of the documented options as the full list answers it (sorts, filters, paging, fields, refusals)', () => {
		const filters = ['', 'testmode=true', 'testmode=false', 'confirmed=true', 'confirmed=false', 'letters.status=sent', 'letters.status=waiting_to_print',
			'letters.status=cancelled,waiting_to_print', 'letters.status=draft', 'letters.status=', 'letters.status=bogus', 'type=letter', 'type=postcard',
			'reference=tie', 'letters.returned.acknowledged=false', 'letters.returned.acknowledged=true', 'confirmed=true&letters.status=sent,waiting_to_print'];
		const sorts = ['', 'sort_order=asc', ...Object.keys(PRINT_SORTS).flatMap((field) => [`sort_field=${field}`, `sort_field=${field}&sort_order=asc`]), 'sort_field=metadata', 'sort_order=up'];
		const pages = ['', 'limit=1', 'limit=7&skip=3', 'limit=1000', 'limit=50&skip=250', 'limit=10&skip=303', 'limit=5&skip=10000', 'limit=0', 'limit=1001', 'skip=-1'];
		const fields = ['', SENT_KEYS, TODAY, 'fields=id,letters.status', 'fields[]=metadata.n8n_sent_key'];
		let compared = 0;
		let answered = 0;
		let referenceSorts = 0;
		const before = history.slowLists;
		for (const filter of filters) {
			for (const sort of sorts) {
				for (const paging of pages) {
					const query = [filter, sort, paging, fields[compared % fields.length]].filter(Boolean).join('&');
					// An extra query key the fast answer does not know makes the fake answer from the full list (and ignore it).
					const full = list(fake, `${query}&full=1`);
					expect(list(fake, query), query).toEqual(full);
					compared++;
					if (!('error' in full)) answered++;
					else expect(full.error).not.toMatch(/^crashed/);
					// A sort on reference is not the history's own order (keys are references): it may be answered in full too.
					if (!('error' in full) && /sort_field=reference\b/.test(sort)) referenceSorts++;
				}
			}
		}
		// Only the full answers (and sorts on reference) made the full list: every other came from the history's order.
		expect(history.slowLists - before).toBeGreaterThanOrEqual(answered);
		expect(history.slowLists - before).toBeLessThanOrEqual(answered + referenceSorts);
		expect(compared).toBeGreaterThan(3000);
		expect(answered).toBeGreaterThan(2000);
	});

	it('pages through a list that skips nothing (ignoreSkip) as the full list does', () => {
		fake.ignoreSkip = true;
		try {
			expect(list(fake, 'limit=20&skip=100')).toEqual(list(fake, 'limit=20&skip=100&full=1'));
		} finally {
			fake.calm();
		}
	});
});

describe("a big sender's history: 510,000 jobs over 30 days", () => {
	const COUNT = 510_000;
	let fake: FakeIntelliprint;
	let history: History;
	let liveIds: string[];
	beforeAll(async () => {
		fake = await startFakeIntelliprint({ rateLimit: false });
		const [seeded, ms] = timed(() => fake.seedHistory({ count: COUNT, confirmedToday: 20_000, sentKeys: 'inv-' }));
		history = seeded;
		say(`${COUNT} jobs seeded in ${ms.toFixed(0)} ms`);
		liveIds = [];
		for (const name of ['Ann', 'Bob']) {
			const created = await api(fake, 'POST', '/prints', { content: 'Hello', recipients: [{ address: { name, line: '1 High St', postcode: 'LS1 4AP' } }], confirmed: true, metadata: { n8n_sent_key: `run-${name}` } });
			liveIds.push(created.body.id);
		}
	});
	afterAll(async () => fake.stop());

	it("answers the node's scan for sent keys, newest first, in milliseconds at any depth, the jobs made through the API first", async () => {
		const first = (await api(fake, 'GET', `/prints?${sentKeysPage(0)}`)).body as unknown as Envelope;
		expect(first).toMatchObject({ object: 'list', total_available: COUNT + 2, has_more: true });
		expect(first.data.slice(0, 3).map((job) => job.id)).toEqual([liveIds[1], liveIds[0], history.idAt(COUNT - 1)]);
		expect(first.data[0]).toEqual({ id: liveIds[1], object: 'print', created: expect.any(Number), metadata: { n8n_sent_key: 'run-Bob' } });
		expect(first.data[2]).toEqual({ id: history.idAt(COUNT - 1), object: 'print', created: history.createdAt(COUNT - 1), metadata: { n8n_sent_key: `inv-${COUNT - 1}` } });
		const [deep, ms] = timed(() => page(fake, sentKeysPage(509_000)));
		say(`sent-key page at skip 509,000 of ${COUNT + 2}: ${ms.toFixed(1)} ms`);
		expect(deep).toMatchObject({ total_available: COUNT + 2, has_more: true });
		expect(deep.data).toHaveLength(1000);
		expect(deep.data[0].id).toBe(history.idAt(COUNT - 1 - (509_000 - 2)));
		const last = page(fake, sentKeysPage(510_000));
		expect(last).toMatchObject({ has_more: false });
		expect(last.data.map((job) => job.id)).toEqual([history.idAt(1), history.idAt(0)]);
		expect(history.slowLists).toBe(0);
	});

	it('pages through all 510,002 without a gap, a repeat or a job out of order', () => {
		const started = performance.now();
		let previous = Number.POSITIVE_INFINITY;
		let outOfOrder = 0;
		const seen = new Set<unknown>();
		for (let skip = 0; ; skip += 1000) {
			const { data, has_more } = page(fake, sentKeysPage(skip));
			for (const job of data) {
				if ((job.created as number) > previous) outOfOrder++;
				previous = job.created as number;
				seen.add(job.id);
			}
			if (!has_more) break;
		}
		expect(outOfOrder).toBe(0);
		expect(seen.size).toBe(COUNT + 2);
		say(`all ${COUNT + 2} jobs in pages of 1,000: ${((performance.now() - started) / 1000).toFixed(1)} s`);
	});

	it("answers the daily limit's read of today's confirms: 20,000 since UK midnight plus the run's own", () => {
		const since = ukMidnight();
		let today = 0;
		let gbp = 0;
		const times: number[] = [];
		for (let skip = 0; ; skip += 1000) {
			const [{ data }, ms] = timed(() => page(fake, todayPage(skip)));
			times.push(ms);
			const fresh = data.filter((job) => (job.confirmed_at as number) >= since);
			today += fresh.length;
			gbp += fresh.reduce((sum, job) => sum + (job.cost as { after_tax: number }).after_tax, 0) / 1e8;
			if (fresh.length < data.length) break;
		}
		expect(today).toBe(20_000 + 2);
		expect(gbp).toBeCloseTo(20_002 * 1.02, 6);
		say(`today's confirms, ${times.length} pages: ${Math.max(...times).toFixed(1)} ms the slowest`);
		const [deep, ms] = timed(() => page(fake, todayPage(509_000)));
		expect(deep.data).toHaveLength(1000);
		expect(deep.data[0]).toEqual({ id: history.idAt(COUNT - 1 - (509_000 - 2)), object: 'print', confirmed_at: expect.any(Number), cost: cost(85) });
		say(`confirmed_at page at skip 509,000: ${ms.toFixed(1)} ms`);
		expect(history.slowLists).toBe(0);
	});

	it('holds today and the window as asked: 20,000 confirmed since UK midnight, the oldest inside a 30-day look-back', () => {
		const midnight = ukMidnight();
		expect(history.confirmedAtOf(COUNT - 20_000)).toBeGreaterThanOrEqual(midnight);
		expect(history.confirmedAtOf(COUNT - 20_001)).toBeLessThan(midnight);
		expect(history.createdAt(0)).toBeGreaterThan(Math.floor(Date.now() / 1000) - 30 * 86_400);
		expect(history.confirmedAtOf(COUNT - 1)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
		expect(history.confirmedAtOf(COUNT - 1)).toBeGreaterThan(history.createdAt(COUNT - 1));
	});
});

describe('UK midnight', () => {
	it('is 00:00 London time: UTC in winter, 23:00 UTC the day before in summer, the offset of midnight on the days clocks change', () => {
		expect(ukMidnight(Date.UTC(2026, 0, 15, 12))).toBe(Date.UTC(2026, 0, 15) / 1000);
		expect(ukMidnight(Date.UTC(2026, 6, 1, 12))).toBe(Date.UTC(2026, 5, 30, 23) / 1000);
		expect(ukMidnight(Date.UTC(2026, 6, 1, 23, 30))).toBe(Date.UTC(2026, 6, 1, 23) / 1000);
		// 29 March 2026: clocks go forward at 01:00 UTC; midnight was still GMT.
		expect(ukMidnight(Date.UTC(2026, 2, 29, 12))).toBe(Date.UTC(2026, 2, 29) / 1000);
		// 25 October 2026: clocks go back at 01:00 UTC; midnight was BST.
		expect(ukMidnight(Date.UTC(2026, 9, 25, 12))).toBe(Date.UTC(2026, 9, 24, 23) / 1000);
	});
});
