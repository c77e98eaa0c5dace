import { createHash, randomBytes } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { apiRequest, connectionSettings, EXPECT, listPage, MAX_PAGE_SIZE, type ListPage } from '../transport';
import type { PrintJob } from '../results';
import { priceAfterTax } from '../values';
import { MORE_METADATA, UNDER_METADATA, USED_METADATA } from './spendingRoom';

/**
 * What a check of the daily limit reads (docs/spending-limits.md): today's confirms, kept per process, and the claims
 * of the last quarter hour (by the API's clock), each once the list shows what this process wrote; past LISTING_WAIT_MS
 * nothing is confirmed (the API contract's listing-delay). A claim is a live draft made to be confirmed under the limit,
 * carrying CLAIM_METADATA (its process's token, one per credential) from the moment it is made, `released` once
 * refused; it is decided in the line only within CLAIM_CONFIRM_WINDOW_MS of being made, well inside the quarter hour.
 */
export const LISTING_WAIT_MS = 30_000;
export const CLAIM_METADATA = 'n8n_spend_claim';
export const CLAIM_CONFIRM_WINDOW_MS = 5 * 60_000;
const CLAIM_HORIZON_SECONDS = 15 * 60;
const RELEASED = 'released';
const PROCESS_TOKEN = randomBytes(6).toString('hex');
const ownToken = (limitKey: string) => createHash('sha256').update(`${PROCESS_TOKEN}\n${limitKey}`).digest('hex').slice(0, 12);
const metadataOf = (job: PrintJob) => (job.metadata as Record<string, string> | undefined) ?? {};
export const claimMetadata = (limitKey: string) => ({ [CLAIM_METADATA]: ownToken(limitKey) });
export const isOwnClaim = (job: PrintJob, limitKey: string) => metadataOf(job)[CLAIM_METADATA] === ownToken(limitKey);
export const releasedMetadata = (job: PrintJob) => ({ ...metadataOf(job), [CLAIM_METADATA]: RELEASED });

/** A claim's place in the line: made earlier first, then by token and ID (any fixed order will do). */
export type Place = { created: number; token: string; id: string };
export const before = (a: Place, b: Place) => a.created < b.created || (a.created === b.created && (a.token < b.token || (a.token === b.token && a.id < b.id)));

/** Reads again after growing pauses (0.2, 0.4 … 2 s) until `enough`, for at most LISTING_WAIT_MS. */
async function readAgainUntil<T>(read: () => Promise<T>, enough: (answer: T) => boolean): Promise<T | undefined> {
	const deadline = Date.now() + LISTING_WAIT_MS;
	for (let pause = 200; ; pause = Math.min(pause * 2, 2_000)) {
		const answer = await read();
		if (enough(answer)) return answer;
		if (Date.now() + pause > deadline) return undefined;
		await sleep(pause);
	}
}

/**
 * Live print jobs newest first by `qs`'s sort, while `within` holds: each once though pages shift, the first page's count,
 * and whether it changed. The contract's list-order, mode-filters, projection, counts, metadata-kept, price-on-jobs hold.
 */
async function listBack(ctx: IExecuteFunctions, itemIndex: number, qs: IDataObject, within: (job: PrintJob) => boolean) {
	const jobs = new Map<string, PrintJob>();
	let first: ListPage<PrintJob> | undefined;
	const read = (last: ListPage<PrintJob>) => ({ jobs, listed: first!.total_available as number | undefined, changed: last.total_available !== first!.total_available });
	for (let skip = 0, page: ListPage<PrintJob> | undefined; ; skip += page.data.length) {
		page = await listPage<PrintJob>(ctx, '/prints', { testmode: false, ...qs, sort_order: 'desc', limit: MAX_PAGE_SIZE, skip }, itemIndex, page);
		first ??= page;
		for (const job of page.data) {
			if (!within(job)) return read(page);
			jobs.set(job.id, job);
		}
		if (!page.has_more || page.data.length === 0) return read(page);
	}
}

/**
 * Today's confirms as this process has read them, per credential, kept and advanced: a check reads only what was
 * confirmed since the last one (back LISTED_LATE_SECONDS, for another process's confirm listed late), not the whole day
 * (20 pages at 20,000 confirms). A read that cannot account for every job the list added reads the whole day again.
 */
const books = new Map<string, { day: number; costs: Map<string, number>; newest: number; listed?: number }>();
const LISTED_LATE_SECONDS = 90;

async function confirmedSince(ctx: IExecuteFunctions, itemIndex: number, day: number): Promise<Map<string, number>> {
	const { limitKey } = await connectionSettings(ctx);
	const kept = books.get(limitKey);
	const book = kept?.day === day ? kept : { day, costs: new Map<string, number>(), newest: day };
	books.delete(limitKey);
	const from = Math.max(day, book.newest - LISTED_LATE_SECONDS);
	const fields = ['id', 'confirmed_at', 'cost', 'confirmed', 'testmode'];
	const read = await listBack(ctx, itemIndex, { confirmed: true, sort_field: 'confirmed_at', fields }, (job) => typeof job.confirmed_at === 'number' && job.confirmed_at >= from);
	const added = [...read.jobs.keys()].filter((id) => !book.costs.has(id)).length;
	if (book === kept && (typeof read.listed !== 'number' || book.listed === undefined || read.listed - book.listed !== added)) return await confirmedSince(ctx, itemIndex, day);
	for (const job of read.jobs.values()) {
		// Counted as £0, a job listed without its price would let the day pass its limit: the day is unknown instead.
		const cost = priceAfterTax(job);
		if (cost === undefined) throw new Error(`Intelliprint listed print job ${job.id}, confirmed today, without a price that can be read`);
		book.costs.set(job.id, cost);
		book.newest = Math.max(book.newest, job.confirmed_at as number);
	}
	books.set(limitKey, { ...book, listed: read.listed });
	return book.costs;
}

/** Every claim of the horizon; read again (three times at most) when the list's count changed (a hidden claim). */
type Claim = Place & { cost?: number; isConfirmed: boolean; more: number; used?: number; under?: string };
async function readClaims(ctx: IExecuteFunctions, itemIndex: number, attempts = 3): Promise<Claim[]> {
	// A job without a time cannot be placed: it counts as the newest. The horizon runs back from the newest job listed.
	const createdOf = (job: PrintJob) => (typeof job.created === 'number' ? job.created : Number.POSITIVE_INFINITY);
	let horizon: number | undefined;
	const within = (job: PrintJob) => {
		horizon ??= Number.isFinite(createdOf(job)) ? createdOf(job) - CLAIM_HORIZON_SECONDS : undefined;
		return horizon === undefined || createdOf(job) >= horizon;
	};
	const fields = ['id', 'created', 'confirmed', 'cost', 'metadata', 'testmode'];
	const read = await listBack(ctx, itemIndex, { sort_field: 'created', fields }, within);
	if (read.changed && attempts > 1) return await readClaims(ctx, itemIndex, attempts - 1);
	if (read.changed) throw new Error("Intelliprint's list of the last quarter hour's print jobs kept changing while it was read");
	return [...read.jobs.values()].flatMap((job) => {
		const { [CLAIM_METADATA]: token, [MORE_METADATA]: more, [USED_METADATA]: used, [UNDER_METADATA]: under } = metadataOf(job);
		const claim = { id: job.id, created: createdOf(job), token, cost: priceAfterTax(job), isConfirmed: job.confirmed === true, more: Number(more) || 0, under };
		return typeof token === 'string' ? [{ ...claim, used: used === undefined ? undefined : Number(used) }] : [];
	});
}

/** What a check reads: today's total; every claim that may still be confirmed (but those it decides now, whose places it gets). */
export type Read = { spent: number; undecided: Array<Place & { cost: number; allowance?: boolean }>; places: Map<string, Place> };

/**
 * Reads the day once it shows `own` (this process's confirms) and the claims once they show `deciding`'s `drafts` as
 * this process's: so of two checks, the later sees the earlier's claims (the contract's listing-delay). Throws why not.
 */
export async function readDayAndClaims(ctx: IExecuteFunctions, itemIndex: number, limitKey: string, day: number, own: { id: string; unsure: boolean }[], drafts: string[], deciding: string[]): Promise<Read> {
	const shown: string[] = [];
	for (const { id, unsure } of own) {
		// A confirm whose answer was lost: if the API did not act on it, there is nothing to wait for.
		if (!unsure || (await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex })).confirmed) shown.push(id);
	}
	const today = await readAgainUntil(async () => await confirmedSince(ctx, itemIndex, day), (costs) => shown.every((id) => costs.has(id)));
	if (!today) throw new Error(`Intelliprint has not listed print jobs ${shown.join(', ')}, which this n8n confirmed, within ${LISTING_WAIT_MS / 1000} seconds, so today's total is not known`);
	const token = ownToken(limitKey);
	const claims = await readAgainUntil(async () => await readClaims(ctx, itemIndex), (listed) => drafts.every((id) => listed.some((claim) => claim.id === id && claim.token === token)));
	if (!claims) throw new Error(`Intelliprint has not listed the drafts this n8n made (${drafts.join(', ')}) within ${LISTING_WAIT_MS / 1000} seconds, so what other n8n processes are confirming is not known`);
	const read: Read = { spent: [...today.values()].reduce((sum, cost) => sum + cost, 0), undecided: [], places: new Map() };
	const underUsed = new Map<string, number>();
	for (const { under, cost } of claims) if (under !== undefined) underUsed.set(under, (underUsed.get(under) ?? 0) + (cost ?? 0));
	for (const claim of claims) {
		if (deciding.includes(claim.id)) read.places.set(claim.id, claim);
		// Handed back or without a price: never confirmed in the line. Listed in the day: counted there.
		if (claim.cost === undefined || (claim.token === RELEASED && !claim.isConfirmed) || deciding.includes(claim.id)) continue;
		// An allowance (allowance.ts) counts what its jobs may still spend, or spent and no list shows yet.
		const allowance = Math.max(0, (claim.used ?? claim.more * claim.cost) - (underUsed.get(claim.id) ?? 0));
		// A job of an allowance was made confirmed, whatever a list late to show confirms says.
		if (claim.isConfirmed || today.has(claim.id) || claim.under !== undefined) read.spent += (today.has(claim.id) ? 0 : claim.cost) + allowance;
		else read.undecided.push({ id: claim.id, created: claim.created, token: claim.token, cost: claim.cost + allowance, allowance: allowance > 0 });
	}
	return read;
}
