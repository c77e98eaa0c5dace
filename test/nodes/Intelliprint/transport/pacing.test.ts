import { sleep } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Pacer, type RateLimit } from '../../../../nodes/Intelliprint/transport/pacing';
import { retryAfterMs } from '../../../../nodes/Intelliprint/transport/waits';
import { overLimit } from '../../../fake-api/http';

/**
 * Two n8n processes (two pacers) sharing one key against the API's sliding window, on simulated
 * time: a 60 s window is too long to run for real in a unit test. The real thing is measured in
 * test/e2e/queue; this runs the same pacing with the one feature a real API has that a quick
 * fake lacks: it counts a request only when it has read it, and reads one at a time, so a burst
 * of uploads is counted over seconds while the answers come later still.
 */
const limit: RateLimit = { requests: 100, windowMs: 60_000 };

interface Refusal {
	at: number;
	process: string;
}

/**
 * The fake API's own sliding window (overLimit), reached after a one-at-a-time intake of `readMs`
 * per request. A create is answered `answerMs` after counting; a refusal at once, or as late when
 * `slowRefusals` (the sandbox does that: its latency applies to every answer).
 */
function slidingWindowApi(readMs: number, answerMs: number, slowRefusals = false) {
	const counted = new Map<string, number[]>();
	const refusals: Refusal[] = [];
	let readerFreeAt = 0;
	return {
		refusals,
		async call(process: string): Promise<{ status: number; retryAfterMs: number }> {
			const countedAt = Math.max(Date.now(), readerFreeAt) + readMs;
			readerFreeAt = countedAt;
			await sleep(countedAt - Date.now());
			const refused = overLimit(counted, limit, 'the key');
			if (refused) refusals.push({ at: countedAt, process });
			if (!refused || slowRefusals) await sleep(answerMs);
			return { status: refused?.status ?? 200, retryAfterMs: retryAfterMs(refused?.headers['retry-after']) ?? 0 };
		},
	};
}

/**
 * One execution: `items` creates, 100 at a time (the node's default), each sent again after a 429
 * as the transport does. `wayThereMs(item)`: how long the item's request takes from its slot to
 * the API (building it in a busy process, the network).
 */
async function execution(
	name: string,
	pacer: Pacer,
	api: ReturnType<typeof slidingWindowApi>,
	items: number,
	wayThereMs: (item: number) => number = () => 0,
): Promise<{ end: number; leastShare: number }> {
	let next = 0;
	let leastShare: number = limit.requests;
	const lane = async () => {
		while (next < items) {
			const item = next++;
			for (;;) {
				const answered = (await pacer.waitForSlot(limit))!;
				await sleep(wayThereMs(item));
				const { status, retryAfterMs } = await api.call(name);
				answered(status);
				if (status !== 429) break;
				pacer.refused(limit, Date.now() + retryAfterMs);
				leastShare = Math.min(leastShare, pacer.share(limit));
			}
		}
	};
	await Promise.all(Array.from({ length: 100 }, lane));
	return { end: Date.now(), leastShare };
}

async function twoWorkers(readMs: number, items: [number, number], slowRefusals: boolean) {
	const api = slidingWindowApi(readMs, 1000, slowRefusals);
	const start = Date.now();
	const runs = Promise.all([execution('A', new Pacer(), api, items[0]), execution('B', new Pacer(), api, items[1])]);
	await vi.runAllTimersAsync();
	const ends = (await runs).map(({ end }) => end);
	const perWindow = [0, 0, 0, 0, 0, 0, 0];
	for (const refusal of api.refusals) perWindow[Math.floor((refusal.at - start) / limit.windowMs)]++;
	const least = (Math.ceil((items[0] + items[1]) / limit.requests) - 1) * limit.windowMs + 1000;
	return { perWindow, timesLeast: (Math.max(...ends) - start) / least };
}

describe('pacing: two processes on one key (simulated time)', () => {
	beforeEach(() => vi.useFakeTimers({ now: 1_000_000, loopLimit: 10_000_000 }));
	afterEach(() => vi.useRealTimers());

	it.each([
		['an API that counts at once', 0, [300, 300], false],
		['an API that reads a burst over three seconds', 15, [300, 300], false],
		['an API that reads a burst over three seconds, unequal runs', 15, [300, 100], false],
		['an API that reads a burst over three seconds and answers refusals as slowly as creates', 15, [300, 300], true],
	] as const)('settles on shares after the first window: %s', async (_name, readMs, items, slowRefusals) => {
		const { perWindow, timesLeast } = await twoWorkers(readMs, [...items], slowRefusals);
		// Both start a whole window's worth knowing nothing of each other: a first wave of up to 100.
		expect(perWindow[0]).toBeLessThanOrEqual(100);
		// After it, only probes are refused. A second wave (both releasing shares grown on room that
		// was their own slots, counted out by the API before their answers came) would be ~100.
		for (const refused of perWindow.slice(1)) expect(refused).toBeLessThan(limit.requests / 3);
		expect(timesLeast).toBeLessThan(1.1);
	});
});

describe('pacing: one process dates its slots before their answers (simulated time)', () => {
	beforeEach(() => vi.useFakeTimers({ now: 1_000_000, loopLimit: 10_000_000 }));
	afterEach(() => vi.useRealTimers());

	const answerMs = 1000;
	async function oneProcess(items: number, wayThereMs: (item: number) => number) {
		const api = slidingWindowApi(0, answerMs);
		const start = Date.now();
		const run = execution('A', new Pacer(), api, items, wayThereMs);
		await vi.runAllTimersAsync();
		const { end, leastShare } = await run;
		const perWindow = Array.from({ length: Math.ceil(items / limit.requests) + 1 }, () => 0);
		for (const refusal of api.refusals) perWindow[Math.floor((refusal.at - start) / limit.windowMs)]++;
		return { seconds: (end - start) / 1000, perWindow, leastShare };
	}

	it('takes the next window as soon as the API lets go, not one answer time later', async () => {
		const { seconds, perWindow } = await oneProcess(300, () => 5);
		expect(perWindow).toEqual([0, 0, 0, 0]);
		// Dated at their answers, each window would start an answer time late: 120 + 3 x 1 s.
		expect(seconds).toBeLessThan(120 + answerMs / 1000 + 0.5);
	});

	it('a cold first window that dates too early draws 429s once, and the next windows none', async () => {
		// The first window's requests take 400 ms to reach the API (a process building a hundred at
		// once), later ones none: the first window's answers hide more before counting than the
		// allowance covers, and the second window's first requests arrive too soon.
		const { seconds, perWindow, leastShare } = await oneProcess(500, (item) => (item < limit.requests ? 400 : 0));
		expect(perWindow[0]).toBe(0);
		expect(perWindow.slice(2)).toEqual([0, 0, 0, 0]);
		// Backing off as for another process costs it next to nothing: its answered slots all count.
		expect(leastShare).toBeGreaterThan(limit.requests * 0.9);
		expect(seconds).toBeLessThan(240 + 5 * (answerMs / 1000));
	});
});

describe('pacing: callers in line, and a busy event loop (real time)', () => {
	const small: RateLimit = { requests: 3, windowMs: 600 };

	it('gives slots window by window in the order callers came, each woken for its own turn', async () => {
		const pacer = new Pacer();
		const order: number[] = [];
		await Promise.all(
			Array.from({ length: 9 }, async (_, caller) => {
				const answered = (await pacer.waitForSlot(small))!;
				order.push(caller);
				answered(200);
			}),
		);
		// Window by window in the order they came (within a window, callers woken in the same
		// millisecond may book in any order).
		expect([order.slice(0, 3), order.slice(3, 6), order.slice(6)].map((window) => [...window].sort())).toEqual([
			[0, 1, 2],
			[3, 4, 5],
			[6, 7, 8],
		]);
	});

	it('does not count the time its own event loop was blocked as the API\'s: the next slot waits a window from the answer', async () => {
		const limit: RateLimit = { requests: 1, windowMs: 800 };
		const pacer = new Pacer();
		const answered = (await pacer.waitForSlot(limit))!;
		await sleep(30);
		// The process is busy (a CPU hog beside n8n, a crowd of requests being built): its loop stalls.
		const stalled = Date.now();
		while (Date.now() - stalled < 300) {
			// spin
		}
		await sleep(30);
		answered(200);
		const answeredAt = Date.now();
		await pacer.waitForSlot(limit);
		// Taking the stall for the API's work after counting, the slot would be dated ~260 ms before its answer.
		expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(limit.windowMs - 5);
	});
});
