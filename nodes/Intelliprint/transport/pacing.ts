import { sleep } from 'n8n-workflow';

/**
 * Keeps each credential inside the API's rate limit (100 requests a minute by default), so that a
 * run over many items waits its turn instead of collecting 429s. A sliding log of requests per
 * credential, shared by every execution in this n8n process.
 *
 * Each slot is dated at its request's answer. The API counts a request when it arrives, which is
 * after it was sent and before it is answered; how long after sending is unknown (the upload, and
 * any queue in front of the API, take their time: dating slots at sending plus a margin was tried
 * and drew 429s from a busy server). The answer is the earliest moment known to be late enough.
 */
interface Slot {
	/** When the API last could have counted the request; Infinity while it is still in flight. */
	at: number;
}

interface Window {
	slots: Slot[];
	blockedUntil: number;
}

const windows = new Map<string, Window>();

export interface RateLimit {
	requests: number;
	windowMs: number;
}

function windowFor(key: string): Window {
	let window = windows.get(key);
	if (!window) {
		window = { slots: [], blockedUntil: 0 };
		windows.set(key, window);
	}
	return window;
}

/**
 * Resolves when a request may be sent without going over the limit, and books its slot. Call the
 * returned function when the answer arrives (or the attempt fails).
 */
export async function waitForSlot(key: string, limit: RateLimit): Promise<() => void> {
	const window = windowFor(key);
	for (;;) {
		const now = Date.now();
		window.slots = window.slots.filter((slot) => slot.at > now - limit.windowMs);
		let waitMs = window.blockedUntil - now;
		if (waitMs <= 0 && window.slots.length < limit.requests) {
			// A request still in flight (a long upload, say) keeps its slot however long it takes.
			const slot = { at: Number.POSITIVE_INFINITY };
			window.slots.push(slot);
			return () => (slot.at = Date.now());
		}
		if (waitMs <= 0) {
			const oldest = Math.min(...window.slots.map((slot) => slot.at));
			// All slots in flight: look again shortly, when one of them has been answered.
			waitMs = Number.isFinite(oldest) ? oldest + limit.windowMs - now + 1 : 50;
		}
		await sleep(waitMs);
	}
}

/** The API said 429: nobody using this credential sends again before it allows. */
export function blockUntil(key: string, until: number): void {
	const window = windowFor(key);
	window.blockedUntil = Math.max(window.blockedUntil, until);
}
