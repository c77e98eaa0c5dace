import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Letter, PrintJob } from '../Intelliprint/results/output';
import { MAX_PAGE_SIZE } from '../Intelliprint/transport';
import { OUTCOME, projection, readDown } from './readDown';

const DAY = 86_400;

/**
 * How far below the newest return date already read a later poll reads returned letters. A return is booked by the
 * print house, maybe a day late and maybe dated to the day, and the list shows it later still (a cache, a replica):
 * a letter listed after the last poll can carry a date before the newest one that poll read. Two days of returns are
 * read again each poll (their letters are remembered, so none is emitted twice).
 */
export const RETURN_MARGIN_SECONDS = 2 * DAY;

/** A letter in a watched status, with its print job (metadata and letters, for its rows). */
export interface Found {
	letter: Letter;
	job: PrintJob;
	status: string;
}

export interface Watch {
	statuses: string[];
	testmode: boolean;
	simplify: boolean;
	/** The start of the look-back (Unix seconds): jobs created since are read whole. */
	since: number;
	now: number;
	/** A first poll (or a change of what is watched): what is there now is history. */
	first: boolean;
	emitExisting: boolean;
	/** Manual mode: one page of each read is enough for a sample. */
	sample: boolean;
	/** Letter ID → the watched status it was in at the last poll, for letters inside the windows read then. */
	previous: Map<string, string>;
	newestReturn?: number;
	/** How many jobs each read listed last time. */
	pageHints: Record<string, number>;
}

export interface Watched {
	/** Letters newly in a watched status (or, on a first poll that emits them, already in one): emitted. */
	arrived: Found[];
	/** Letters in a watched status inside the windows the next poll reads: remembered. */
	keep: Found[];
	newestReturn?: number;
	pageHints: Record<string, number>;
	/** A sample for manual mode: the first letter found, whatever was seen before. */
	sample?: Found;
}

const returnDate = (letter: Letter): number | undefined => {
	const date = (letter.returned as IDataObject | null | undefined)?.date;
	return typeof date === 'number' ? date : undefined;
};

/** What `sort_field=letters.returned.date` sorts a job on, newest first: its letters' newest return date. */
const newestReturnOf = (job: PrintJob): number | undefined =>
	(job.letters ?? []).reduce<number | undefined>((newest, letter) => {
		const date = returnDate(letter);
		return date !== undefined && (newest === undefined || date > newest) ? date : newest;
	}, undefined);

/** The first page to ask for: what the read listed last time and a quarter more, or 100 the first time. */
const firstPage = (hint: number | undefined) => (hint === undefined ? 100 : Math.min(MAX_PAGE_SIZE, Math.max(10, Math.ceil(hint * 1.25) + 10)));

const noDate = (ctx: IPollFunctions, job: PrintJob, letter: Letter) =>
	new NodeApiError(ctx.getNode(), {}, {
		message: `Intelliprint listed letter ${letter.id} (print job ${job.id}) as returned without a return date`,
		description:
			`The trigger finds returned letters by the date they came back, reading only what is newer than the last poll, so it cannot tell whether one without a date is new: ${OUTCOME}. ` +
			'To watch returned letters all the same, use the Intelliprint Trigger (webhooks) and take Returned out of Statuses here. (The API contract\'s returned-date: `npm run check:api` checks it on your account.)',
	});

/**
 * Returned letters, newest return first, down to the newest return date the last poll read less the margin: a poll
 * reads the returns booked since, not the account's history of them. Statuses have no date of their own; a return
 * has one, and the API sorts on it.
 */
async function readReturned(ctx: IPollFunctions, watch: Watch, into: Watched): Promise<void> {
	const bound = (newest: number) => Math.min(newest, watch.now) - RETURN_MARGIN_SECONDS;
	// Later polls read to the last poll's bound; a first one to its own newest, or the look-back when it emits them.
	const floorFrom = watch.sample
		? () => Number.NEGATIVE_INFINITY
		: watch.first
			? (newest: number) => (watch.emitExisting ? Math.min(watch.since, bound(newest)) : bound(newest))
			: () => (watch.newestReturn === undefined ? watch.since : bound(watch.newestReturn));
	const read = await readDown(ctx, {
		qs: { testmode: watch.testmode, 'letters.status': 'returned', sort_field: 'letters.returned.date', fields: projection(watch.simplify) },
		keyOf: newestReturnOf,
		floorFrom,
		firstPage: watch.sample ? 10 : firstPage(watch.pageHints.returned),
		pageBudget: watch.sample ? 1 : undefined,
		unplaced: (job) => `Print job ${job.id} was listed among those with a returned letter, but none of its letters has a return date, which the trigger finds returned letters by.`,
	});
	into.pageHints.returned = read.listed;
	// A date past tomorrow is not a Unix time in seconds as the API's are (milliseconds, say): read down to it less
	// two days, every return would stay above the floor, and each poll would read them all again.
	if (read.newest !== undefined && read.newest > watch.now + DAY) {
		throw new NodeApiError(ctx.getNode(), {}, {
			message: `Intelliprint listed a return date in the future (${read.newest}, while the time is ${watch.now})`,
			description: `The trigger reads returned letters down to the newest return date less two days, which needs return dates in Unix seconds (the API contract's returned-date): ${OUTCOME}.`,
		});
	}
	const newestReturn = read.newest === undefined ? watch.newestReturn : Math.min(watch.now, Math.max(read.newest, watch.newestReturn ?? read.newest));
	into.newestReturn = newestReturn;
	const floor = read.newest === undefined ? Number.POSITIVE_INFINITY : floorFrom(read.newest);
	const keepFrom = newestReturn === undefined ? Number.POSITIVE_INFINITY : bound(newestReturn);
	for (const job of read.jobs) {
		for (const letter of job.letters ?? []) {
			if (letter.status !== 'returned') continue;
			const date = returnDate(letter);
			if (date === undefined) throw noDate(ctx, job, letter);
			const found = { letter, job, status: 'returned' };
			into.sample ??= found;
			// A letter of this job that came back before the floor was read (and remembered) by an earlier poll.
			if (date < floor) continue;
			if (date >= keepFrom) into.keep.push(found);
			const emits = watch.first ? watch.emitExisting && date >= watch.since : watch.previous.get(letter.id) !== 'returned';
			if (emits) into.arrived.push(found);
		}
	}
}

/**
 * Letters in the other statuses watched, in print jobs created within the look-back, newest job first: these statuses
 * carry no date, so each poll reads the window whole (filtered to jobs with such a letter, and trimmed to what an item
 * shows) and compares.
 */
async function readRecent(ctx: IPollFunctions, watch: Watch, statuses: string[], into: Watched): Promise<void> {
	const read = await readDown(ctx, {
		qs: { testmode: watch.testmode, 'letters.status': statuses.join(','), sort_field: 'created', fields: projection(watch.simplify) },
		keyOf: (job) => (typeof job.created === 'number' ? job.created : undefined),
		floorFrom: () => (watch.sample ? Number.NEGATIVE_INFINITY : watch.since),
		firstPage: watch.sample ? 10 : firstPage(watch.pageHints.recent),
		pageBudget: watch.sample ? 1 : undefined,
		unplaced: (job) => `Print job ${job.id} came without the time it was created, so the trigger cannot tell whether it is inside Look Back (Days).`,
	});
	into.pageHints.recent = read.listed;
	for (const job of read.jobs) {
		for (const letter of job.letters ?? []) {
			const status = letter.status ?? '';
			if (!statuses.includes(status)) continue;
			const found = { letter, job, status };
			into.sample ??= found;
			into.keep.push(found);
			const emits = watch.first ? watch.emitExisting : watch.previous.get(letter.id) !== status;
			if (emits) into.arrived.push(found);
		}
	}
}

/** What the statuses watched hold now: returned letters by their return date, the others by their job's look-back. */
export async function watchLetters(ctx: IPollFunctions, watch: Watch): Promise<Watched> {
	const watched: Watched = { arrived: [], keep: [], newestReturn: watch.newestReturn, pageHints: {} };
	if (watch.statuses.includes('returned')) await readReturned(ctx, watch, watched);
	const others = watch.statuses.filter((status) => status !== 'returned');
	if (others.length > 0) await readRecent(ctx, watch, others, watched);
	return watched;
}
