/**
 * Remembers delivered event IDs so that a delivery the sender retries (same `webhook-id`, e.g.
 * because our 2xx got lost) starts the workflow only once. Kept in this n8n process's memory.
 */
const WINDOW_MS = 24 * 60 * 60 * 1000;
const MAX_REMEMBERED = 50_000;

const seen = new Map<string, number>();

/** True the first time a key is seen within the window; false for a repeat. */
export function firstDelivery(key: string, now = Date.now()): boolean {
	const expires = seen.get(key);
	if (expires !== undefined && expires > now) return false;
	seen.delete(key);
	seen.set(key, now + WINDOW_MS);
	// Map iteration follows insertion order, so the oldest entries go first.
	for (const [oldKey, oldExpiry] of seen) {
		if (seen.size <= MAX_REMEMBERED && oldExpiry > now) break;
		seen.delete(oldKey);
	}
	return true;
}
