import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, connectionSettings, EXPECT } from '../transport';
import { issueConfirmPass, type ConfirmPass } from '../transport/confirmPass';
import { closedRefusal, letters, NOTHING_CONFIRMED, overPerJob, priceUnread, refusal, type PrintJob, type Rerun } from '../results';
import { allowanceFor, closedDay, roomForDraft, MORE_METADATA, type DraftTurn, type UnderAllowance } from './spendingRoom';
import { claimMetadata, isOwnClaim } from './dayRead';
import { confirmDraft, confirmInLine, handBack } from './confirmLine';
import { PER_POUND, pounds, priceAfterTax, strictBoolean, strictPounds } from '../values';
import { updatePrintJob } from '../building/printJobUpdate';

/** How a confirm asked for goes ahead: not at all, in the same request, or on a draft once it fits. */
export type ConfirmPlan = { kind: 'draft' } | { kind: 'now'; pass: ConfirmPass } | { kind: 'checked'; perJob?: number; rerun: Rerun };

/** Confirm and "Confirm Only Up To (GBP)" as given (an expression may give text); testmode unknown for a job made earlier. */
export type ConfirmAsk = { confirm: unknown; testmode?: boolean; perJob?: unknown; rerun: Rerun };

/** Both limits, read strictly: a limit that is not an amount refuses every confirm (fail closed). */
async function limitsOf(ctx: IExecuteFunctions, itemIndex: number, perJobGiven: unknown): Promise<{ perJob?: number; daily?: number }> {
	const perJob = strictPounds(perJobGiven);
	if ('problem' in perJob) throw refusal(ctx, itemIndex, `"Confirm Only Up To (GBP)" ${perJob.problem}`, [NOTHING_CONFIRMED, 'Set it to the most one live job may cost, or to 0 for no per-job limit.']);
	const daily = strictPounds((await connectionSettings(ctx)).dailySpendingLimit);
	const fix = 'A limit that cannot be read lets no live job be confirmed. Correct it on the Intelliprint API credential (0 means no limit).';
	if ('problem' in daily) throw refusal(ctx, itemIndex, `The credential's "Daily Spending Limit (GBP)" ${daily.problem}`, [NOTHING_CONFIRMED, fix]);
	return { perJob: perJob.value || undefined, daily: daily.value || undefined };
}

/** The gate's decision for one item, before anything is sent. Throws, on the item, what it cannot accept. */
export async function planConfirm(ctx: IExecuteFunctions, itemIndex: number, ask: ConfirmAsk): Promise<ConfirmPlan> {
	const wanted = strictBoolean(ask.confirm);
	const fix = 'Switch Confirm on or off, or use an expression that gives true or false (n8n also reads "true", "false", 1 and 0).';
	if ('problem' in wanted) throw refusal(ctx, itemIndex, `"Confirm" ${wanted.problem}`, [NOTHING_CONFIRMED, fix]);
	if (!wanted.value) return { kind: 'draft' };
	const { perJob, daily } = await limitsOf(ctx, itemIndex, ask.perJob);
	if (ask.testmode === true || (perJob === undefined && daily === undefined)) return { kind: 'now', pass: issueConfirmPass('no limit applies') };
	// This run already found the day full, or unreadable: no draft is made, nothing is read, for the rest of its items.
	const closed = daily === undefined ? undefined : closedDay(ctx, Math.round(daily * PER_POUND));
	if (closed) throw closedRefusal(ctx, itemIndex, closed, ask.rerun);
	return { kind: 'checked', perJob, rerun: ask.rerun };
}

/** A live job's turn under the daily limit: a claim (dayRead.ts) asking an allowance for `more` jobs, or a job `under` one. */
export type LiveDraft = DraftTurn & { metadata: Record<string, string>; claimedAt?: number; more?: number; under?: UnderAllowance; release: (posted?: boolean) => void };

/** Before a live job is made under the daily limit: the run's allowance, or a claim, or the item refused once the day is full. */
export async function roomForLiveDraft(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, rerun: Rerun, itemsAfter = 0): Promise<LiveDraft> {
	const { daily } = await limitsOf(ctx, itemIndex, undefined);
	if (testmode || daily === undefined) return { metadata: {}, landed: () => undefined, release: () => undefined };
	const claim = claimMetadata((await connectionSettings(ctx)).limitKey);
	const allowance = await allowanceFor(ctx, itemIndex, itemsAfter);
	if (allowance && 'settle' in allowance) return { metadata: { ...claim, ...allowance.metadata }, under: allowance, landed: () => undefined, release: allowance.release };
	const room = await roomForDraft(ctx, Math.round(daily * PER_POUND));
	const ended = () => allowance?.ended();
	if (!('landed' in room)) throw (ended(), closedRefusal(ctx, itemIndex, room, rerun));
	const more = allowance && { [MORE_METADATA]: String(allowance.more) };
	return { metadata: { ...claim, ...more }, claimedAt: Date.now(), more: allowance?.more, landed: room.landed, release: () => [room.landed(), ended()] };
}

/** Confirms a draft within the limits of its plan, or refuses (the draft stays, the error names it). */
export async function confirmWithinLimits(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, plan: ConfirmPlan & { kind: 'checked' }, turn?: LiveDraft): Promise<PrintJob> {
	if (draft.confirmed) return draft;
	const { limitKey } = await connectionSettings(ctx);
	// The API contract's price-on-jobs (transport/contract.ts): a price that cannot be read is not £0, and never confirmed.
	const cost = priceAfterTax(draft);
	// Rounded: £10.20 × 10^8 is 1019999999.9999999 in floating point, and a job of exactly the bound must pass.
	const perJob = plan.perJob === undefined ? undefined : Math.round(plan.perJob * PER_POUND);
	const why = `Print job ${draft.id} (${letters(draft)}${cost === undefined ? '' : `, ${pounds(cost)} after tax`}) was not confirmed`;
	const refused = draft.testmode ? undefined : cost === undefined ? priceUnread(why, draft) : cost > (perJob ?? cost) ? overPerJob(why, perJob!, plan.rerun) : undefined;
	if (refused) {
		await handBack({ ctx, itemIndex, draft, limitKey });
		throw refusal(ctx, itemIndex, refused.message, refused.lines, draft);
	}
	const { daily } = await limitsOf(ctx, itemIndex, undefined);
	if (draft.testmode || daily === undefined) return await confirmDraft(ctx, itemIndex, draft, 'test job or no daily limit');
	// A claim this process just made for this confirm takes its place in the line (confirmLine.ts).
	const claimedAt = turn?.claimedAt !== undefined && isOwnClaim(draft, limitKey) ? turn.claimedAt : undefined;
	const decided = confirmInLine({ ctx, itemIndex, draft, cost: cost!, daily, limitKey, why, rerun: plan.rerun, claimedAt, more: claimedAt === undefined ? undefined : turn?.more });
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
