import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { issueConfirmPass, type ConfirmPass } from '../transport/confirmPass';
import { apiRequest, EXPECT } from '../transport';
import { overAllowance, type Closed, type PrintJob } from '../results';
import { priceAfterTax } from '../values';

/**
 * What a node run knows of the day under the daily limit, to spend no request on items that cannot go: once the day is
 * full or unreadable, the rest are refused with no draft and no read; and the room its allowance gives (below). A run's
 * drafts still being made, its cheapest letter, and whether its day closed; `moved` settles whenever one of them moves.
 */
type RunRoom = Closed & { drafting: number; letter?: number; open?: Allowance; gaveWayAt?: number; moved: Promise<void>; wake?: () => void };

const rooms = new WeakMap<IExecuteFunctions, RunRoom>();

function roomOf(ctx: IExecuteFunctions): RunRoom {
	let room = rooms.get(ctx);
	if (!room) rooms.set(ctx, (room = { drafting: 0, moved: Promise.resolve() }));
	if (!room.wake) wake(room);
	return room;
}

function wake(room: RunRoom): void {
	const woken = room.wake;
	room.moved = new Promise((resolve) => (room.wake = resolve));
	woken?.();
}

/** The day after a decision: `spent` what is confirmed (or granted), the job's cost and its letters. */
export function noteCheck(ctx: IExecuteFunctions, check: { spent: number; limit: number; cost: number; letters: number }): void {
	const room = roomOf(ctx);
	room.letter = Math.min(check.cost / Math.max(1, check.letters), room.letter ?? Number.POSITIVE_INFINITY);
	// Full once what is spent leaves less than a letter; claims that may still be handed back do not fill it.
	if (check.limit - check.spent < room.letter) room.full = { total: check.spent, limit: check.limit, letter: room.letter };
}

export const noteUnread = (ctx: IExecuteFunctions, why: string) => void (roomOf(ctx).unread = why);

/** Why this run makes no more drafts under `limit`. */
export function closedDay(ctx: IExecuteFunctions, limit: number): Closed | undefined {
	const room = rooms.get(ctx);
	if (room?.unread !== undefined) return { unread: room.unread };
	return room?.full?.limit === limit ? { full: room.full } : undefined;
}

/** A draft the room let through: `landed` once made and in line. */
export type DraftTurn = { landed: () => void };

/** A run whose claim gave way makes its next one in a later second: else it ties again, and gives way again. */
export const noteGaveWay = (ctx: IExecuteFunctions) => void (roomOf(ctx).gaveWayAt = Date.now());

/** Before a draft is made under `limit`: why not, once the day closed. */
export async function roomForDraft(ctx: IExecuteFunctions, limit: number): Promise<DraftTurn | Closed> {
	const room = roomOf(ctx);
	await sleep(Math.max(0, (room.gaveWayAt ?? 0) + 1_000 - Date.now()));
	const closed = closedDay(ctx, limit);
	if (closed) return closed;
	room.drafting += 1;
	let landed = false;
	return { landed: () => void (landed || ([landed, room.drafting] = [true, room.drafting - 1]), wake(room)) };
}

/** Settles once none of the run's drafts is still being made. */
export async function draftsLanded(ctx: IExecuteFunctions): Promise<void> {
	const room = rooms.get(ctx);
	while (room && room.drafting > 0) await room.moved;
}

/**
 * An allowance (docs/spending-limits.md, rule 7): a run's claim asks, besides its own job, for room for up to `more` jobs
 * like it (MORE_METADATA), which the run makes next. Once the line approves the claim, it grants what fits; those jobs are
 * made confirmed on create (one request a letter), each carrying the claim's ID (UNDER_METADATA), while they fit what was
 * granted. The claim is confirmed last, saying what they used (USED_METADATA): every check counts an allowance, open or
 * closed, until a list shows each of its jobs.
 */
export const MORE_METADATA = 'n8n_spend_more';
export const USED_METADATA = 'n8n_spend_used';
export const UNDER_METADATA = 'n8n_spend_under';
/** At most 200 jobs, used for 3 minutes (of the API's 100 requests a minute; well inside a claim's window), closed when idle. */
const [MOST_JOBS, USE_MS, IDLE_MS] = [200, 3 * 60_000, 500];

type Allowance = { claim?: string; granted?: number; used: number; inflight: number; largest: number; waiting: number; until: number; touched: number; closing?: boolean };

/** A job made confirmed under the run's allowance (settled with its answer), or a claim asking for `more` (`ended` once closed). */
export type UnderAllowance = { metadata: Record<string, string>; pass: ConfirmPass; settle: (job: PrintJob) => Promise<string | undefined>; release: (posted?: boolean) => void };
type AskingAllowance = { more: number; ended: () => void };

/**
 * What an item under the daily limit does (Recipients: Each Item): uses the run's allowance, waits while the run's claim is
 * decided or closing, or asks for one itself for the `itemsAfter` items after it (none: a claim of its own alone).
 */
export async function allowanceFor(ctx: IExecuteFunctions, itemIndex: number, itemsAfter: number): Promise<UnderAllowance | AskingAllowance | undefined> {
	const run = roomOf(ctx);
	for (;;) {
		const allowance = run.open;
		if (!allowance) {
			if (itemsAfter < 1) return undefined;
			const asked: Allowance = (run.open = { used: 0, inflight: 0, largest: 0, waiting: 0, until: Number.POSITIVE_INFINITY, touched: Date.now() });
			return { more: Math.min(MOST_JOBS, itemsAfter), ended: () => void [run.open === asked && (run.open = undefined), wake(run)] };
		}
		const { granted, used, inflight, largest } = allowance;
		if (granted !== undefined && !allowance.closing && granted - used - (inflight + 1) * largest >= 0 && Date.now() < allowance.until) {
			allowance.inflight += 1;
			return underAllowance(ctx, itemIndex, run, allowance);
		}
		allowance.waiting += 1;
		await run.moved;
		allowance.waiting -= 1;
	}
}

function underAllowance(ctx: IExecuteFunctions, itemIndex: number, run: RunRoom, allowance: Allowance): UnderAllowance {
	let done = false;
	const account = (cost: number) => {
		if (done) return;
		[done, allowance.inflight, allowance.used, allowance.touched] = [true, allowance.inflight - 1, allowance.used + cost, Date.now()];
		allowance.largest = Math.max(allowance.largest, cost);
		wake(run);
	};
	const settle = async (job: PrintJob): Promise<string | undefined> => {
		const cost = priceAfterTax(job);
		// Unpriced, what is left beside the jobs in flight counts as used; dearer than what was left, the job goes too.
		account(cost ?? Math.max(0, allowance.granted! - allowance.used - (allowance.inflight - 1) * allowance.largest));
		if (cost !== undefined && allowance.used <= allowance.granted!) return undefined;
		const cancelled = await apiRequest(ctx, { expect: EXPECT.printJob, method: 'DELETE', path: `/prints/${job.id}`, itemIndex }).then(() => true, () => false);
		return overAllowance(job.id, cost, cancelled);
	};
	// Not answered: if it was sent, the API may have acted on it, so it counts as the dearest job yet.
	const release = (posted?: boolean) => account(posted ? allowance.largest : 0);
	return { metadata: { [UNDER_METADATA]: allowance.claim! }, pass: issueConfirmPass('within an allowance under the daily limit'), settle, release };
}

/** The line granted `granted` beside the claim's own `cost`; settles with what its jobs used, once it is time to close it. */
export async function useAllowance(ctx: IExecuteFunctions, claim: string, granted: number, cost: number): Promise<number> {
	const run = roomOf(ctx);
	const allowance = run.open;
	if (!allowance) return 0;
	Object.assign(allowance, { claim, granted, largest: cost, until: Date.now() + USE_MS, touched: Date.now() });
	wake(run);
	// Closed once nothing is in flight under it and it is used up, past its time, or idle (the run has no more items for it).
	const idle = () => allowance.waiting === 0 && Date.now() - allowance.touched >= IDLE_MS;
	while (allowance.inflight > 0 || !(granted - allowance.used < allowance.largest || Date.now() >= allowance.until || idle())) await sleep(IDLE_MS / 5);
	allowance.closing = true;
	return allowance.used;
}
