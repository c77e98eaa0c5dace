import { sleep } from 'n8n-workflow';

/** A slow uplink (2 Mbit/s) still gets a large PDF through before the timeout. */
const UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/**
 * How long to wait for an answer: the credential's timeout for reads; a create or update parses
 * and splits a PDF, so it gets twice that plus the time a slow uplink needs for the upload.
 */
export function timeoutFor(method: string, readTimeoutMs: number, uploadBytes = 0): number {
	if (method === 'GET' || method === 'DELETE') return readTimeoutMs;
	return 2 * readTimeoutMs + Math.ceil((uploadBytes / UPLOAD_BYTES_PER_SECOND) * 1000);
}

/**
 * The wait a Retry-After header asks for, in either of its forms (delay in seconds, or an HTTP
 * date), or undefined when there is none or it cannot be read.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
	const text = value?.trim();
	if (!text) return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Exponential backoff with jitter, for faults that name no wait (about 0.5, 1, 2, 4 s …). */
export function backoffMs(attempt: number): number {
	const base = Math.min(1000 * 2 ** attempt, 30_000);
	return base / 2 + Math.floor(Math.random() * (base / 2));
}

/**
 * How long one item may still spend waiting out faults (429s, 5xx, dropped or hung connections),
 * shared by every request the item makes. Pacing waits do not count (waiting for a free slot in a
 * long run is the plan, not a fault), except a wait on a 429's hold or after the item's own 429.
 */
export class FaultBudget {
	private spentMs = 0;

	constructor(readonly totalMs: number) {}

	get remainingMs(): number {
		return Math.max(0, this.totalMs - this.spentMs);
	}

	/** Counts time already lost to a fault (an attempt that hung until its timeout, say). */
	spend(ms: number): void {
		this.spentMs += Math.max(0, ms);
	}

	/** Whether a wait of `ms` still fits. */
	allows(ms: number): boolean {
		return ms <= this.remainingMs;
	}

	async wait(ms: number): Promise<void> {
		this.spend(ms);
		await sleep(ms);
	}
}

const budgets = new WeakMap<object, Map<number, FaultBudget>>();

/** The budget of one item of one execution (every context object is one node run). */
export function faultBudget(ctx: object, itemIndex: number | undefined, totalMs: number): FaultBudget {
	let perItem = budgets.get(ctx);
	if (!perItem) budgets.set(ctx, (perItem = new Map()));
	const key = itemIndex ?? -1;
	let budget = perItem.get(key);
	if (!budget) perItem.set(key, (budget = new FaultBudget(totalMs)));
	return budget;
}

/** A duration in words: "1 second", "30 seconds". */
export function seconds(ms: number, round: (value: number) => number = Math.round): string {
	const whole = round(ms / 1000);
	return `${whole} second${whole === 1 ? '' : 's'}`;
}
