import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Remembers delivered event ids so that a delivery the sender retries (same `webhook-id`, e.g.
 * because our 2xx got lost) starts the workflow only once, for as long as Svix keeps retrying.
 */
export const WINDOW_SECONDS = 24 * 60 * 60;

/**
 * The saved record lives in the node's workflow static data, which n8n writes back whole (one
 * UPDATE of the workflow row) after every request that changed it. At about 30 bytes an entry this
 * keeps that write under 100 kB; past it the oldest ids go first.
 */
export const MAX_SAVED = 3000;

/** In-process entries for every trigger in this n8n process together. */
const MAX_IN_PROCESS = 20_000;

/**
 * The saved record is read from the database at the start of each request and written after the
 * answer, so two deliveries handled at the same moment do not see each other: the same id twice
 * would run twice, and of two different ids one may be lost from the record. This process's own
 * memory closes both windows for requests it handles itself (a single n8n, or one webhook process);
 * across processes and restarts the saved record is what counts.
 */
const inProcess = new Map<string, number>();

/** Ids are sender-chosen strings of any length; a short digest keeps the record small and its keys plain. */
function digest(id: string): string {
	return createHash('sha256').update(id).digest('base64url').slice(0, 16);
}

const DIGEST = /^[A-Za-z0-9_-]{16}$/;

export interface DeliveryScope {
	/** Names the trigger (mode, workflow and node): test runs and each trigger have their own ids. */
	trigger: string;
	/** The node's static data, or undefined where n8n does not save it (test runs). */
	saved?: IDataObject;
}

/**
 * True the first time an id arrives within the window, and records it; false for a repeat.
 * The saved record is `{ deliveries: { <digest>: <expiry, UNIX seconds> } }`.
 */
export function firstDelivery(scope: DeliveryScope, id: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
	const key = digest(id);
	const memoryKey = `${scope.trigger}:${key}`;
	const record = scope.saved ? liveEntries(scope.saved.deliveries, nowSeconds) : [];
	const remembered = inProcess.get(memoryKey);
	if ((remembered !== undefined && remembered > nowSeconds) || record.some(([saved]) => saved === key)) return false;

	const expiry = nowSeconds + WINDOW_SECONDS;
	inProcess.delete(memoryKey);
	inProcess.set(memoryKey, expiry);
	// Every entry has the same window, so insertion order is expiry order: the oldest go first.
	for (const [oldKey, oldExpiry] of inProcess) {
		if (inProcess.size <= MAX_IN_PROCESS && oldExpiry > nowSeconds) break;
		inProcess.delete(oldKey);
	}

	if (scope.saved) {
		record.push([key, expiry]);
		record.sort((a, b) => a[1] - b[1]);
		// A fresh object each time: assigning it is what marks the static data as changed for n8n.
		scope.saved.deliveries = Object.fromEntries(record.slice(-MAX_SAVED));
	}
	return true;
}

/** The unexpired entries of a saved record; anything malformed in it (hand-edited, older versions) is dropped. */
function liveEntries(saved: unknown, nowSeconds: number): Array<[string, number]> {
	if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return [];
	return Object.entries(saved as Record<string, unknown>).filter(
		(entry): entry is [string, number] =>
			DIGEST.test(entry[0]) && typeof entry[1] === 'number' && entry[1] > nowSeconds && entry[1] <= nowSeconds + WINDOW_SECONDS,
	);
}
