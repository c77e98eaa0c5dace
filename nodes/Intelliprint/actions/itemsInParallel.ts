import type { IExecuteFunctions } from 'n8n-workflow';

import { connectionSettings } from '../transport';

/** More items in flight than this gains nothing: the rate limit, not the wire, sets the pace. */
const MAX_PARALLEL_ITEMS = 100;

/**
 * How many of a run's items go at once (Options → Items in Parallel): the router runs them so, and a print job under a
 * daily limit asks an allowance only when others of its run can use it beside it (spending/spendingRoom.ts).
 */
export async function itemsInParallel(ctx: IExecuteFunctions, itemCount: number): Promise<number> {
	if (itemCount <= 1) return 1;
	const chosen = Number(ctx.getNodeParameter('options.parallelItems', 0, 0));
	if (Number.isInteger(chosen) && chosen >= 1) return Math.min(chosen, MAX_PARALLEL_ITEMS, itemCount);
	// Automatic: as many as the credential's rate budget lets start at once; pacing does the rest.
	const { limit } = await connectionSettings(ctx);
	return Math.min(limit.requests, MAX_PARALLEL_ITEMS, itemCount);
}
