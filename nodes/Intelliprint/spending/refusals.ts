import type { IExecuteFunctions } from 'n8n-workflow';
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

export function fullRefusal(ctx: IExecuteFunctions, itemIndex: number, what: string, full: Room, draft?: PrintJob): NodeOperationError {
	return refusal(ctx, itemIndex, `${what}: today's spending cannot take another letter`, [
		`Confirmed today (UK time): ${pounds(full.total)} of the daily limit of ${pounds(full.limit)}; what is left is less than one letter (${pounds(full.letter)}).`,
		draft ? ADVICE.confirmsAgain : 'Run it again tomorrow or once the limit is raised: with Skip Items Already Sent on, the rerun sends only what was not sent.',
	], draft);
}

/** The refusal for an item once the day cannot take another letter (spendingRoom.ts), while the limit is the one that filled it. */
export function dayFull(ctx: IExecuteFunctions, daily: number): ((itemIndex: number, what: string, draft?: PrintJob) => NodeOperationError) | undefined {
	const full = fullDay(ctx, Math.round(daily * PER_POUND));
	return full && ((itemIndex, what, draft) => fullRefusal(ctx, itemIndex, what, full, draft));
}

export function spendingUnreadable(ctx: IExecuteFunctions, itemIndex: number, what: string, why: string, rerun: Rerun, draft?: PrintJob): NodeOperationError {
	return refusal(ctx, itemIndex, `${what}: today's spending could not be read`, [
		`The credential has a daily spending limit, and checking it needs the list of today's confirmed print jobs: ${why}`,
		draft ? ADVICE[rerun] : 'Run it again later.',
	], draft);
}
