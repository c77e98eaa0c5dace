import type { IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, EXPECT } from '../transport';
import type { PrintJob } from '../results';
import { before, claimsOf, claimsShowing, ownToken, reclaimedMetadata, releasedMetadata, type Place, type Undecided } from './claims';
import { LISTING_WAIT_MS } from './listingWait';
import { dayShowing } from './spendingDay';
import { updatePrintJob } from './updatePrintJob';

/**
 * Who goes first near the limit (docs/spending-limits.md, the four rules): one ask's verdict on a read, and the two
 * requests by which a claim steps aside and takes its place back. The line that applies them is confirmLine.ts.
 */

export type Verdict = 'confirm' | 'refuse' | 'wait' | 'yield';

/** What a check reads: the day, and the claims, with this process's own drafts' places in the line. */
export interface Read {
	day: number;
	/** Today's confirmed total, with the confirmed claims the day's list does not show yet. */
	spent: number;
	/** Other processes' claims that may still be confirmed. */
	undecided: Undecided[];
	/** How many other processes made claims in the last quarter hour. */
	rivals: number;
	places: Map<string, Place>;
}

/**
 * Today's confirmed total (once the list shows `own`, this process's last confirm made alone) and the claims (once
 * they show `drafts`, this process's claims about to be decided), leaving out `deciding`. Throws why not.
 */
export async function readTurn(ctx: IExecuteFunctions, itemIndex: number, limitKey: string, day: number, own: { id: string; unsure: boolean } | undefined, drafts: string[], deciding: string[]): Promise<Read> {
	if (own?.unsure) {
		// A confirm whose answer was lost: if the API did not act on it, there is nothing to wait for.
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${own.id}`, itemIndex });
		if (!job.confirmed) own = undefined;
	}
	const today = await dayShowing(ctx, itemIndex, day, own?.id);
	// Past the API contract's listing-delay (transport/contract.ts) the check fails closed.
	if (!today) throw new Error(`Intelliprint has not listed print job ${own!.id}, which this n8n confirmed, within ${LISTING_WAIT_MS / 1000} seconds, so today's total is not known`);
	const claims = await claimsShowing(ctx, itemIndex, limitKey, drafts);
	if (!claims) throw new Error(`Intelliprint has not listed the drafts this n8n made (${drafts.join(', ')}) within ${LISTING_WAIT_MS / 1000} seconds, so what other n8n processes are confirming is not known`);
	const places = new Map(deciding.map((id) => [id, { created: claims.get(id)?.created ?? Number.POSITIVE_INFINITY, token: ownToken(limitKey), id }]));
	const { spent, undecided, rivals } = claimsOf(claims, today.ids, new Set(deciding));
	return { day, spent: today.total + spent, undecided, rivals, places };
}

/** What a verdict reads of an ask: its cost and limit (8 implied decimals), and its claim's place, when it has one. */
export interface Asking {
	cost: number;
	limit: number;
	place?: Place;
}

/**
 * One ask's verdict on a read, with `total` what is spent or approved before it. Every other process's claim that may
 * still be confirmed counts against a confirm, so no two processes pass the limit together. Where only such claims
 * stand in the way, the line decides who goes: an ask that fits with the claims ahead of it waits for those behind it
 * to step aside, and one that does not steps aside (its claim is handed back until the claims ahead of it are
 * decided). A confirm made alone holds no place: it waits for every claim.
 */
export function verdictOf(ask: Asking, total: number, undecided: Undecided[]): { verdict: Verdict; ahead: Undecided[] } {
	const ahead = undecided.filter((claim) => !ask.place || before(claim, ask.place));
	const sum = (claims: Undecided[]) => claims.reduce((all, claim) => all + claim.cost, 0);
	if (total + sum(undecided) + ask.cost <= ask.limit) return { verdict: 'confirm', ahead };
	if (total + ask.cost > ask.limit) return { verdict: 'refuse', ahead };
	return { verdict: ask.place && total + sum(ahead) + ask.cost > ask.limit ? 'yield' : 'wait', ahead };
}

/** Hands a claim back while the claims ahead of it are decided; false when the hand-back itself failed. */
export async function stepAside(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob): Promise<boolean> {
	try {
		await updatePrintJob(ctx, draft.id, { metadata: releasedMetadata(draft) }, itemIndex, 'updated');
		return true;
	} catch {
		// Still a claim: others count it, and the ask waits as one that fits would.
		return false;
	}
}

/** Takes a claim handed back up again (it is checked on the next read, once listed as this process's again). */
export async function takeBack(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, limitKey: string): Promise<PrintJob | undefined> {
	try {
		return await updatePrintJob(ctx, draft.id, { metadata: reclaimedMetadata(draft, limitKey) }, itemIndex, 'updated');
	} catch {
		return undefined;
	}
}
