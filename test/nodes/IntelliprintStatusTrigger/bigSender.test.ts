import { beforeAll, describe, expect, it } from 'vitest';

import type { History } from '../../fake-api/server';
import { useFakeApi } from '../../helpers/context';
import { listReads, poller, returnLetter } from './poller';

/**
 * Issue 55, item 4: at a big sender's volume a poll costs what changed since the last one, not the account. The account
 * holds a year of print jobs (20,000, held compactly by the fake) of which 3,000 have a letter that came back, a week
 * after it was posted; the trigger's default watch (Returned, Failed (Wrong Address)) polls it.
 */
const api = useFakeApi();
const DAY = 86_400;
const JOBS = 20_000;
const RETURNS = 3_000;
const now = () => Math.floor(Date.now() / 1000);
let history: History;
/** The jobs whose letters come back during the tests, the newest first (none of them has come back yet). */
const fresh: string[] = [];

beforeAll(() => {
	history = api.fake.seedHistory({ count: JOBS, days: 365 });
	// Returns up to now: those of the jobs posted at least a week ago, spread evenly over them.
	let posted = JOBS;
	while (history.confirmedAtOf(posted - 1) + 7 * DAY > now() - 60) posted--;
	for (let k = 0; k < RETURNS; k++) {
		const index = Math.floor((k * posted) / RETURNS);
		returnLetter(api, history.letterIdAt(index, 0), history.confirmedAtOf(index) + 7 * DAY);
	}
	for (let index = JOBS - 1; fresh.length < 20; index--) fresh.push(history.letterIdAt(index, 0));
});

describe('a big sender: a year of history, 3,000 returned letters', () => {
	it('after the first poll, a poll reads a page of the returns since the last one, whatever the history holds', async () => {
		const poll = poller(api, { statuses: ['returned', 'failed_wrong_address'] });
		api.fake.resetRecording();
		expect(await poll()).toEqual([]);
		// The first poll reads the returns of the margin's days below the newest: one page of each read.
		expect(listReads(api).requests).toBe(2);

		for (const id of fresh.slice(0, 5)) returnLetter(api, id);
		api.fake.resetRecording();
		const emitted = await poll();
		expect(emitted.map((item) => item.json.id).sort()).toEqual(fresh.slice(0, 5).sort());
		// One request per read, asking for about what the last poll found (a few dozen jobs), not 3,000 jobs.
		const later = listReads(api);
		expect(later.requests).toBe(2);
		expect(later.asked).toBeLessThan(150);
		expect(later.queries.every((query) => query.skip === '0')).toBe(true);

		api.fake.resetRecording();
		expect(await poll()).toEqual([]);
		expect(listReads(api)).toMatchObject({ requests: 2 });
		expect(history.slowLists).toBe(0);

		// The state holds the returns of the last days only, not the 3,000.
		const state = poll.state() as { letters: { returned: string[] }; newestReturn: number };
		expect(state.letters.returned.length).toBeLessThan(40);
		expect(state.letters.returned).toEqual(expect.arrayContaining(fresh.slice(0, 5)));
		expect(JSON.stringify(state).length).toBeLessThan(4_000);
	});

	it('a first poll that emits what is there emits the returns of the look-back, reading only them', async () => {
		api.fake.resetRecording();
		const emitted = await poller(api, { statuses: ['returned'], emitExisting: true, lookBackDays: 30 })();
		const since = now() - 30 * DAY;
		const inWindow = [...api.fake.prints.jobs.values()].flatMap((job) => job.letters).filter((letter) => letter.status === 'returned' && (letter.returned?.date ?? 0) >= since);
		expect(emitted.map((item) => item.json.id).sort()).toEqual(inWindow.map((letter) => letter.id).sort());
		expect(inWindow.length).toBeGreaterThan(200);
		// 100 first, then a page four times that which goes past the look-back: never the whole list of 3,000.
		expect(listReads(api)).toMatchObject({ requests: 2, asked: 500 });
	});
});
