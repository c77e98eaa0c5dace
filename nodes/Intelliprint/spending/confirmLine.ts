import type { IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { issueConfirmPass } from '../transport/confirmPass';
import { asNodeError, closedRefusing, notSentAdvice, overTheLimit, recordDeleted, refusal, sameSecond, stuckClaims, ADVICE, type PrintJob, type Refusing, type Rerun } from '../results';
import { apiRequest, EXPECT } from '../transport';
import { updatePrintJob } from '../building/printJobUpdate';
import { PER_POUND, ukMidnight } from '../values';
import { before, CLAIM_CONFIRM_WINDOW_MS, isOwnClaim, LISTING_WAIT_MS, readDayAndClaims, releasedMetadata, type Place, type Read } from './dayRead';
import { closedDay, draftsLanded, noteCheck, noteGaveWay, noteUnread, useAllowance, USED_METADATA } from './spendingRoom';

/**
 * The line of confirms under a daily limit (docs/spending-limits.md), one per credential in this n8n process. A round
 * reads the day and the claims once (after the list shows this process's confirms) and gives every confirm in line its
 * verdict. A confirm that is no claim (a rerun's held draft, Confirm, a claim past its window) goes one per round. An ask:
 * its cost after tax (8 implied decimals), the daily limit in pounds, when its claim was asked for, the allowance it asks.
 */
export type Ask = { ctx: IExecuteFunctions; itemIndex: number; draft: PrintJob; cost: number; daily: number; limitKey: string; why: string; rerun: Rerun; claimedAt?: number; more?: number };
type Waiting = Ask & { place?: Place; ahead?: string; since: number; granted?: number; spentWith?: number; resolve: (job: PrintJob) => void; reject: (error: Error) => void };

/** Per credential fingerprint: the line, and this process's confirms the lists may not show yet (unsure: answer lost); the
 * one claim a node run holds back as a draft when the limit refuses it. */
const lines = new Map<string, Waiting[]>();
const madeHere = new Map<string, { id: string; day: number; unsure: boolean }[]>();
const heldInRun = new WeakMap<IExecuteFunctions, string>();

const fresh = (ask: Ask) => ask.claimedAt !== undefined && Date.now() - ask.claimedAt < CLAIM_CONFIRM_WINDOW_MS;
const limitOf = (ask: Ask) => Math.round(ask.daily * PER_POUND);

/** Puts a confirm in line; settles with the confirmed job or the item's refusal. */
export async function confirmInLine(ask: Ask): Promise<PrintJob> {
	return await new Promise<PrintJob>((resolve, reject) => join({ ...ask, since: Date.now(), resolve, reject }));
}

function join(ask: Waiting): void {
	const line = lines.get(ask.limitKey);
	if (line) return void line.push(ask);
	lines.set(ask.limitKey, [ask]);
	void run(ask.limitKey, lines.get(ask.limitKey)!);
}

async function run(limitKey: string, line: Waiting[]): Promise<void> {
	try {
		for (let pause = 200; line.length > 0; ) {
			// The runs' drafts still being made join this round: one read serves them all.
			await Promise.all([...new Set(line.filter(fresh).map((ask) => ask.ctx))].map(draftsLanded));
			// Waiting on an allowance (allowance.ts) is waiting on its run's letters: read less often.
			const moved = await round(line);
			if (line.length > 0) await sleep((pause = moved === true ? 200 : Math.min(pause * 2, moved === 'allowance' ? 10_000 : 2_000)));
		}
	} catch (error) {
		for (const ask of line.splice(0)) ask.reject(asNodeError(ask.ctx, error));
	} finally {
		lines.delete(limitKey);
	}
}

/** One round: one read, and each ask in line then confirmed, refused or left waiting. True when one was decided. */
async function round(line: Waiting[]): Promise<boolean | 'allowance'> {
	const take = (ask: Waiting) => line.splice(line.indexOf(ask), 1);
	for (const ask of [...line]) {
		const closed = closedDay(ask.ctx, limitOf(ask));
		if (closed) await refuse(take(ask)[0], closedRefusing(`Print job ${ask.draft.id} was not confirmed`, closed));
	}
	// Asks that join during the read wait for the next round.
	const open = [...line];
	if (open.length === 0) return true;
	const [{ ctx, itemIndex, limitKey }] = open;
	const day = ukMidnight();
	let read: Read;
	try {
		const made = (madeHere.get(limitKey) ?? []).filter((confirm) => confirm.day === day);
		read = await readDayAndClaims(ctx, itemIndex, limitKey, day, made, open.filter(fresh).map((ask) => ask.draft.id), open.map((ask) => ask.draft.id));
		madeHere.delete(limitKey);
	} catch (error) {
		await refuseUnread(open.flatMap(take), error as Error);
		return true;
	}
	// A claim past its window is decided as a confirm made alone.
	for (const ask of open) ask.place = fresh(ask) ? read.places.get(ask.draft.id) : undefined;
	const approved: Waiting[] = [];
	const undecided = [...read.undecided];
	let waitedOn = false;
	for (const ask of open.sort(inLine)) {
		const verdict = verdictOf({ cost: ask.cost, limit: limitOf(ask), place: ask.place }, read.spent, undecided);
		if (verdict === 'wait' || (verdict === 'confirm' && !ask.place && approved.some((other) => !other.place))) {
			const ahead = verdict === 'wait' ? undecided.filter((claim) => !ask.place || claim.created <= ask.place.created) : [];
			// To the asks behind it, this process's own claim waiting is one that may still be confirmed.
			if (ask.place) undecided.push({ ...ask.place, cost: ask.cost * (1 + (ask.more ?? 0)), allowance: Boolean(ask.more) });
			// An allowance in use changes as its letters are listed, and may take its run's minutes.
			const seen = ahead.map((claim) => `${claim.id}:${claim.cost}`).join();
			const patience = ahead.some((claim) => claim.allowance) ? ((waitedOn = true), CLAIM_CONFIRM_WINDOW_MS) : LISTING_WAIT_MS;
			if (seen !== ask.ahead || ahead.length === 0) [ask.ahead, ask.since] = [seen, Date.now()];
			else if (Date.now() - ask.since > patience) await refuseUnread(take(ask), new Error(stuckClaims(ahead.map((claim) => claim.id), patience / 1000)));
			continue;
		}
		take(ask);
		if (verdict === 'confirm') {
			read.spent += ask.cost;
			approved.push(ask);
		}
		noteCheck(ask.ctx, { limit: limitOf(ask), cost: ask.cost, letters: ask.draft.letters?.length ?? 1, spent: read.spent });
		// An allowance gets what fits beside every claim ahead of it (verdictOf), and the asks behind it count it.
		const ahead = undecided.reduce((sum, claim) => sum + (!ask.place || claim.created <= ask.place.created ? claim.cost : 0), 0);
		if (verdict === 'confirm' && ask.more) ask.spentWith = read.spent += ask.granted = Math.max(0, Math.min(ask.more * ask.cost, limitOf(ask) - read.spent - ahead));
		const { over, lines } = overTheLimit(read.spent, ask.cost, limitOf(ask));
		const kept = heldInRun.get(ask.ctx);
		// One claim held back as a draft shows what the day refused: the run's others are deleted, so few drafts are left.
		if (verdict === 'refuse' && (ask.claimedAt === undefined || kept === undefined)) await refuse(ask, { message: `${ask.why}: ${over}`, lines });
		else if (verdict === 'refuse') await dropDraft(ask, over, lines, `this run already holds ${kept} back`, 'tomorrow or once the limit is raised');
		if (verdict === 'refuse' && ask.claimedAt !== undefined) heldInRun.set(ask.ctx, kept ?? ask.draft.id);
		if (verdict === 'giveWay') await dropDraft(ask, sameSecond(limitOf(ask)), lines, '', 'later').then(() => noteGaveWay(ask.ctx));
	}
	await Promise.all(approved.map(async (ask) => await confirmApproved(ask, day)));
	return open.some((ask) => !line.includes(ask)) || (waitedOn && 'allowance');
}

/**
 * The rule (docs/spending-limits.md), with `spent` what is confirmed or approved. An ask is refused when it does not fit
 * even alone; confirmed when it fits with every claim that may still be confirmed made in an earlier second or the same
 * one (every claim, for an ask without a place); and otherwise waits for those claims to be decided, except that a
 * claim placed after another process's of the same second gives way when it does not fit with the claims ahead of it.
 */
function verdictOf(ask: { cost: number; limit: number; place?: Place }, spent: number, undecided: Read['undecided']): 'confirm' | 'refuse' | 'giveWay' | 'wait' {
	const { place } = ask;
	const sum = (counted: (claim: Place) => boolean) => undecided.reduce((total, claim) => total + (counted(claim) ? claim.cost : 0), 0);
	if (spent + ask.cost > ask.limit) return 'refuse';
	if (spent + sum((claim) => !place || claim.created <= place.created) + ask.cost <= ask.limit) return 'confirm';
	const tied = place && undecided.some((claim) => claim.created === place.created && claim.token !== place.token && before(claim, place));
	return tied && spent + sum((claim) => before(claim, place)) + ask.cost > ask.limit ? 'giveWay' : 'wait';
}

/** Claims by their place, then confirms made alone (no place) in the order they came. */
function inLine(a: Waiting, b: Waiting): number {
	if (a.place && b.place) return before(a.place, b.place) ? -1 : 1;
	return a.place ? -1 : b.place ? 1 : 0;
}

/** Fail closed, and fast: the runs of these asks refuse their other items at once, with the same words. */
async function refuseUnread(asks: Waiting[], error: Error): Promise<void> {
	const unread = `${error.message.replace(/\.$/, '')}.`;
	for (const ask of asks) {
		noteUnread(ask.ctx, unread);
		await refuse(ask, closedRefusing(`Print job ${ask.draft.id} was not confirmed`, { unread }));
	}
}

/** Refuses an ask: its draft stays, named on the item, and its claim is handed back so that no check counts it. */
async function refuse(ask: Waiting, refusing: Refusing): Promise<void> {
	const error = refusal(ask.ctx, ask.itemIndex, refusing.message, [...refusing.lines, ADVICE[ask.rerun]], ask.draft);
	const failure = await handBack(ask);
	if (failure) error.description += ` Its claim on the day could not be handed back (${failure}): other n8n processes count it for up to 15 minutes.`;
	ask.reject(error);
}

/**
 * A claim that gave way (verdictOf), or one refused after its process already holds a draft back today: its draft is
 * deleted, so nothing is sent and no more drafts are left than processes; one that cannot be deleted is refused as any.
 */
async function dropDraft(ask: Waiting, why: string, lines: string[], because: string, when: string): Promise<void> {
	const deleted = await apiRequest(ask.ctx, { expect: EXPECT.printJob, method: 'DELETE', path: `/prints/${ask.draft.id}`, itemIndex: ask.itemIndex }).then(() => true, () => false);
	if (!deleted) return await refuse(ask, { message: `${ask.why}: ${why}`, lines });
	recordDeleted(ask.ctx, ask.draft.id);
	ask.reject(refusal(ask.ctx, ask.itemIndex, `Nothing was sent for this item: ${why}`, [...lines, `Its draft was deleted${because && ` (${because})`}. ${notSentAdvice(ask.rerun, when)}`]));
}

/** Hands back this process's claim on a draft the line will not confirm; why not, if that failed. */
export async function handBack(ask: Pick<Ask, 'ctx' | 'itemIndex' | 'draft' | 'limitKey'>): Promise<string | undefined> {
	if (!isOwnClaim(ask.draft, ask.limitKey)) return undefined;
	const released = updatePrintJob(ask.ctx, ask.draft.id, { metadata: releasedMetadata(ask.draft) }, ask.itemIndex, 'updated');
	return await released.then(() => undefined, (failure: Error) => failure.message);
}

async function confirmApproved(ask: Waiting, day: number): Promise<void> {
	// Past its window a claim may no longer be counted by others: it goes again, as a confirm made alone.
	if (ask.claimedAt !== undefined && !fresh(ask)) return join({ ...ask, claimedAt: undefined, place: undefined });
	const made = (unsure: boolean) => madeHere.set(ask.limitKey, [...(madeHere.get(ask.limitKey) ?? []), { id: ask.draft.id, day, unsure }]);
	if (ask.more === undefined) return await confirmed(ask, made);
	// An allowance's claim is confirmed once its run is done with it, saying what its jobs used: the line goes on meanwhile.
	void useAllowance(ask.ctx, ask.draft.id, ask.granted ?? 0, ask.cost).then(async (used) => {
		// What it left unused may be less than a letter: then the run's day is full.
		noteCheck(ask.ctx, { limit: limitOf(ask), cost: ask.cost, letters: ask.draft.letters?.length ?? 1, spent: ask.spentWith! - ask.granted! + used });
		await confirmed(ask, made, { [USED_METADATA]: String(used) });
	});
}

async function confirmed(ask: Waiting, made: (unsure: boolean) => void, metadata?: Record<string, string>): Promise<void> {
	try {
		ask.resolve(await confirmDraft(ask.ctx, ask.itemIndex, ask.draft, 'within the daily limit', metadata));
		made(false);
	} catch (error) {
		// A refusal (4xx) confirmed nothing: the claim is handed back (an allowance's stays, its jobs count by it). A fault may have.
		if (/^4/.test(String((error as NodeApiError).httpCode ?? ''))) await (metadata ? undefined : handBack(ask));
		else made(true);
		ask.reject(asNodeError(ask.ctx, error));
	}
}

/** Sends the confirm itself, with the gate's pass: the only confirm of an existing draft in the node. */
export async function confirmDraft(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, allowed: string, used?: Record<string, string>): Promise<PrintJob> {
	const metadata = used && { metadata: { ...(draft.metadata as Record<string, string>), ...used } };
	return await updatePrintJob(ctx, draft.id, { confirmed: true, ...metadata }, itemIndex, 'confirmed again', issueConfirmPass(allowed)).catch((error: Error) => {
		throw asNodeError(ctx, error);
	});
}
