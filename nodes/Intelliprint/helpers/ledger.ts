import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * What each item of a node run has created on Intelliprint (print jobs, backgrounds). A failure
 * later in the item, or in another item, must never lose these IDs: a user who reruns without them
 * would post the same letters again.
 */
const ledgers = new WeakMap<IExecuteFunctions, Map<number, string[]>>();

export function recordCreated(ctx: IExecuteFunctions, itemIndex: number, id: string): void {
	let ledger = ledgers.get(ctx);
	if (!ledger) ledgers.set(ctx, (ledger = new Map()));
	ledger.set(itemIndex, [...(ledger.get(itemIndex) ?? []), id]);
}

export function createdBy(ctx: IExecuteFunctions, itemIndex: number): string[] {
	return ledgers.get(ctx)?.get(itemIndex) ?? [];
}

/** Every item that created something, in item order. */
export function allCreated(ctx: IExecuteFunctions): Array<[number, string[]]> {
	return [...(ledgers.get(ctx) ?? new Map<number, string[]>())].sort(([a], [b]) => a - b);
}
