import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { PrintJob } from '../Intelliprint/results/output';
import { contractError, listPage, MAX_PAGE_SIZE, type Breach, type ListPage } from '../Intelliprint/transport';

/** What a poll that stops on an answer it cannot trust leaves undone, for its messages. */
export const OUTCOME = 'nothing was emitted and the poll state was left as it was, so the next poll reads the same letters again';

/** A hard stop, as Return All has: pages of 1,000 jobs inside one window are more than any account lists. */
const MAX_PAGES = 500;
/** Times a read steps back over jobs that left the list between its pages, before the poll gives up. */
const MAX_STEP_BACKS = 6;

/** The letter fields an item is made of: what letterJson shows simplified, the address letterRow matches rows by, and `returned`. */
const LETTER_FIELDS = ['id', 'status', 'address', 'pages', 'sheets', 'postage_service', 'envelope', 'tracking_number', 'shipped_date', 'cost', 'returned'];
/** Every letter the API lists has these (`returned` only where it came back; the returned read checks it there). */
const REQUIRED_LETTER_FIELDS = LETTER_FIELDS.filter((field) => field !== 'returned');

/**
 * The `fields[]` a read asks for: the job's ID, reference, mode and metadata (the item, its rows), `created` (the
 * look-back's order), and its letters' fields an item shows; whole letters when Simplify is off (the item is then the
 * letter as the API sent it). A job's other fields (its settings, its cost) are most of its size and no item shows them.
 */
export function projection(simplify: boolean): string[] {
	return ['id', 'reference', 'testmode', 'created', 'metadata', ...(simplify ? LETTER_FIELDS.map((field) => `letters.${field}`) : ['letters'])];
}

export interface ReadDown {
	/** Filters, projection and `sort_field`; the order is always newest first. */
	qs: IDataObject;
	/** The value the list is sorted on, as the API reads it from a job; undefined where the job has none. */
	keyOf: (job: PrintJob) => number | undefined;
	/** Where the read ends, given the first (highest) value read: the first job below it ends the read. */
	floorFrom: (newest: number) => number;
	/** The first page's size: about what the same read needed last time. Each later page is four times the one before, up to the largest the API serves. */
	firstPage: number;
	/** Stop after this many pages however far they reached (a sample). */
	pageBudget?: number;
	/** Why a job without a sort value cannot be placed, for the message. */
	unplaced: (job: PrintJob) => string;
}

export interface ReadResult {
	/** The jobs at or above the floor, newest first. */
	jobs: PrintJob[];
	/** The highest sort value read (the first job's); undefined when the list was empty. */
	newest?: number;
	/** How many jobs the answers held before the read ended: what the next first page asks for. */
	listed: number;
}

const listError = (ctx: IPollFunctions, breach: Breach) => contractError(ctx, "Intelliprint's list at /prints", breach, undefined, OUTCOME);

/** The letters of a job, each carrying the fields asked for: an item made without them would be wrong, not short. */
function lettersOrThrow(ctx: IPollFunctions, job: PrintJob): void {
	const letters: unknown = job.letters;
	const lacking = !Array.isArray(letters)
		? 'its letters'
		: letters
				.map((letter: unknown) => (typeof letter === 'object' && letter !== null ? REQUIRED_LETTER_FIELDS.find((field) => !(field in letter)) : 'a letter'))
				.find((field) => field !== undefined);
	if (lacking === undefined) return;
	const detail = `the list was asked for each letter's ${REQUIRED_LETTER_FIELDS.join(', ')}, but print job ${job.id} came without ${lacking === 'its letters' || lacking === 'a letter' ? lacking : `a letter's ${lacking}`}`;
	throw listError(ctx, { assumption: 'projection', detail });
}

const stopped = (ctx: IPollFunctions, message: string, description: string) =>
	new NodeApiError(ctx.getNode(), {}, { message, description: `${description} Nothing was emitted; the next poll tries again.` });

/**
 * Reads `/prints` newest first on `sort_field`, page by page, until the first job whose sort value is below the floor:
 * a read costs what lies above the floor, not the account. Pages grow from about what the read needed last time, so a
 * burst costs a few more pages, not the largest ones at once. Every answer is held to the API contract (the door's
 * checks, plus the order of the sort value and the letters' fields asked for); one that breaks it stops the poll with a
 * message rather than letting a letter be missed or shown wrong.
 */
export async function readDown(ctx: IPollFunctions, read: ReadDown): Promise<ReadResult> {
	const jobs: PrintJob[] = [];
	const ids = new Set<string>();
	let newest: number | undefined;
	let floor: number | undefined;
	let last: { id: string; key: number } | undefined;
	let previous: ListPage<PrintJob> | undefined;
	let [skip, limit, stepBacks] = [0, read.firstPage, 0];
	for (let pages = 1; ; pages++) {
		// The API contract's projection, counts, mode-filters and (on numbers at the top of a job) list-order, on each page.
		const page = await listPage<PrintJob>(ctx, '/prints', { ...read.qs, sort_order: 'desc', limit, skip }, undefined, previous);
		// A later page starts one job early, on a job already read: the last one, or one before it when jobs came in on
		// top. A job not read yet there means some above it left the list, and the jobs below moved up past the start of
		// the page: one of them could go unseen. Stepping back until the page starts on a job read closes the gap.
		if (skip > 0 && page.data.length > 0 && !ids.has(String(page.data[0]?.id))) {
			if (++stepBacks > MAX_STEP_BACKS) throw stopped(ctx, "Intelliprint's list of print jobs kept changing while the trigger read it", `Print jobs left the list between its pages ${MAX_STEP_BACKS} times, so a letter could have been skipped.`);
			skip = Math.max(0, skip - 20 * 4 ** stepBacks);
			// This page does not follow the one before it: the order across pages is judged from the next one on.
			previous = undefined;
			continue;
		}
		let fresh = 0;
		for (const job of page.data) {
			const id = String(job?.id);
			if (ids.has(id)) continue;
			ids.add(id);
			fresh++;
			lettersOrThrow(ctx, job);
			const key = read.keyOf(job);
			if (key === undefined) throw stopped(ctx, `Intelliprint listed print job ${id} without the value it was sorted on`, read.unplaced(job));
			// The list-order of a value inside the letters (a return date): the door's own check sees only a job's top level.
			if (last && key > last.key) {
				// The contract's returned-date for a list sorted on it, list-order for the others.
				const assumption = read.qs.sort_field === 'letters.returned.date' ? 'returned-date' : 'list-order';
				throw listError(ctx, { assumption, detail: `the list was asked for the highest ${String(read.qs.sort_field)} first, but ${last.id} (${last.key}) came before ${id} (${key})` });
			}
			last = { id, key };
			newest ??= key;
			floor ??= read.floorFrom(key);
			if (key < floor) return { jobs, newest, listed: ids.size };
			jobs.push(job);
		}
		if (!page.has_more || pages >= (read.pageBudget ?? Number.POSITIVE_INFINITY)) return { jobs, newest, listed: ids.size };
		if (fresh === 0 && previous !== undefined) {
			throw stopped(ctx, "Intelliprint's list at /prints says it has more, but its next page brought nothing new", `After ${jobs.length} print jobs the list repeated itself or came back empty (the API contract's "paging").`);
		}
		if (pages >= MAX_PAGES) {
			throw stopped(ctx, `Intelliprint's list at /prints goes on past ${MAX_PAGES} pages inside the window watched`, 'The trigger stopped to keep memory bounded: shorten Look Back (Days), or watch fewer statuses.');
		}
		previous = page;
		skip += page.data.length - 1;
		limit = Math.min(MAX_PAGE_SIZE, limit * 4);
	}
}
