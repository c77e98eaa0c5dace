import { sleep } from 'n8n-workflow';

/**
 * How long a process waits for the API to list what it wrote (its last confirm, its drafts) before it decides. An
 * API that lists a write late (a cache, a replica) would otherwise let each process confirm jobs the others cannot
 * see yet; waiting keeps the limit whatever the delay. Past this, nothing is confirmed (the API contract's
 * listing-delay, transport/contract.ts).
 */
export const LISTING_WAIT_MS = 30_000;

/**
 * Reads again after growing pauses (0.2, 0.4 … 2 s) until `enough` says an answer will do, for at most `waitMs`.
 * Returns the last answer and whether it was enough: the one wait of the spending gate, for every list it reads.
 */
export async function readAgainUntil<T>(read: () => Promise<T>, enough: (answer: T) => boolean, waitMs = LISTING_WAIT_MS): Promise<{ answer: T; enough: boolean }> {
	const deadline = Date.now() + waitMs;
	let pause = 200;
	for (;;) {
		const answer = await read();
		if (enough(answer)) return { answer, enough: true };
		if (Date.now() + pause > deadline) return { answer, enough: false };
		await sleep(pause);
		pause = Math.min(pause * 2, 2_000);
	}
}
