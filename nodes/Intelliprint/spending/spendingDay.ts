import type { IExecuteFunctions } from 'n8n-workflow';

import { connectionSettings, listPage, MAX_PAGE_SIZE, type ListPage } from '../transport';
import type { PrintJob } from '../results';
import { priceAfterTax } from '../values';
import { readAgainUntil } from './listingWait';

export { LISTING_WAIT_MS } from './listingWait';

const LONDON = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

function londonClock(at: number): { date: number; offset: number } {
	const parts = Object.fromEntries(LONDON.formatToParts(at).map((part) => [part.type, Number(part.value)]));
	const date = Date.UTC(parts.year, parts.month - 1, parts.day);
	// London is UTC or UTC+1: its wall clock read as UTC, less the instant, to the minute.
	return { date, offset: Math.round((date + (parts.hour * 60 + parts.minute) * 60_000 - at) / 60_000) * 60_000 };
}

/**
 * The start (Unix seconds) of the UK calendar day holding `now`: what "today" means for a daily limit. The
 * offset is the one in force at midnight, which on the days the clocks change is not the one in force now.
 */
export function ukMidnight(now = Date.now()): number {
	const { date, offset } = londonClock(now);
	return (date - londonClock(date - offset).offset) / 1000;
}

export interface Day {
	/** Cost after tax of the live jobs the key confirmed since UK midnight, as the API lists them. */
	total: number;
	ids: Set<string>;
}

/**
 * Today's confirmed live jobs as this process has read them, per credential: kept and advanced, so that a check
 * reads only the jobs confirmed since the last one (a page), not the whole day (20 pages at 20,000 confirms).
 */
interface Book {
	day: number;
	costs: Map<string, number>;
	/** The newest `confirmed_at` read: the next read goes back from it by LISTED_LATE_SECONDS. */
	newest: number;
	/** How many confirmed live jobs the list said it held at the last read: the check that nothing was missed. */
	listed?: number;
}
const books = new Map<string, Book>();

/**
 * How far before the newest confirm read a later read goes back: a confirm of another process listed late still
 * falls inside (the gate waits at most LISTING_WAIT_MS for its own, and clocks differ), and the list's count catches
 * any that does not.
 */
const LISTED_LATE_SECONDS = 90;

/** One read of the list, newest confirm first, back to `from` (Unix seconds); throws what the read threw. */
async function confirmedFrom(ctx: IExecuteFunctions, itemIndex: number, from: number): Promise<{ jobs: PrintJob[]; listed?: number }> {
	const jobs: PrintJob[] = [];
	const seen = new Set<string>();
	// The API contract's list-order, mode-filters, projection and counts (transport/contract.ts), checked on each page.
	const qs = { testmode: false, confirmed: true, sort_field: 'confirmed_at', sort_order: 'desc', fields: ['id', 'confirmed_at', 'cost', 'confirmed', 'testmode'] };
	let listed: number | undefined;
	let previous: ListPage<PrintJob> | undefined;
	for (let skip = 0; ; ) {
		const page: ListPage<PrintJob> = await listPage<PrintJob>(ctx, '/prints', { ...qs, limit: MAX_PAGE_SIZE, skip }, itemIndex, previous);
		previous = page;
		listed ??= typeof page.total_available === 'number' ? page.total_available : undefined;
		for (const job of page.data) {
			if (typeof job.confirmed_at !== 'number' || job.confirmed_at < from) return { jobs, listed };
			// A job confirmed while the pages are read shifts them: one seen twice is counted once.
			if (!seen.has(job.id)) jobs.push(job);
			seen.add(job.id);
		}
		if (!page.has_more || page.data.length === 0) return { jobs, listed };
		skip += page.data.length;
	}
}

/**
 * What the key confirmed live today (since `day`, UK midnight in Unix seconds): the process's book brought up to
 * date. A read that cannot account for every job the list added since the last one (a confirm listed later than
 * LISTED_LATE_SECONDS) reads the whole day again: what is unsure moves towards refusing, never towards confirming.
 */
export async function confirmedSince(ctx: IExecuteFunctions, itemIndex: number, day: number): Promise<Day> {
	const { limitKey } = await connectionSettings(ctx);
	let book = books.get(limitKey);
	if (book?.day !== day) book = undefined;
	const read = await confirmedFrom(ctx, itemIndex, book ? Math.max(day, book.newest - LISTED_LATE_SECONDS) : day);
	const fresh = book ? read.jobs.filter((job) => !book!.costs.has(job.id)).length : 0;
	if (book && (read.listed === undefined || book.listed === undefined || read.listed - book.listed !== fresh)) return await confirmedSince(ctx, itemIndex, forget(limitKey, day));
	book ??= { day, costs: new Map(), newest: day };
	for (const job of read.jobs) {
		// The API contract's price-on-jobs (transport/contract.ts).
		const cost = priceAfterTax(job);
		// Counted as £0, a job listed without its price would let the day pass its limit: the day is unknown instead.
		if (cost === undefined) {
			books.delete(limitKey);
			throw new Error(`Intelliprint listed print job ${job.id}, confirmed today, without a price that can be read`);
		}
		book.costs.set(job.id, cost);
		book.newest = Math.max(book.newest, job.confirmed_at as number);
	}
	book.listed = read.listed;
	books.set(limitKey, book);
	let total = 0;
	for (const cost of book.costs.values()) total += cost;
	return { total, ids: new Set(book.costs.keys()) };
}

/** Drops the book, so the next read is of the whole day. */
function forget(limitKey: string, day: number): number {
	books.delete(limitKey);
	return day;
}

/**
 * Today's list once it shows `ownLast` (this process's last confirm, when it was today): read again after
 * growing pauses until it does. Undefined when it still does not after LISTING_WAIT_MS.
 */
export async function dayShowing(ctx: IExecuteFunctions, itemIndex: number, since: number, ownLast: string | undefined): Promise<Day | undefined> {
	const shown = await readAgainUntil(async () => await confirmedSince(ctx, itemIndex, since), (day) => ownLast === undefined || day.ids.has(ownLast));
	return shown.enough ? shown.answer : undefined;
}
