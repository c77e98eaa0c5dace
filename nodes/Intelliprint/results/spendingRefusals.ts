import type { IExecuteFunctions, NodeError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { noteHeld } from './runAccount';
import type { PrintJob } from './output';
import { PER_POUND, pounds, priceAfterTax } from '../values';

/**
 * What the spending gate (spending/) tells a user on the item it refuses: what happened, what a rerun does with the
 * draft it held back, and what to do next. The gate decides; these are its words.
 */

/** What running the same item again does to a draft a limit held back: it tells the user what to do. */
export type Rerun = 'confirmsDraft' | 'createsAnother' | 'confirmsAgain';

export const NOTHING_CONFIRMED = 'Nothing was created or confirmed for this item.';

export const ADVICE: Record<Rerun, string> = {
	confirmsDraft: 'It stays a draft. Once the limit allows, run the workflow again: Skip Items Already Sent makes the rerun confirm this draft, not create another.',
	createsAnother:
		'It stays a draft: once the limit allows, confirm it with Print Job → Confirm (or by hand in Intelliprint), or delete it and run this item again. It was made without Skip Items Already Sent, so no rerun can find it: running the item again while it exists makes another draft.',
	confirmsAgain: 'It stays a draft. Once the limit allows, run this again to confirm it, or confirm it by hand in Intelliprint.',
};

export const letters = (job: PrintJob) => `${job.letters?.length ?? 0} letter${job.letters?.length === 1 ? '' : 's'}`;

/** The draft a limit held back, for the error item (errorItem.ts): what to confirm by hand, and what it costs. */
function nameHeld(error: NodeError, draft: PrintJob): number | undefined {
	const cost = priceAfterTax(draft);
	error.context.heldDraft = { id: draft.id, costGbp: cost === undefined ? null : cost / PER_POUND };
	return cost;
}

/** A refusal of the gate, on its item, naming the draft it held back if any. */
export function refusal(ctx: IExecuteFunctions, itemIndex: number, message: string, lines: string[], draft?: PrintJob): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), message, { itemIndex, description: lines.filter(Boolean).join(' ') });
	if (draft) noteHeld(ctx, draft);
	if (draft) nameHeld(error, draft);
	// A model cannot change a limit or a setting: it must not be told to call again. The refusal says what a rerun does.
	Object.assign(error.context, { adviceForModel: true, rerunAdvised: true });
	return error;
}

/**
 * What to do next for an item that sent nothing and left no draft, true for how it was made: a keyed run's rerun
 * sends only what was not sent, but a run without keys cannot tell, so it must not be run whole again.
 */
export function notSentAdvice(rerun: Rerun, when: string): string {
	if (rerun === 'confirmsDraft') return `Run the workflow again ${when}: with Skip Items Already Sent, the rerun sends only the items not sent.`;
	if (rerun === 'confirmsAgain') return `Run it again ${when}.`;
	return `This run has no Skip Items Already Sent key, so running the whole workflow again would post the letters it did send a second time: ${when}, run only the items that were not sent (with On Error → Continue (using error output) they come out on the error output).`;
}

/** Why a run makes no more drafts (spending/spendingRoom.ts): the day full (spent, limit, cheapest letter), or unreadable. */
export type Closed = { full?: { total: number; limit: number; letter: number }; unread?: string };

/** What `what` says on a closed day, full or unreadable; with a rerun, what to do next. */
export function closedRefusing(what: string, closed: Closed, rerun?: Rerun): Refusing {
	const { full, unread } = closed;
	const line = full
		? `Confirmed today (UK time): ${pounds(full.total)} of the daily limit of ${pounds(full.limit)}; what is left is less than one letter (${pounds(full.letter)}).`
		: `The credential has a daily spending limit, and checking it needs the list of today's confirmed print jobs: ${unread}`;
	const next = rerun && notSentAdvice(rerun, full ? 'tomorrow or once the limit is raised' : 'later');
	return { message: `${what}: ${full ? "today's spending cannot take another letter" : "today's spending could not be read"}`, lines: next ? [line, next] : [line] };
}

export function closedRefusal(ctx: IExecuteFunctions, itemIndex: number, closed: Closed, rerun: Rerun): NodeOperationError {
	const { message, lines } = closedRefusing('Nothing was sent for this item', closed, rerun);
	return refusal(ctx, itemIndex, message, lines);
}

/** A refusal's words, to which its draft's advice is added where the refusal is made (confirmLine.ts). */
export type Refusing = { message: string; lines: string[] };

export const overPerJob = (why: string, perJob: number, rerun: Rerun): Refusing => ({ message: `${why}: it costs more than "Confirm Only Up To" (${pounds(perJob)})`, lines: [ADVICE[rerun]] });

export const priceUnread = (why: string, draft: PrintJob): Refusing => ({
	message: `${why}: Intelliprint's answer did not give its price`,
	lines: [
		`${draft.cost === undefined ? 'The answer had no cost at all' : `The answer's cost was ${JSON.stringify(draft.cost)?.slice(0, 80)}`}, so it cannot be checked against the spending limit.`,
		'It stays a draft: check its price in Intelliprint, and confirm it by hand (in Intelliprint or with Print Job → Confirm) if it is right.',
	],
});

/** A keyed item refused before anything was made for it, whose key names a draft an earlier run left: named, on the error item too. */
export function namingEarlierDraft(error: NodeError, draft: PrintJob): NodeError {
	const cost = nameHeld(error, draft);
	error.description = `${error.description ?? ''} An earlier run holds draft ${draft.id} for this item (${letters(draft)}${cost === undefined ? '' : `, ${pounds(cost)} after tax`}, not confirmed): it stays a draft, and once the limit allows, a rerun confirms it rather than making another.`.trim();
	return error;
}

/** Claims ahead that neither moved nor were decided within `seconds`: the process that made them may have stopped. */
export const stuckClaims = (ids: string[], seconds: number) =>
	`drafts made earlier to be confirmed under this limit (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ' …' : ''}) were neither confirmed nor handed back within ${seconds} seconds: the n8n process that made them may have stopped`;

/** A confirm the daily limit refuses: why, and the day's figures (8 implied decimals). */
export const overTheLimit = (spent: number, cost: number, limit: number) => ({
	over: `it would take today's spending over the daily limit of ${pounds(limit)}`,
	lines: [`Confirmed today (UK time) so far: ${pounds(spent)}; with this job ${pounds(spent + cost)}. The limit is the Daily Spending Limit on the Intelliprint credential.`],
});

/** A job made confirmed under a run's allowance (spending/spendingRoom.ts) that did not fit what was left of it. */
export function overAllowance(id: string, cost: number | undefined, cancelled: boolean): string {
	const why = cost === undefined ? "Intelliprint's answer did not give its price" : `it cost ${pounds(cost)}, more than was left of what this run could spend under the daily limit`;
	return `Print job ${id} was made confirmed, but ${why}: ${cancelled ? 'it was cancelled at once, and its letters refunded' : 'cancelling it failed: cancel it now with Print Job → Cancel or Delete'}.`;
}

/** A claim that gives way to another process's draft of the same second (spending/confirmLine.ts verdictOf). */
export const sameSecond = (limit: number) => `a draft another n8n process made in the same second goes first, and both do not fit under the daily limit of ${pounds(limit)}`;
