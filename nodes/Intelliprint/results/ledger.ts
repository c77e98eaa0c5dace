import type { IExecuteFunctions } from 'n8n-workflow';

import { forgetJob } from './runAccount';

/**
 * What each item of a node run has created on Intelliprint (print jobs, backgrounds). A failure
 * later in the item, or in another item, must never lose these IDs: a user who reruns without them
 * would post the same letters again. Print jobs are told apart as drafts or confirmed (posted and
 * charged), and by whether a rerun finds them again (Skip Items Already Sent).
 */
export interface Created {
	id: string;
	/** Whether the print job is confirmed; undefined for what is not a print job. */
	confirmed?: boolean;
	/** Whether a rerun finds it by its key instead of creating it again. */
	keyed?: boolean;
}

const ledgers = new WeakMap<IExecuteFunctions, Map<number, Created[]>>();

export function recordCreated(ctx: IExecuteFunctions, itemIndex: number, id: string, state: Omit<Created, 'id'> = {}): void {
	let ledger = ledgers.get(ctx);
	if (!ledger) ledgers.set(ctx, (ledger = new Map()));
	ledger.set(itemIndex, [...(ledger.get(itemIndex) ?? []), { id, ...state }]);
}

/** A draft recorded earlier has been confirmed. */
export function recordConfirmed(ctx: IExecuteFunctions, id: string): void {
	for (const entries of ledgers.get(ctx)?.values() ?? []) {
		for (const entry of entries) if (entry.id === id) entry.confirmed = true;
	}
}

/** A draft deleted again before it was ever confirmed (the spending gate's, giving way): nothing of it is left. */
export function recordDeleted(ctx: IExecuteFunctions, id: string): void {
	const ledger = ledgers.get(ctx);
	for (const [item, entries] of ledger ?? []) ledger!.set(item, entries.filter((entry) => entry.id !== id));
	forgetJob(ctx, id);
}

export function createdBy(ctx: IExecuteFunctions, itemIndex: number): string[] {
	return (ledgers.get(ctx)?.get(itemIndex) ?? []).map((entry) => entry.id);
}

/** Every item that created something, in item order. */
export function allCreated(ctx: IExecuteFunctions): Array<[number, Created[]]> {
	return [...(ledgers.get(ctx) ?? new Map<number, Created[]>())].filter(([, made]) => made.length).sort(([a], [b]) => a - b);
}
