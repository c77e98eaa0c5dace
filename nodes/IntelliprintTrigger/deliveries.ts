import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Remembers accepted delivery ids so that a delivery the sender repeats (same `webhook-id`, e.g.
 * because our 2xx got lost) starts the workflow only once, for as long as Svix keeps retrying.
 */
export const WINDOW_SECONDS = 24 * 60 * 60;

/**
 * The saved record lives in the node's workflow static data, which n8n writes back whole (one
 * UPDATE of the workflow row) after every request that changed it, and reads with the workflow for
 * every request. At 12 characters an id, a full record is about 120 kB.
 */
export const MAX_SAVED = 10_000;

const HOUR_SECONDS = 60 * 60;
const WINDOW_HOURS = WINDOW_SECONDS / HOUR_SECONDS;

/**
 * 72 bits of SHA-256 in base64url: among 10,000 ids the chance of two sharing a digest is about
 * 1 in 10^14. Ids are sender-chosen strings of any length; a digest keeps the record small and plain.
 */
const DIGEST_LENGTH = 12;
const DIGESTS = /^(?:[A-Za-z0-9_-]{12})+$/;
/** The record before 0.2: `{ <16-character digest>: <expiry, UNIX seconds> }`. */
const OLD_DIGEST = /^[A-Za-z0-9_-]{16}$/;

export function digest(id: string): string {
	return createHash('sha256').update(id).digest('base64url').slice(0, DIGEST_LENGTH);
}

export const hourOf = (nowSeconds: number) => Math.floor(nowSeconds / HOUR_SECONDS);

/**
 * One trigger's record in this process: every id it knows was accepted, whether this process
 * accepted it or read it from the saved record, grouped by the hour it was accepted in. Each save
 * carries all of it, so a save made at the same moment as another request's (n8n writes static
 * data without a lock, the last writer wins) drops nothing this process knows.
 *
 * Saved as `{ "<hour since 1970>": "<digest><digest>…" }`: one string an hour keeps the static
 * data quick for n8n to read and write on every request.
 */
export class DeliveryRecord {
	private readonly hours = new Map<number, Set<string>>();
	private readonly hourOfDigest = new Map<string, number>();
	/** What was last read from or written to the saved record, an hour at a time, so it is parsed once. */
	private readonly seen = new Map<string, string>();
	/** The turn of the request now between its duplicate check and its answer (see takeTurn). */
	private turn: Promise<void> = Promise.resolve();
	private holders = 0;

	has(key: string): boolean {
		return this.hourOfDigest.has(key);
	}

	get size(): number {
		return this.hourOfDigest.size;
	}

	add(key: string, hour: number): void {
		if (this.hourOfDigest.has(key)) return;
		let ids = this.hours.get(hour);
		if (!ids) this.hours.set(hour, (ids = new Set()));
		ids.add(key);
		this.hourOfDigest.set(key, hour);
	}

	/** Takes in everything the saved record holds (another process's ids, or this one's from before a restart). */
	absorb(saved: unknown, nowHour: number): void {
		if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return;
		for (const [name, value] of Object.entries(saved as Record<string, unknown>)) {
			if (typeof value === 'string') {
				if (this.seen.get(name) === value || !/^\d{1,9}$/.test(name) || !DIGESTS.test(value)) continue;
				const hour = Number(name);
				if (!fresh(hour, nowHour)) continue;
				for (let at = 0; at < value.length; at += DIGEST_LENGTH) this.add(value.slice(at, at + DIGEST_LENGTH), hour);
				this.seen.set(name, value);
			} else if (typeof value === 'number' && OLD_DIGEST.test(name)) {
				const hour = hourOf(value - WINDOW_SECONDS);
				if (fresh(hour, nowHour)) this.add(name.slice(0, DIGEST_LENGTH), hour);
			}
		}
	}

	/** Drops ids older than the window, then the oldest past MAX_SAVED. */
	prune(nowHour: number): void {
		const byAge = [...this.hours.keys()].sort((a, b) => a - b);
		for (const hour of byAge) {
			const ids = this.hours.get(hour)!;
			const excess = this.hourOfDigest.size - MAX_SAVED;
			if (fresh(hour, nowHour) && excess <= 0) break;
			const drop = fresh(hour, nowHour) ? [...ids].slice(0, excess) : [...ids];
			for (const key of drop) {
				ids.delete(key);
				this.hourOfDigest.delete(key);
			}
			if (ids.size === 0) this.hours.delete(hour);
		}
	}

	/** The saved form of everything known, plus one id not (yet) known to be accepted. */
	toSaved(pending?: { key: string; hour: number }): IDataObject {
		const saved: IDataObject = {};
		const pendingHour = pending && !this.has(pending.key) ? pending.hour : undefined;
		const hours = new Set(this.hours.keys());
		if (pendingHour !== undefined) hours.add(pendingHour);
		for (const hour of [...hours].sort((a, b) => a - b)) {
			const known = [...(this.hours.get(hour) ?? [])].join('');
			saved[String(hour)] = hour === pendingHour ? known + pending!.key : known;
		}
		for (const [name, value] of Object.entries(saved)) this.seen.set(name, value as string);
		return saved;
	}

	/**
	 * Waits until the request before this one has been answered (or `limitMs` has passed), and
	 * hands back what ends this request's turn. One request at a time per trigger goes from its
	 * duplicate check to its answer, so each save includes every id accepted before it (nothing is
	 * left for a later request to bring in), and two copies of one delivery arriving together are
	 * told apart here: the second sees the first's outcome. n8n's own pace sets the pace.
	 */
	async takeTurn(wait: (ms: number) => Promise<void>, limitMs: number): Promise<() => void> {
		const before = this.turn;
		let end!: () => void;
		const mine = new Promise<void>((resolve) => (end = resolve));
		// Each request waits for the one before it only: one that outlived the limit holds up no other.
		this.turn = mine;
		if (this.holders++ > 0) await Promise.race([before, wait(limitMs)]);
		let ended = false;
		return () => {
			if (ended) return;
			ended = true;
			this.holders--;
			end();
		};
	}
}

function fresh(hour: number, nowHour: number): boolean {
	// The current hour and the 24 before it: every id accepted in the last 24 hours is kept.
	return hour >= nowHour - WINDOW_HOURS && hour <= nowHour + 1;
}

/** Every trigger's record in this n8n process, by trigger (mode, workflow and node). */
const records = new Map<string, DeliveryRecord>();

export function recordOf(trigger: string): DeliveryRecord {
	let record = records.get(trigger);
	if (!record) records.set(trigger, (record = new DeliveryRecord()));
	return record;
}
