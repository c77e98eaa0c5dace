import { sleep } from 'n8n-workflow';

/**
 * Keeps each credential inside the API's rate limit (100 requests a minute by default), so that a
 * run over many items waits its turn instead of collecting 429s. A sliding log of requests per
 * credential, shared by every execution in this n8n process.
 *
 * When does the API count a request? On arrival: after the request's upload, before its answer.
 * A small request arrives moments after it is sent, so its slot is dated at sending plus a margin;
 * waiting for the answer instead would lose one server latency per window (a second per window
 * when a create takes a second). A large upload may arrive long after it was sent, so its slot is
 * dated at the answer, which is never before the arrival. And should the API answer 429 all the
 * same (another app on the same key, a slow uplink), this credential's slots are dated at the
 * answer for the next ten windows.
 */
interface Slot {
	/** When the API last could have counted the request; Infinity while it is still in flight. */
	at: number;
}

interface Window {
	slots: Slot[];
	blockedUntil: number;
	/** Until then (after a 429 despite pacing), every slot is dated at its answer. */
	cautiousUntil: number;
}

const windows = new Map<string, Window>();

/** How late after sending a small request may still arrive. */
const ARRIVAL_MARGIN_MS = 250;
/** Above this, the upload itself takes long enough that the arrival could be much later. */
const SMALL_REQUEST_BYTES = 256 * 1024;

export interface RateLimit {
	requests: number;
	windowMs: number;
}

function windowFor(key: string): Window {
	let window = windows.get(key);
	if (!window) {
		window = { slots: [], blockedUntil: 0, cautiousUntil: 0 };
		windows.set(key, window);
	}
	return window;
}

/**
 * Resolves when a request may be sent without going over the limit, and books its slot. Call the
 * returned function when the answer arrives (or the attempt fails), saying whether it was a 429.
 */
export async function waitForSlot(key: string, limit: RateLimit, uploadBytes = 0): Promise<(rateLimited?: boolean) => void> {
	const window = windowFor(key);
	for (;;) {
		const now = Date.now();
		window.slots = window.slots.filter((slot) => slot.at > now - limit.windowMs);
		let waitMs = window.blockedUntil - now;
		if (waitMs <= 0 && window.slots.length < limit.requests) {
			// A request still in flight (a long upload, say) keeps its slot however long it takes.
			const slot = { at: Number.POSITIVE_INFINITY };
			window.slots.push(slot);
			const arrivedBy = uploadBytes <= SMALL_REQUEST_BYTES ? now + ARRIVAL_MARGIN_MS : Number.POSITIVE_INFINITY;
			return (rateLimited = false) => {
				const answeredAt = Date.now();
				if (rateLimited) window.cautiousUntil = answeredAt + 10 * limit.windowMs;
				slot.at = answeredAt < window.cautiousUntil ? answeredAt : Math.min(answeredAt, arrivedBy);
			};
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
