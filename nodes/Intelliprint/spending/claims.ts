import { createHash, randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listPage, MAX_PAGE_SIZE, type ListPage } from '../transport';
import type { PrintJob } from '../results';
import { priceAfterTax } from '../values';
import { readAgainUntil } from './listingWait';

/**
 * Claims: how one read of today's spending serves several confirms without letting processes pass the limit
 * together. A draft made to be confirmed under the daily limit carries CLAIM_METADATA (the process's token) and is
 * a claim on the day from the moment it is made. Before a process decides on a batch of its drafts, it reads every
 * live job created in the last CLAIM_HORIZON_SECONDS and waits until its own batch shows there. So of any two
 * decisions, the one read later sees the other's drafts, and counts them whether they are confirmed yet or not:
 * batches never overlap unseen. A claim is confirmed on its batch's read only within CLAIM_CONFIRM_WINDOW_MS of
 * being made, well inside the horizon every later reader counts back; past it, it goes through a read of its own.
 */

/** The metadata entry that marks a draft as a claim on today's spending; its value is the process's token. */
export const CLAIM_METADATA = 'n8n_spend_claim';

/** This n8n process's claims carry its token: its own are told from other processes'. */
const PROCESS_TOKEN = randomBytes(6).toString('hex');

/** Per credential fingerprint too: a process keeps each credential's day apart, as another process would. */
function tokenFor(limitKey: string): string {
	return createHash('sha256').update(`${PROCESS_TOKEN}\n${limitKey}`).digest('hex').slice(0, 12);
}

/** How far back from the newest job listed a read counts claims: the API's clock, so hosts' clocks do not matter. */
const CLAIM_HORIZON_SECONDS = 15 * 60;

/** How long after it was asked for a claim may be confirmed on its batch's read. */
export const CLAIM_CONFIRM_WINDOW_MS = 5 * 60_000;

/** The metadata a claim carries. */
/** This process's token for a credential. */
export function ownToken(limitKey: string): string {
	return tokenFor(limitKey);
}

export function claimMetadata(limitKey: string): Record<string, string> {
	return { [CLAIM_METADATA]: tokenFor(limitKey) };
}

/** Whether a job is a claim this process made. */
export function isOwnClaim(job: PrintJob, limitKey: string): boolean {
	return (job.metadata as IDataObject | undefined)?.[CLAIM_METADATA] === tokenFor(limitKey);
}

/**
 * This process's own claims that it confirmed (or may have: the answer was lost), with when: the only own claims
 * a read counts. Its drafts not yet decided are its own batch's, and those it refused will not be confirmed on a
 * claim's read (a rerun confirms them through a read of their own, which finds them in the day once listed).
 */
const ownCounted = new Map<string, number>();

export function countOwnClaim(id: string): void {
	const now = Date.now();
	for (const [known, at] of ownCounted) if (now - at > 2 * CLAIM_HORIZON_SECONDS * 1000) ownCounted.delete(known);
	ownCounted.set(id, now);
}

/** A claim as a read lists it. Amounts have 8 implied decimals. */
export interface Claim {
	/** Cost after tax; undefined when the list gave none (the gate never confirms such a job). */
	cost?: number;
	created: number;
	isConfirmed: boolean;
	/** Refused by its process and handed back (releaseClaim): it will not be confirmed on a claim's read. */
	released: boolean;
	/** This process's own claim, not (yet) confirmed by it: its own batch's, or one it refused. */
	ownUndecided: boolean;
	/** This process's own claim that it confirmed (or may have: the answer was lost). */
	ownConfirmed: boolean;
	/** The process (and credential) that made it. */
	token: string;
}

/** The claims of the horizon, by job ID. */
export type Claims = Map<string, Claim>;

/** The value a released claim carries instead of a token. */
const RELEASED = 'released';

/**
 * Every claim created within the horizon, newest first. A list that changes its count between pages is read again:
 * a job deleted meanwhile shifts the pages and could hide a claim.
 */
async function readClaims(ctx: IExecuteFunctions, itemIndex: number, limitKey: string, attempts = 3): Promise<Claims> {
	const own = tokenFor(limitKey);
	const claims: Claims = new Map();
	let horizon: number | undefined;
	let listed: number | undefined;
	let previous: ListPage<PrintJob> | undefined;
	for (let skip = 0; ; ) {
		// The API contract's list-order, mode-filters, projection, counts, metadata-kept and price-on-jobs (transport/contract.ts).
		const page: ListPage<PrintJob> = await listPage<PrintJob>(
			ctx,
			'/prints',
			{ testmode: false, sort_field: 'created', sort_order: 'desc', fields: ['id', 'created', 'confirmed', 'cost', 'metadata', 'testmode'], limit: MAX_PAGE_SIZE, skip },
			itemIndex,
			previous,
		);
		previous = page;
		if (listed !== undefined && page.total_available !== listed) {
			if (attempts > 1) return await readClaims(ctx, itemIndex, limitKey, attempts - 1);
			throw new Error("Intelliprint's list of the last quarter hour's print jobs kept changing while it was read");
		}
		listed = page.total_available;
		for (const job of page.data) {
			const created = typeof job.created === 'number' ? job.created : undefined;
			if (created !== undefined) {
				horizon ??= created - CLAIM_HORIZON_SECONDS;
				if (created < horizon) return claims;
			}
			const token = (job.metadata as IDataObject | undefined)?.[CLAIM_METADATA];
			if (typeof token !== 'string') continue;
			claims.set(job.id, {
				cost: priceAfterTax(job),
				// A job without a time cannot be placed: it counts as the newest.
				created: created ?? Number.POSITIVE_INFINITY,
				isConfirmed: job.confirmed === true,
				released: token === RELEASED && job.confirmed !== true,
				ownUndecided: token === own && !ownCounted.has(job.id),
				ownConfirmed: token === own && ownCounted.has(job.id),
				token,
			});
		}
		if (!page.has_more || page.data.length === 0) return claims;
		skip += page.data.length;
	}
}

/**
 * The claims of the horizon once they show `own` (the drafts about to be decided) as this process's claims: read again
 * after growing pauses until they do (a claim taken back after a yield shows its token again only once listed).
 * Undefined when they still do not after LISTING_WAIT_MS.
 */
export async function claimsShowing(ctx: IExecuteFunctions, itemIndex: number, limitKey: string, own: string[]): Promise<Claims | undefined> {
	const token = tokenFor(limitKey);
	const shown = await readAgainUntil(async () => await readClaims(ctx, itemIndex, limitKey), (claims) => own.every((id) => claims.get(id)?.token === token));
	return shown.enough ? shown.answer : undefined;
}

/** A claim's place in the line: made earlier first, then (in the same second) by token and ID. Any fixed order will do. */
export interface Place {
	created: number;
	token: string;
	id: string;
}
export const before = (a: Place, b: Place) => a.created < b.created || (a.created === b.created && (a.token < b.token || (a.token === b.token && a.id < b.id)));

/** Another process's claim that is neither confirmed nor handed back: it may still be confirmed. */
export interface Undecided extends Place {
	cost: number;
}

/**
 * What the claims add to today's confirmed total (`inDay`): `spent`, the confirmed claims the day's list does not show
 * yet (this process's own only those it confirmed), and `undecided`, every other process's claim that may still be
 * confirmed. Claims being decided (`deciding`), released ones and ones without a price are left out: none of those is
 * confirmed on a claim's check.
 */
export function claimsOf(claims: Claims, inDay: Set<string>, deciding: Set<string>): { spent: number; undecided: Undecided[]; rivals: number } {
	let spent = 0;
	const undecided: Undecided[] = [];
	// Processes with claims of the horizon, decided or not: the ones drafting for the same day.
	const rivals = new Set<string>();
	for (const [id, claim] of claims) {
		if (!claim.ownUndecided && !claim.ownConfirmed && claim.token !== RELEASED) rivals.add(claim.token);
		if (claim.cost === undefined || claim.released || claim.ownUndecided || inDay.has(id) || deciding.has(id)) continue;
		if (claim.isConfirmed || claim.ownConfirmed) spent += claim.cost;
		else undecided.push({ id, created: claim.created, token: claim.token, cost: claim.cost });
	}
	return { spent, undecided, rivals: rivals.size };
}

/** The metadata that takes a handed-back claim up again, as this process's. */
export function reclaimedMetadata(job: PrintJob, limitKey: string): Record<string, string> {
	return { ...((job.metadata as Record<string, string> | undefined) ?? {}), [CLAIM_METADATA]: tokenFor(limitKey) };
}

/** Hands back a claim its process refused, so that other processes stop counting it (their wait ends at once). */
export function releasedMetadata(job: PrintJob): Record<string, string> {
	return { ...((job.metadata as Record<string, string> | undefined) ?? {}), [CLAIM_METADATA]: RELEASED };
}
