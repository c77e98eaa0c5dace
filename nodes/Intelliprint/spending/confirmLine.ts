import type { IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { issueConfirmPass } from '../transport/confirmPass';
import type { PrintJob } from '../results';
import { asNodeError } from '../results';
import { before, CLAIM_CONFIRM_WINDOW_MS, countOwnClaim, releasedMetadata, type Place } from './claims';
import { readTurn, stepAside, takeBack, verdictOf, type Read } from './turns';
import { ukMidnight } from './spendingDay';
import { LISTING_WAIT_MS } from './listingWait';
import { draftsLanded, noteCheck } from './spendingRoom';
import { dayFull, fullLines, overLimit, refusal, stuckWhy, unreadLine, ADVICE, type Refusing, type Rerun } from './refusals';
import { PER_POUND } from '../values';
import { updatePrintJob } from './updatePrintJob';

/**
 * The line of confirms under a daily limit: one per credential in this n8n process, one decision at a time, each
 * on a read of today's confirms (spendingDay.ts) and of the claims of the last quarter hour (claims.ts). A decision
 * takes the run's fresh drafts together, so one read serves them all; any other draft (one a rerun or the Confirm
 * operation brings, or a claim past its window) goes alone, and the next read waits until the list shows its confirm.
 * So another process misses at most that one confirm of this process, and none of its claims.
 */

/** A confirm waiting for its decision. Amounts have 8 implied decimals. */
export interface Ask {
	ctx: IExecuteFunctions;
	itemIndex: number;
	draft: PrintJob;
	cost: number;
	/** The daily limit in pounds, as the credential gives it. */
	daily: number;
	limitKey: string;
	why: string;
	rerun: Rerun;
	/** When this process asked for the draft, if it is a claim made for this confirm (claims.ts). */
	claimedAt?: number;
}

interface Waiting extends Ask {
	entered: number;
	/** Its claim's place in the line (claims.ts), once listed. */
	place?: Place;
	/** Handed back while these claims ahead of it are decided. */
	yielded?: string[];
	resolve: (job: PrintJob) => void;
	reject: (error: Error) => void;
}

/** A confirm under a daily limit made alone, and whether the API may not have acted on it. */
interface OwnConfirm {
	id: string;
	day: number;
	unsure: boolean;
}
/** Per credential fingerprint, shared by every item, run and workflow in this n8n process. */
const lastConfirm = new Map<string, OwnConfirm>();
const queues = new Map<string, { asks: Waiting[]; busy: boolean }>();
/** Per fingerprint: when today's spending last could not be read, and why; items already waiting are refused at once. */
const unreadable = new Map<string, { at: number; why: string }>();
/** Per node run: why today's spending could not be read; the run's later items are refused at once too. */
const unreadableInRun = new WeakMap<IExecuteFunctions, string>();

/** Why this run found today's spending unreadable, if it did. */
export function unreadInRun(ctx: IExecuteFunctions): string | undefined {
	return unreadableInRun.get(ctx);
}

const fresh = (ask: Ask) => ask.claimedAt !== undefined && Date.now() - ask.claimedAt < CLAIM_CONFIRM_WINDOW_MS;
const limitOf = (ask: Ask) => Math.round(ask.daily * PER_POUND);

/** Queues a confirm for its decision; settles with the confirmed job or the item's refusal. */
export async function confirmInLine(ask: Ask): Promise<PrintJob> {
	return await new Promise<PrintJob>((resolve, reject) => enqueue({ ...ask, entered: Date.now(), resolve, reject }));
}

function enqueue(ask: Waiting, first = false): void {
	let queue = queues.get(ask.limitKey);
	if (!queue) queues.set(ask.limitKey, (queue = { asks: [], busy: false }));
	if (first) queue.asks.unshift(ask);
	else queue.asks.push(ask);
	if (!queue.busy) void drain(queue);
}

async function drain(queue: { asks: Waiting[]; busy: boolean }): Promise<void> {
	queue.busy = true;
	try {
		while (queue.asks.length > 0) {
			const head = queue.asks[0];
			// The run's drafts still being made join this decision: one read serves them all.
			if (fresh(head)) await draftsLanded(head.ctx);
			const batch = fresh(head) ? queue.asks.filter((ask) => ask.ctx === head.ctx && fresh(ask)) : [head];
			queue.asks = queue.asks.filter((ask) => !batch.includes(ask));
			await decide(batch).catch((error: Error) => batch.forEach((ask) => ask.reject(asNodeError(ask.ctx, error))));
		}
	} finally {
		queue.busy = false;
	}
}

/**
 * Refuses an ask; its draft stays, named on the item. A claim refused is handed back first, so that other processes
 * stop counting it.
 */
async function refuse(ask: Waiting, refusing: Refusing): Promise<void> {
	const error = refusal(ask.ctx, ask.itemIndex, refusing.message, [...refusing.lines, ADVICE[ask.rerun]], ask.draft);
	if (ask.claimedAt !== undefined) {
		try {
			await updatePrintJob(ask.ctx, ask.draft.id, { metadata: releasedMetadata(ask.draft) }, ask.itemIndex, 'updated');
		} catch (failure) {
			// Not handed back, it is counted by other processes for at most a quarter hour, and never confirmed.
			error.description = `${error.description ?? ''} Its claim on the day could not be handed back (${(failure as Error).message}): other n8n processes count it for up to 15 minutes.`.trim();
		}
	}
	ask.reject(error);
}

/** What cannot go at once: a full day, or a day this run (or a read since the ask came) could not read. */
function refusedAtOnce(ask: Waiting): Refusing | undefined {
	const message = `Print job ${ask.draft.id} was not confirmed`;
	const full = dayFull(ask.ctx, ask.daily);
	if (full) return { message: `${message}: today's spending cannot take another letter`, lines: [fullLines(full)] };
	const failed = unreadable.get(ask.limitKey);
	const unread = unreadableInRun.get(ask.ctx) ?? (failed && failed.at >= ask.entered ? failed.why : undefined);
	return unread === undefined ? undefined : { message: `${message}: today's spending could not be read`, lines: [unreadLine(unread)] };
}

/** Today's confirmed total and the claims, once the list shows what it must (turns.ts). Throws why not. */
async function readDay(open: Waiting[]): Promise<Read> {
	const [{ ctx, itemIndex, limitKey }] = open;
	const day = ukMidnight();
	const own = lastConfirm.get(limitKey);
	const drafts = open.filter((ask) => fresh(ask) && !ask.yielded).map((ask) => ask.draft.id);
	const read = await readTurn(ctx, itemIndex, limitKey, day, own?.day === day ? own : undefined, drafts, open.map((ask) => ask.draft.id));
	// A claim past its window is decided as a confirm made alone: it holds no place in the line.
	for (const ask of open) ask.place = fresh(ask) ? read.places.get(ask.draft.id) : undefined;
	return read;
}

/**
 * Decides a batch: confirms what fits, refuses what cannot fit whatever others do, and reads again (after 0.2, 0.4 …
 * 2 s) while other processes' claims stand in the way. An ask that steps aside hands its claim back, and takes it up
 * again once the claims ahead of it are decided. Past LISTING_WAIT_MS without any claim being decided, nothing more is
 * confirmed.
 */
async function decide(batch: Waiting[]): Promise<void> {
	let open: Waiting[] = [];
	for (const ask of batch) {
		const refused = refusedAtOnce(ask);
		if (refused) await refuse(ask, refused);
		else open.push(ask);
	}
	let stuckSince = Date.now();
	// The undecided claims the last read saw: a change in them is progress, however slow.
	let lastSeen = '';
	let pause = 200;
	while (open.length > 0) {
		let read: Read;
		try {
			read = await readDay(open);
		} catch (error) {
			return await refuseUnread(open, error as Error);
		}
		const next: Waiting[] = [];
		const approved: Waiting[] = [];
		let total = read.spent;
		let moved = false;
		// The run's room (spendingRoom.ts) counts the claims other processes may still confirm: it makes no draft for them.
		const others = read.undecided.reduce((sum, claim) => sum + claim.cost, 0);
		const share = read.rivals + 1;
		for (const ask of [...open].sort(inLine)) {
			// A claim stepped aside waits until every claim that was ahead of it is decided, then takes its place back.
			if (ask.yielded) {
				const back = ask.yielded.some((id) => read.undecided.some((claim) => claim.id === id)) ? undefined : await takeBack(ask.ctx, ask.itemIndex, ask.draft, ask.limitKey);
				if (back) [ask.draft, ask.yielded, moved] = [back, undefined, true];
				next.push(ask);
				continue;
			}
			const { verdict, ahead } = verdictOf({ cost: ask.cost, limit: limitOf(ask), place: ask.place }, total, read.undecided);
			if (verdict === 'wait' || verdict === 'yield') {
				if (verdict === 'yield' && (await stepAside(ask.ctx, ask.itemIndex, ask.draft))) [ask.yielded, moved] = [ahead.map((claim) => claim.id), true];
				next.push(ask);
				continue;
			}
			if (verdict === 'confirm') total += ask.cost;
			noteCheck(ask.ctx, { limit: limitOf(ask), cost: ask.cost, letters: ask.draft.letters?.length ?? 1, total: total + others, spent: total, share });
			if (verdict === 'confirm') approved.push(ask);
			else await refuse(ask, overLimit(ask.why, limitOf(ask), total, ask.cost));
			moved = true;
		}
		await Promise.all(approved.map(async (ask) => await confirmApproved(ask, read.day)));
		const seen = read.undecided.map((claim) => claim.id).sort().join();
		if (moved || seen !== lastSeen) stuckSince = Date.now();
		lastSeen = seen;
		open = next;
		if (open.length === 0) return;
		if (Date.now() - stuckSince > LISTING_WAIT_MS) return await refuseUnread(open, new Error(stuckWhy(read.undecided.map((claim) => claim.id), LISTING_WAIT_MS)));
		await sleep(pause);
		pause = moved ? 200 : Math.min(pause * 2, 2_000);
	}
}

/** The line's order for one batch: claims by their place, confirms made alone (no place) after them. */
function inLine(a: Waiting, b: Waiting): number {
	if (a.place && b.place) return before(a.place, b.place) ? -1 : 1;
	return a.place ? -1 : b.place ? 1 : 0;
}


/** Fail closed, and fast: the items already waiting behind these are refused at once with the same words. */
async function refuseUnread(open: Waiting[], error: Error): Promise<void> {
	const why = `${error.message.replace(/\.$/, '')}.`;
	unreadable.set(open[0].limitKey, { at: Date.now(), why });
	for (const ask of open) {
		unreadableInRun.set(ask.ctx, why);
		await refuse(ask, { message: `Print job ${ask.draft.id} was not confirmed: today's spending could not be read`, lines: [unreadLine(why)] });
	}
}


async function confirmApproved(ask: Waiting, day: number): Promise<void> {
	// Past its window a claim may no longer be counted by others: it waits for a read of its own.
	if (ask.claimedAt !== undefined && !fresh(ask)) return enqueue({ ...ask, claimedAt: undefined, place: undefined, yielded: undefined }, true);
	try {
		const job = await confirmDraft(ask.ctx, ask.itemIndex, ask.draft, 'within the daily limit');
		noteConfirmed(ask, day, false);
		ask.resolve(job);
	} catch (error) {
		// A refusal (4xx) confirmed nothing; after a fault the confirm may have happened: it is counted as made.
		if (!/^4/.test(String((error as NodeApiError).httpCode ?? ''))) noteConfirmed(ask, day, true);
		ask.reject(asNodeError(ask.ctx, error));
	}
}

function noteConfirmed(ask: Ask, day: number, unsure: boolean): void {
	countOwnClaim(ask.draft.id);
	// A confirm made alone: the next read waits until the list shows it (a claim's read counts it already).
	if (ask.claimedAt === undefined) lastConfirm.set(ask.limitKey, { id: ask.draft.id, day, unsure });
}

/** Sends the confirm itself, with the gate's pass: the only confirm of an existing draft in the node. */
export async function confirmDraft(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, allowed: string): Promise<PrintJob> {
	try {
		return await updatePrintJob(ctx, draft.id, { confirmed: true }, itemIndex, 'confirmed again', issueConfirmPass(allowed));
	} catch (error) {
		throw asNodeError(ctx, error);
	}
}
