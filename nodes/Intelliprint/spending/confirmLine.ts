import type { IExecuteFunctions, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, EXPECT } from '../transport';
import { issueConfirmPass } from '../transport/confirmPass';
import type { PrintJob } from '../results';
import { asNodeError } from '../results';
import { claimsShowing, CLAIM_CONFIRM_WINDOW_MS, countOwnClaim, ownToken, pendingOf, releasedMetadata } from './claims';
import { dayShowing, ukMidnight } from './spendingDay';
import { LISTING_WAIT_MS, readAgainUntil } from './listingWait';
import { draftsLanded, noteCheck } from './spendingRoom';
import { dayFull, refusal, spendingUnreadable, ADVICE, type Rerun } from './refusals';
import { PER_POUND, pounds } from '../values';
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

/** Refuses an ask; a claim refused is handed back first, so that other processes stop counting it. */
async function refuse(ask: Waiting, error: NodeOperationError): Promise<void> {
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
function refusedAtOnce(ask: Waiting): NodeOperationError | undefined {
	const what = `Print job ${ask.draft.id} was not confirmed`;
	const full = dayFull(ask.ctx, ask.daily);
	if (full) return full(ask.itemIndex, what, ask.draft);
	const failed = unreadable.get(ask.limitKey);
	const unread = unreadableInRun.get(ask.ctx) ?? (failed && failed.at >= ask.entered ? failed.why : undefined);
	return unread === undefined ? undefined : spendingUnreadable(ask.ctx, ask.itemIndex, what, unread, ask.rerun, ask.draft);
}

interface Read {
	day: number;
	confirmedTotal: number;
	pending: number;
	/** Undecided claims of other processes older than the batch's: it waits for them before refusing anything. */
	waitingAhead: number;
}

/** Today's confirmed total and what claims add, once the list shows what it must. Throws why not. */
async function readDay(open: Waiting[]): Promise<Read> {
	const [{ ctx, itemIndex, limitKey }] = open;
	const day = ukMidnight();
	let own = lastConfirm.get(limitKey);
	if (own?.day !== day) own = undefined;
	if (own?.unsure) {
		// A confirm whose answer was lost: if the API did not act on it, there is nothing to wait for.
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${own.id}`, itemIndex });
		if (!job.confirmed) own = undefined;
	}
	const today = await dayShowing(ctx, itemIndex, day, own?.id);
	// Past the API contract's listing-delay (transport/contract.ts) the check fails closed.
	if (!today) throw new Error(`Intelliprint has not listed print job ${own!.id}, which this n8n confirmed, within ${LISTING_WAIT_MS / 1000} seconds, so today's total is not known`);
	const drafts = open.filter(fresh).map((ask) => ask.draft.id);
	const claims = await claimsShowing(ctx, itemIndex, limitKey, drafts);
	if (!claims) throw new Error(`Intelliprint has not listed the drafts this n8n made (${drafts.join(', ')}) within ${LISTING_WAIT_MS / 1000} seconds, so what other n8n processes are confirming is not known`);
	const made = drafts.map((id) => claims.get(id)!.created);
	const oldest = made.length > 0 ? { created: Math.min(...made), token: ownToken(limitKey) } : undefined;
	return { day, confirmedTotal: today.total, ...pendingOf(claims, today.ids, new Set(open.map((ask) => ask.draft.id)), oldest) };
}

/**
 * The day as the batch may decide on it. Where older claims of other processes, not yet decided, are what would
 * refuse it, it reads again (after 0.2, 0.4 … s, for at most LISTING_WAIT_MS) until they are confirmed or handed
 * back: the older claim goes first, so two processes near the limit do not refuse each other's letters.
 */
async function settledDay(open: Waiting[]): Promise<Read> {
	const need = open.reduce((sum, ask) => sum + ask.cost, 0);
	const limit = limitOf(open[0]);
	const settled = await readAgainUntil(async () => await readDay(open), (read) => read.waitingAhead === 0 || read.confirmedTotal + read.pending + need <= limit);
	return settled.answer;
}

async function decide(batch: Waiting[]): Promise<void> {
	const open: Waiting[] = [];
	for (const ask of batch) {
		const refused = refusedAtOnce(ask);
		if (refused) await refuse(ask, refused);
		else open.push(ask);
	}
	if (open.length === 0) return;
	let read: Read;
	try {
		read = await settledDay(open);
	} catch (error) {
		// Fail closed, and fast: the items already waiting behind these are refused at once with the same words.
		const why = `${(error as Error).message.replace(/\.$/, '')}.`;
		unreadable.set(open[0].limitKey, { at: Date.now(), why });
		for (const ask of open) {
			unreadableInRun.set(ask.ctx, why);
			await refuse(ask, spendingUnreadable(ask.ctx, ask.itemIndex, `Print job ${ask.draft.id} was not confirmed`, why, ask.rerun, ask.draft));
		}
		return;
	}
	let total = read.confirmedTotal + read.pending;
	const approved: Waiting[] = [];
	for (const ask of open) {
		const seen = { limit: limitOf(ask), cost: ask.cost, letters: ask.draft.letters?.length ?? 1 };
		if (total + ask.cost > seen.limit) {
			// Less left than the cheapest letter the run has priced: no later item of the run can go today.
			noteCheck(ask.ctx, { ...seen, total, spent: total - read.pending });
			const others = read.pending > 0 ? `, and ${pounds(read.pending)} in drafts other n8n processes are confirming` : '';
			await refuse(
				ask,
				refusal(ask.ctx, ask.itemIndex, `${ask.why}: it would take today's spending over the daily limit of ${pounds(seen.limit)}`, [
					`Confirmed today (UK time) so far: ${pounds(total - read.pending)}${others}; with this job ${pounds(total + ask.cost)}.`,
					ADVICE[ask.rerun],
					'The limit is the Daily Spending Limit on the Intelliprint credential.',
				], ask.draft),
			);
			continue;
		}
		total += ask.cost;
		noteCheck(ask.ctx, { ...seen, total, spent: total - read.pending });
		approved.push(ask);
	}
	await Promise.all(approved.map(async (ask) => await confirmApproved(ask, read.day)));
}

async function confirmApproved(ask: Waiting, day: number): Promise<void> {
	// Past its window a claim may no longer be counted by others: it waits for a read of its own.
	if (ask.claimedAt !== undefined && !fresh(ask)) return enqueue({ ...ask, claimedAt: undefined }, true);
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
