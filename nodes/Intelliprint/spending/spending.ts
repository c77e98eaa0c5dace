import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, connectionSettings, EXPECT } from '../transport';
import { issueConfirmPass, type ConfirmPass } from '../transport/confirmPass';
import type { PrintJob } from '../results';
import { asNodeError, noteHeld } from '../results';
import { fullDay, noteCheck, roomForDraft, type Room } from './spendingRoom';
import { dayShowing, LISTING_WAIT_MS, ukMidnight } from './spendingDay';
import { PER_POUND, pounds, priceAfterTax, strictBoolean, strictPounds } from '../values';
import { updatePrintJob } from './updatePrintJob';

export { ukMidnight } from './spendingDay';

/**
 * The spending gate: the one door every confirm of a print job passes (Create with Confirm, a mail run's
 * parts, a rerun confirming a held-back draft, Confirm, Update with Confirm, the AI tool). It reads Confirm
 * and both limits strictly, and only it issues the pass without which the transport sends no confirm.
 */

/** What running the same item again does to a draft a limit held back: it tells the user what to do. */
export type Rerun = 'confirmsDraft' | 'createsAnother' | 'confirmsAgain';

/** How a confirm asked for goes ahead: not at all, in the same request, or on a draft once it fits. */
export type ConfirmPlan = { kind: 'draft' } | { kind: 'now'; pass: ConfirmPass } | { kind: 'checked'; perJob?: number; rerun: Rerun };

export interface ConfirmAsk {
	/** The Confirm value as the parameter gave it (an expression may give text). */
	confirm: unknown;
	/** Whether the job is a test job; undefined when the job exists and its kind is read from it. */
	testmode?: boolean;
	/** "Confirm Only Up To (GBP)" as given, if the operation has it. */
	perJob?: unknown;
	rerun: Rerun;
}

function refusal(ctx: IExecuteFunctions, itemIndex: number, message: string, lines: string[], draft?: PrintJob): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), message, { itemIndex, description: lines.filter(Boolean).join(' ') });
	// The draft a limit held back, for the error item (errorItem.ts): what to confirm by hand, and what it costs.
	if (draft) {
		noteHeld(ctx, draft);
		const cost = priceAfterTax(draft);
		error.context.heldDraft = { id: draft.id, costGbp: cost === undefined ? null : cost / PER_POUND };
	}
	// A model cannot change a limit or a setting: it must not be told to call again.
	error.context.adviceForModel = true;
	// The refusal says itself what a rerun does; the router adds no other instruction.
	error.context.rerunAdvised = true;
	return error;
}

const NOTHING_CONFIRMED = 'Nothing was created or confirmed for this item.';

/** Both limits, read strictly: a limit that is not an amount refuses every confirm (fail closed). */
async function limitsOf(ctx: IExecuteFunctions, itemIndex: number, perJobGiven: unknown): Promise<{ perJob?: number; daily?: number }> {
	const perJob = strictPounds(perJobGiven);
	if ('problem' in perJob) {
		throw refusal(ctx, itemIndex, `"Confirm Only Up To (GBP)" ${perJob.problem}`, [NOTHING_CONFIRMED, 'Set it to the most one live job may cost, or to 0 for no per-job limit.']);
	}
	const daily = strictPounds((await connectionSettings(ctx)).dailySpendingLimit);
	if ('problem' in daily) {
		throw refusal(ctx, itemIndex, `The credential's "Daily Spending Limit (GBP)" ${daily.problem}`, [
			NOTHING_CONFIRMED,
			'A limit that cannot be read lets no live job be confirmed. Correct it on the Intelliprint API credential (0 means no limit).',
		]);
	}
	return { perJob: perJob.value || undefined, daily: daily.value || undefined };
}

/** The gate's decision for one item, before anything is sent. Throws, on the item, what it cannot accept. */
export async function planConfirm(ctx: IExecuteFunctions, itemIndex: number, ask: ConfirmAsk): Promise<ConfirmPlan> {
	const wanted = strictBoolean(ask.confirm);
	if ('problem' in wanted) {
		throw refusal(ctx, itemIndex, `"Confirm" ${wanted.problem}`, [
			NOTHING_CONFIRMED,
			'Switch Confirm on or off, or use an expression that gives true or false (n8n also reads "true", "false", 1 and 0).',
		]);
	}
	if (!wanted.value) return { kind: 'draft' };
	const { perJob, daily } = await limitsOf(ctx, itemIndex, ask.perJob);
	if (ask.testmode === true || (perJob === undefined && daily === undefined)) return { kind: 'now', pass: issueConfirmPass('no limit applies') };
	// This run already found today's spending unreadable: refuse before a draft is made that could not be confirmed.
	const unread = daily === undefined ? undefined : unreadableInRun.get(ctx);
	if (unread !== undefined) throw spendingUnreadable(ctx, itemIndex, 'Nothing was sent for this item', unread, 'confirmsAgain');
	// This run found the day unable to take another letter: no draft is made, nothing is read, for the rest.
	const full = daily === undefined ? undefined : dayFull(ctx, daily);
	if (full) throw full(itemIndex, 'Nothing was sent for this item');
	return { kind: 'checked', perJob, rerun: ask.rerun };
}

const ADVICE: Record<Rerun, string> = {
	confirmsDraft: 'It stays a draft. Once the limit allows, run the workflow again: Skip Items Already Sent makes the rerun confirm this draft, not create another.',
	createsAnother:
		'It stays a draft: once the limit allows, confirm it by hand in Intelliprint or with Print Job → Confirm. Running this item again would create another draft (with Skip Items Already Sent on, a rerun confirms this one instead).',
	confirmsAgain: 'It stays a draft. Once the limit allows, run this again to confirm it, or confirm it by hand in Intelliprint.',
};

const letters = (job: PrintJob) => `${job.letters?.length ?? 0} letter${job.letters?.length === 1 ? '' : 's'}`;

/** A confirm under a daily limit sent by this process, and whether the API may not have acted on it. */
interface OwnConfirm {
	id: string;
	day: number;
	unsure: boolean;
}
/** Per credential fingerprint, shared by every item, run and workflow in this n8n process. */
const lastConfirm = new Map<string, OwnConfirm>();
const line = new Map<string, Promise<unknown>>();
/** Per fingerprint: when today's spending last could not be read, and why; items already waiting are refused at once. */
const unreadable = new Map<string, { at: number; why: string }>();
/** Per node run: why today's spending could not be read; the run's later items are refused at once too. */
const unreadableInRun = new WeakMap<IExecuteFunctions, string>();
/** The refusal for an item once the day cannot take another letter (spendingRoom.ts), while the limit is the one that filled it. */
function dayFull(ctx: IExecuteFunctions, daily: number): ((itemIndex: number, what: string, draft?: PrintJob) => NodeOperationError) | undefined {
	const full = fullDay(ctx, Math.round(daily * PER_POUND));
	return full && ((itemIndex, what, draft) => fullRefusal(ctx, itemIndex, what, full, draft));
}

function fullRefusal(ctx: IExecuteFunctions, itemIndex: number, what: string, full: Room, draft?: PrintJob): NodeOperationError {
	return refusal(ctx, itemIndex, `${what}: today's spending cannot take another letter`, [
		`Confirmed today (UK time): ${pounds(full.total)} of the daily limit of ${pounds(full.limit)}; what is left is less than one letter (${pounds(full.letter)}).`,
		draft ? ADVICE.confirmsAgain : 'Run it again tomorrow or once the limit is raised: with Skip Items Already Sent on, the rerun sends only what was not sent.',
	], draft);
}

/**
 * Before a draft is made for a confirm under the daily limit: waits for room (spendingRoom.ts), or refuses the item
 * with nothing sent once the day is full. Returns the release to call once the draft has been through the gate.
 */
export async function roomForLiveDraft(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean): Promise<() => void> {
	const { daily } = await limitsOf(ctx, itemIndex, undefined);
	if (testmode || daily === undefined) return () => undefined;
	const room = await roomForDraft(ctx, Math.round(daily * PER_POUND));
	if (typeof room !== 'function') throw fullRefusal(ctx, itemIndex, 'Nothing was sent for this item', room);
	return room;
}

/** Confirms a draft within the limits of its plan, or refuses (the draft stays, the error names it). */
export async function confirmWithinLimits(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, plan: ConfirmPlan & { kind: 'checked' }): Promise<PrintJob> {
	if (draft.confirmed) return draft;
	const cost = priceAfterTax(draft);
	if (cost === undefined && !draft.testmode) {
		// A price that cannot be read is not £0: no limit can be checked against it, so nothing is confirmed.
		throw refusal(ctx, itemIndex, `Print job ${draft.id} (${letters(draft)}) was not confirmed: Intelliprint's answer did not give its price`, [
			`The answer's cost was ${JSON.stringify(draft.cost ?? null)?.slice(0, 80)}, so it cannot be checked against the spending limit.`,
			ADVICE[plan.rerun],
			'Check the draft in Intelliprint before you confirm it by hand.',
		], draft);
	}
	const why = `Print job ${draft.id} (${letters(draft)}, ${pounds(cost ?? 0)} after tax) was not confirmed`;
	// Rounded: £10.20 × 10^8 is 1019999999.9999999 in floating point, and a job of exactly the bound must pass.
	const perJob = plan.perJob === undefined ? undefined : Math.round(plan.perJob * PER_POUND);
	if (!draft.testmode && perJob !== undefined && cost! > perJob) throw refusal(ctx, itemIndex, `${why}: it costs more than "Confirm Only Up To" (${pounds(perJob)})`, [ADVICE[plan.rerun]], draft);
	const { daily } = await limitsOf(ctx, itemIndex, undefined);
	if (draft.testmode || daily === undefined) return await confirmDraft(ctx, itemIndex, draft, 'test job or no daily limit');
	const { limitKey } = await connectionSettings(ctx);
	// One check and confirm at a time per key in this process, each after the API lists the one before: another
	// process (a queue-mode worker, a second n8n) then misses at most the one confirm this process has in flight.
	const entered = Date.now();
	const before = line.get(limitKey) ?? Promise.resolve();
	const mine = before.then(async () => {
		const full = dayFull(ctx, daily);
		if (full) throw full(itemIndex, `Print job ${draft.id} was not confirmed`, draft);
		const failed = unreadable.get(limitKey);
		const unread = unreadableInRun.get(ctx) ?? (failed && failed.at >= entered ? failed.why : undefined);
		if (unread !== undefined) throw spendingUnreadable(ctx, itemIndex, `Print job ${draft.id} was not confirmed`, unread, plan.rerun, draft);
		return await checkAndConfirm(ctx, itemIndex, draft, { why, cost: cost!, limit: Math.round(daily * PER_POUND), limitKey, rerun: plan.rerun });
	});
	line.set(limitKey, mine.catch(() => undefined));
	return await mine;
}

function spendingUnreadable(ctx: IExecuteFunctions, itemIndex: number, what: string, why: string, rerun: Rerun, draft?: PrintJob): NodeOperationError {
	return refusal(ctx, itemIndex, `${what}: today's spending could not be read`, [
		`The credential has a daily spending limit, and checking it needs the list of today's confirmed print jobs: ${why}`,
		draft ? ADVICE[rerun] : 'Run it again later.',
	], draft);
}

async function checkAndConfirm(
	ctx: IExecuteFunctions,
	itemIndex: number,
	draft: PrintJob,
	check: { why: string; cost: number; limit: number; limitKey: string; rerun: Rerun },
): Promise<PrintJob> {
	const seen = { limit: check.limit, cost: check.cost, letters: draft.letters?.length ?? 1 };
	const day = ukMidnight();
	let own = lastConfirm.get(check.limitKey);
	if (own?.day !== day) own = undefined;
	let today;
	try {
		if (own?.unsure) {
			// A confirm whose answer was lost: if the API did not act on it, there is nothing to wait for.
			const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${own.id}`, itemIndex });
			if (!job.confirmed) own = undefined;
		}
		today = await dayShowing(ctx, itemIndex, day, own?.id);
	} catch (error) {
		// Fail closed, and fast: the items already waiting behind this one are refused at once with the same words.
		const why = `${(error as Error).message}.`;
		unreadable.set(check.limitKey, { at: Date.now(), why });
		unreadableInRun.set(ctx, why);
		throw spendingUnreadable(ctx, itemIndex, `Print job ${draft.id} was not confirmed`, why, check.rerun, draft);
	}
	if (!today) {
		const why = `Intelliprint has not listed print job ${own!.id}, which this n8n confirmed, within ${LISTING_WAIT_MS / 1000} seconds, so today's total is not known.`;
		unreadable.set(check.limitKey, { at: Date.now(), why });
		unreadableInRun.set(ctx, why);
		throw spendingUnreadable(ctx, itemIndex, `Print job ${draft.id} was not confirmed`, why, check.rerun, draft);
	}
	if (today.total + check.cost > check.limit) {
		// Less left than the cheapest letter the run has priced: no later item of the run can go today.
		noteCheck(ctx, { ...seen, total: today.total, refused: true });
		throw refusal(ctx, itemIndex, `${check.why}: it would take today's spending over the daily limit of ${pounds(check.limit)}`, [
			`Confirmed today (UK time) so far: ${pounds(today.total)}; with this job ${pounds(today.total + check.cost)}.`,
			ADVICE[check.rerun],
			'The limit is the Daily Spending Limit on the Intelliprint credential.',
		], draft);
	}
	try {
		const confirmed = await confirmDraft(ctx, itemIndex, draft, 'within the daily limit');
		lastConfirm.set(check.limitKey, { id: draft.id, day, unsure: false });
		noteCheck(ctx, { ...seen, total: today.total + check.cost, refused: false });
		return confirmed;
	} catch (error) {
		// A refusal (4xx) confirmed nothing; after a fault the confirm may have happened: the next check finds out.
		if (!/^4/.test(String((error as NodeApiError).httpCode ?? ''))) lastConfirm.set(check.limitKey, { id: draft.id, day, unsure: true });
		throw asNodeError(ctx, error);
	}
}

/** Sends the confirm itself, with the gate's pass: the only confirm of an existing draft in the node. */
async function confirmDraft(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, allowed: string): Promise<PrintJob> {
	try {
		return await updatePrintJob(ctx, draft.id, { confirmed: true }, itemIndex, 'confirmed again', issueConfirmPass(allowed));
	} catch (error) {
		throw asNodeError(ctx, error);
	}
}

/** Confirms an existing draft by ID as its plan says: the Confirm operation and Update with Confirm. */
export async function confirmById(ctx: IExecuteFunctions, itemIndex: number, id: string, plan: ConfirmPlan, known?: PrintJob): Promise<PrintJob> {
	if (plan.kind === 'draft') throw new NodeOperationError(ctx.getNode(), 'Nothing to confirm', { itemIndex });
	if (plan.kind === 'now') return await updatePrintJob(ctx, id, { confirmed: true }, itemIndex, 'confirmed again', plan.pass);
	const draft = known ?? (await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex }));
	return await confirmWithinLimits(ctx, itemIndex, draft, plan);
}
