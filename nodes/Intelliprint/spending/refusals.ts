import type { IExecuteFunctions, NodeError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PrintJob } from '../results';
import { noteHeld } from '../results';
import { fullDay, type Room } from './spendingRoom';
import { PER_POUND, pounds, priceAfterTax } from '../values';

/** What running the same item again does to a draft a limit held back: it tells the user what to do. */
export type Rerun = 'confirmsDraft' | 'createsAnother' | 'confirmsAgain';

export const NOTHING_CONFIRMED = 'Nothing was created or confirmed for this item.';

export const ADVICE: Record<Rerun, string> = {
	confirmsDraft: 'It stays a draft. Once the limit allows, run the workflow again: Skip Items Already Sent makes the rerun confirm this draft, not create another.',
	createsAnother:
		'It stays a draft: once the limit allows, confirm it by hand in Intelliprint or with Print Job → Confirm. Running this item again would create another draft (with Skip Items Already Sent on, a rerun confirms this one instead).',
	confirmsAgain: 'It stays a draft. Once the limit allows, run this again to confirm it, or confirm it by hand in Intelliprint.',
};

export const letters = (job: PrintJob) => `${job.letters?.length ?? 0} letter${job.letters?.length === 1 ? '' : 's'}`;

/** A refusal of the gate, on its item; with the draft it held back, named for the error item. */
export function refusal(ctx: IExecuteFunctions, itemIndex: number, message: string, lines: string[], draft?: PrintJob): NodeOperationError {
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

/**
 * What to do next for an item that sent nothing and left no draft, true for how it was made: a keyed run's rerun
 * sends only what was not sent, but a run without keys cannot tell, so it must not be run whole again.
 */
export function notSentAdvice(rerun: Rerun, when: string): string {
	if (rerun === 'confirmsDraft') return `Run the workflow again ${when}: with Skip Items Already Sent, the rerun sends only the items not sent.`;
	if (rerun === 'createsAnother') {
		return `This run has no Skip Items Already Sent key, so running the whole workflow again would post the letters it did send a second time: ${when}, run only the items that were not sent (with On Error → Continue (using error output) they come out on the error output).`;
	}
	return `Run it again ${when}.`;
}

/** The words of a full day's refusal: what was confirmed today, against the limit. */
export function fullLines(full: Room): string {
	return `Confirmed today (UK time): ${pounds(full.total)} of the daily limit of ${pounds(full.limit)}; what is left is less than one letter (${pounds(full.letter)}).`;
}

export function fullRefusal(ctx: IExecuteFunctions, itemIndex: number, what: string, full: Room, rerun: Rerun): NodeOperationError {
	return refusal(ctx, itemIndex, `${what}: today's spending cannot take another letter`, [fullLines(full), notSentAdvice(rerun, 'tomorrow or once the limit is raised')]);
}

/** The full day, once the day cannot take another letter (spendingRoom.ts), while the limit is the one that filled it. */
export function dayFull(ctx: IExecuteFunctions, daily: number): Room | undefined {
	return fullDay(ctx, Math.round(daily * PER_POUND));
}

/** Why a check could not read today's spending. */
export function unreadLine(why: string): string {
	return `The credential has a daily spending limit, and checking it needs the list of today's confirmed print jobs: ${why}`;
}

export function spendingUnreadable(ctx: IExecuteFunctions, itemIndex: number, what: string, why: string, rerun: Rerun): NodeOperationError {
	return refusal(ctx, itemIndex, `${what}: today's spending could not be read`, [unreadLine(why), notSentAdvice(rerun, 'later')]);
}

/** A refusal's words, to which its draft's advice is added where the refusal is made (confirmLine.ts). */
export interface Refusing {
	message: string;
	lines: string[];
}

/** A job that would take the day over the limit, with what was confirmed so far (amounts with 8 implied decimals). */
export function overLimit(why: string, limit: number, total: number, cost: number): Refusing {
	return {
		message: `${why}: it would take today's spending over the daily limit of ${pounds(limit)}`,
		lines: [`Confirmed today (UK time) so far: ${pounds(total)}; with this job ${pounds(total + cost)}. The limit is the Daily Spending Limit on the Intelliprint credential.`],
	};
}

/** Why a check gave up: other processes' claims, named, decided nothing for `waitMs`. */
export function stuckWhy(ids: string[], waitMs: number): string {
	return `drafts of other n8n processes (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ' …' : ''}) were neither confirmed nor handed back within ${waitMs / 1000} seconds`;
}

/**
 * A keyed item refused before anything was made for it, whose key names a draft an earlier run left (a limit held it
 * back): the refusal names that draft, on the error item too, so nobody makes it again by hand.
 */
export function namingEarlierDraft(error: NodeError, draft: PrintJob): NodeError {
	const cost = priceAfterTax(draft);
	error.description = `${error.description ?? ''} An earlier run holds draft ${draft.id} for this item (${letters(draft)}${cost === undefined ? '' : `, ${pounds(cost)} after tax`}, not confirmed): it stays a draft, and once the limit allows, a rerun confirms it rather than making another.`.trim();
	error.context.heldDraft = { id: draft.id, costGbp: cost === undefined ? null : cost / PER_POUND };
	return error;
}
