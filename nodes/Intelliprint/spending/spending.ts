import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, connectionSettings, EXPECT } from '../transport';
import { issueConfirmPass, type ConfirmPass } from '../transport/confirmPass';
import type { PrintJob } from '../results';
import { roomForDraft } from './spendingRoom';
import { claimMetadata, isOwnClaim } from './claims';
import { confirmDraft, confirmInLine, unreadInRun } from './confirmLine';
import { ADVICE, dayFull, fullRefusal, letters, NOTHING_CONFIRMED, refusal, spendingUnreadable, type Rerun } from './refusals';
import { PER_POUND, pounds, priceAfterTax, strictBoolean, strictPounds } from '../values';
import { updatePrintJob } from './updatePrintJob';

export { ukMidnight } from './spendingDay';
export type { Rerun } from './refusals';

/**
 * The spending gate: the one door every confirm of a print job passes (Create with Confirm, a mail run's
 * parts, a rerun confirming a held-back draft, Confirm, Update with Confirm, the AI tool). It reads Confirm
 * and both limits strictly, and only it issues the pass without which the transport sends no confirm.
 */

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
	const unread = daily === undefined ? undefined : unreadInRun(ctx);
	if (unread !== undefined) throw spendingUnreadable(ctx, itemIndex, 'Nothing was sent for this item', unread, ask.rerun);
	// This run found the day unable to take another letter: no draft is made, nothing is read, for the rest.
	const full = daily === undefined ? undefined : dayFull(ctx, daily);
	if (full) throw fullRefusal(ctx, itemIndex, 'Nothing was sent for this item', full, ask.rerun);
	return { kind: 'checked', perJob, rerun: ask.rerun };
}

/** A live draft's turn under the daily limit: the claim it carries (claims.ts), and its place in the run's room. */
export interface LiveDraft {
	metadata: Record<string, string>;
	claimedAt?: number;
	landed: () => void;
	release: () => void;
}

const NO_TURN: LiveDraft = { metadata: {}, landed: () => undefined, release: () => undefined };

/**
 * Before a draft is made for a confirm under the daily limit: waits for room (spendingRoom.ts), or refuses the item
 * with nothing sent once the day is full. The draft is a claim on the day from the moment it is made.
 */
export async function roomForLiveDraft(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, rerun: Rerun): Promise<LiveDraft> {
	const { daily } = await limitsOf(ctx, itemIndex, undefined);
	if (testmode || daily === undefined) return NO_TURN;
	const room = await roomForDraft(ctx, Math.round(daily * PER_POUND));
	if (!('release' in room)) throw fullRefusal(ctx, itemIndex, 'Nothing was sent for this item', room, rerun);
	return { metadata: claimMetadata((await connectionSettings(ctx)).limitKey), claimedAt: Date.now(), ...room };
}

/** Confirms a draft within the limits of its plan, or refuses (the draft stays, the error names it). */
export async function confirmWithinLimits(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, plan: ConfirmPlan & { kind: 'checked' }, turn?: LiveDraft): Promise<PrintJob> {
	if (draft.confirmed) return draft;
	// The API contract's price-on-jobs (transport/contract.ts): a draft without a price is never confirmed.
	const cost = priceAfterTax(draft);
	if (cost === undefined && !draft.testmode) {
		// A price that cannot be read is not £0: no limit can be checked against it, so nothing is confirmed.
		throw refusal(ctx, itemIndex, `Print job ${draft.id} (${letters(draft)}) was not confirmed: Intelliprint's answer did not give its price`, [
			draft.cost === undefined
				? 'The answer had no cost at all, so it cannot be checked against the spending limit.'
				: `The answer's cost was ${JSON.stringify(draft.cost)?.slice(0, 80)}, so it cannot be checked against the spending limit.`,
			'It stays a draft: check its price in Intelliprint, and confirm it by hand (in Intelliprint or with Print Job → Confirm) if it is right.',
		], draft);
	}
	const why = `Print job ${draft.id} (${letters(draft)}, ${pounds(cost ?? 0)} after tax) was not confirmed`;
	// Rounded: £10.20 × 10^8 is 1019999999.9999999 in floating point, and a job of exactly the bound must pass.
	const perJob = plan.perJob === undefined ? undefined : Math.round(plan.perJob * PER_POUND);
	if (!draft.testmode && perJob !== undefined && cost! > perJob) throw refusal(ctx, itemIndex, `${why}: it costs more than "Confirm Only Up To" (${pounds(perJob)})`, [ADVICE[plan.rerun]], draft);
	const { daily } = await limitsOf(ctx, itemIndex, undefined);
	if (draft.testmode || daily === undefined) return await confirmDraft(ctx, itemIndex, draft, 'test job or no daily limit');
	const { limitKey } = await connectionSettings(ctx);
	// A claim this process just made for this confirm may share its read with the run's others (confirmLine.ts).
	const claimedAt = turn?.claimedAt !== undefined && isOwnClaim(draft, limitKey) ? turn.claimedAt : undefined;
	const decided = confirmInLine({ ctx, itemIndex, draft, cost: cost!, daily, limitKey, why, rerun: plan.rerun, claimedAt });
	turn?.landed();
	return await decided;
}

/** Confirms an existing draft by ID as its plan says: the Confirm operation and Update with Confirm. */
export async function confirmById(ctx: IExecuteFunctions, itemIndex: number, id: string, plan: ConfirmPlan, known?: PrintJob): Promise<PrintJob> {
	if (plan.kind === 'draft') throw new NodeOperationError(ctx.getNode(), 'Nothing to confirm', { itemIndex });
	if (plan.kind === 'now') return await updatePrintJob(ctx, id, { confirmed: true }, itemIndex, 'confirmed again', plan.pass);
	const draft = known ?? (await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex }));
	return await confirmWithinLimits(ctx, itemIndex, draft, plan);
}
