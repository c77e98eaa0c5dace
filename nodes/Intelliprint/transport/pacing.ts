import { sleep } from 'n8n-workflow';

/**
 * Keeps each credential inside the API's rate limit (100 requests a minute by default), so that a
 * run over many items waits its turn instead of collecting 429s. A sliding log of send times per
 * credential, shared by every execution in this n8n process.
 */
interface Window {
	sentAt: number[];
	blockedUntil: number;
}

const windows = new Map<string, Window>();

function windowFor(key: string): Window {
	let window = windows.get(key);
	if (!window) {
		window = { sentAt: [], blockedUntil: 0 };
		windows.set(key, window);
	}
	return window;
}

export interface RateLimit {
	requests: number;
	windowMs: number;
}

/** Resolves when a request may be sent without going over the limit, and books its slot. */
export async function waitForSlot(key: string, limit: RateLimit): Promise<void> {
	const window = windowFor(key);
	for (;;) {
		const now = Date.now();
		while (window.sentAt.length > 0 && window.sentAt[0] <= now - limit.windowMs) window.sentAt.shift();
		let waitMs = window.blockedUntil - now;
		if (waitMs <= 0 && window.sentAt.length < limit.requests) {
			window.sentAt.push(now);
			return;
		}
		if (waitMs <= 0) waitMs = window.sentAt[0] + limit.windowMs - now + 1;
		await sleep(waitMs);
	}
}

/** The API said 429: nobody using this credential sends again before it allows. */
export function blockUntil(key: string, until: number): void {
	const window = windowFor(key);
	window.blockedUntil = Math.max(window.blockedUntil, until);
}
