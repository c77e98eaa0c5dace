import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { connectionSettings, listPage, MAX_PAGE_SIZE, type ListPage } from '../transport';
import { learnKeys, lookUp, readReference, unlessFilterIgnored, type Sent, type SentHolding } from './keyLookups';

export { freshlyLookedUp, SENT_KEY_METADATA, type SentHolding } from './keyLookups';

/**
 * The sent keys of an account, as this n8n process has read them (Skip Items Already Sent): key → the ID of the
 * newest print job carrying it. A big sender's account holds hundreds of thousands of jobs in the look-back, so a
 * process reads only what it must: the window once, newest first, where that is a few pages, or else each key it
 * looks for by the job's reference (a keyed job's reference is its key, so the API finds it with one request), and
 * afterwards only what is newer: a rerun costs a page, not the account. What the index says is checked where it
 * matters: the job a key names is read before it counts as sent (alreadySent.ts), so one deleted or cancelled
 * since does not.
 */

/**
 * How far before the newest job read a later read goes back: a job another process created is listed late by a
 * lagging API (a cache, a replica) with a `created` older than the newest one already read.
 */
const LISTING_MARGIN_SECONDS = 15 * 60;

interface Index {
	keys: Map<string, Sent>;
	/** Every job created in [oldest, newest] was read (as the list showed it then). */
	oldest: number;
	newest: number;
	/**
	 * Keys looked up by reference: every job carrying them was in that answer, and every job made since is read by
	 * the reads from `newest` on. So a key here and not in `keys` was never sent.
	 */
	proven: Set<string>;
	/** How many seconds of the account's jobs a page of the list held: what reading the window would cost. */
	secondsPerPage?: number;
}

/** Per credential fingerprint and test or live mode, shared by every run of the process. */
const indexes = new Map<string, Index>();
/** One read at a time per index: two runs at once share it. */
const reads = new Map<string, Promise<unknown>>();

async function indexKey(ctx: IExecuteFunctions, testmode: boolean): Promise<string> {
	return `${(await connectionSettings(ctx)).limitKey}|${String(testmode)}`;
}

/** Where a read of the list stands: what it found, how far it went, and where its next page starts. */
interface Reading {
	keys: Map<string, Sent>;
	missing: Set<string>;
	newest: number;
	covered: number;
	seen: Set<string>;
	skip: number;
	/** The last page read: the next one's first job must follow it in the order asked (the contract's list-order). */
	last?: ListPage<IDataObject>;
}

/**
 * Reads the list newest first until a job created before `until`, or, when `wanted` is given, until every wanted
 * key is found, or `pageBudget` pages (then `partial` says where it stands, for `from` to go on). Returns the keys
 * found and how far it read (the oldest `created` it covered).
 */
async function read(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, until: number, wanted?: Set<string>, pageBudget = Number.POSITIVE_INFINITY, from?: Reading) {
	const at: Reading = from ?? { keys: new Map(), missing: new Set(wanted ?? []), newest: until, covered: until, seen: new Set(), skip: 0 };
	const { keys, missing, seen } = at;
	for (;;) {
		// The API contract's list-order, paging, projection and mode-filters (transport/contract.ts), checked on each page.
		const page: ListPage<IDataObject> = await listPage<IDataObject>(
			ctx,
			'/prints',
			{ testmode, sort_field: 'created', sort_order: 'desc', fields: ['id', 'created', 'metadata', 'testmode'], limit: MAX_PAGE_SIZE, skip: at.skip },
			itemIndex,
			at.last,
		);
		at.last = page;
		const fresh = page.data.filter((job) => !seen.has(String(job.id)));
		for (const job of fresh) {
			seen.add(String(job.id));
			const created = typeof job.created === 'number' ? job.created : undefined;
			// A job without a time cannot be placed: read on (it may carry a key), it ends nothing.
			if (created !== undefined && created < until) return { keys, oldest: until, newest: at.newest, jobsRead: seen.size };
			if (created !== undefined) at.newest = Math.max(at.newest, created);
			// The keys live in metadata: the API contract's metadata-kept (transport/contract.ts).
			for (const key of learnKeys(keys, job, created ?? until)) missing.delete(key);
			if (created !== undefined) at.covered = created;
			// A rerun whose keys are all near the top need not read the rest of the window.
			if (wanted?.size && missing.size === 0) return { keys, oldest: at.covered, newest: at.newest, jobsRead: seen.size };
		}
		at.skip += page.data.length;
		if (!page.has_more) return { keys, oldest: until, newest: at.newest, jobsRead: seen.size };
		if (fresh.length === 0) {
			// Guessing past what the list shows could send a letter twice: stop instead.
			throw new NodeApiError(ctx.getNode(), {}, {
				message: "Intelliprint's list of print jobs says it has more, but its next page brought nothing new",
				description: `After ${seen.size} print jobs the list repeated itself or came back empty, so the node cannot tell which items were sent. Nothing was sent for this item; try again later.`,
				itemIndex,
			});
		}
		// What was read covers [covered, newest]: the caller goes on, or looks the rest up instead.
		if (--pageBudget <= 0) return { keys, oldest: at.covered, newest: at.newest, jobsRead: seen.size, partial: at };
	}
}

/** How many seconds of jobs a page of the list holds, as a read that stopped short saw them. */
function spanOfPage(read: { newest: number; oldest: number; jobsRead: number }): number {
	return Math.max(1, ((read.newest - read.oldest) * MAX_PAGE_SIZE) / Math.max(1, read.jobsRead));
}

/**
 * The sent keys of the look-back (jobs created since `since`, Unix seconds): what the process read before, brought
 * up to date by reading what is newer. What it has not read yet it reads whichever way is cheaper: the window, or,
 * where that is more pages than there are `wanted` keys still unknown, each of those keys by reference. Never stops
 * short because the account is big: a window the list cannot show ends the run's error instead.
 */
export async function sentKeysSince(
	ctx: IExecuteFunctions,
	itemIndex: number,
	testmode: boolean,
	since: number,
	wanted?: Set<string>,
	reference?: string,
): Promise<Map<string, SentHolding>> {
	const key = await indexKey(ctx, testmode);
	const turn = (reads.get(key) ?? Promise.resolve()).then(async () => {
		let index = indexes.get(key);
		if (index) {
			const newer = await read(ctx, itemIndex, testmode, index.newest - LISTING_MARGIN_SECONDS);
			// Newer reads win: the newest job carrying a key is the one it names.
			for (const [sentKey, sent] of newer.keys) index.keys.set(sentKey, sent);
			index.newest = Math.max(index.newest, newer.newest);
		}
		const unknown = (known?: Index) => [...(wanted ?? [])].filter((wantedKey) => !known?.keys.has(wantedKey) && !known?.proven.has(wantedKey));
		// Read further only where the index does not cover the window and some key asked for is still unknown.
		if ((!index || index.oldest > since) && !(index && wanted && unknown(index).length === 0)) {
			// Whichever is fewer requests: the pages of the window (as long as its first page says), or a lookup per key.
			const first = index || !wanted ? undefined : await read(ctx, itemIndex, testmode, since, wanted, 1);
			const secondsPerPage = first?.partial ? spanOfPage(first) : index?.secondsPerPage;
			const pages = secondsPerPage ? (Math.max(first?.newest ?? 0, index?.newest ?? 0) - since) / secondsPerPage : 0;
			const lookUps = (first === undefined || first.partial !== undefined) && wanted !== undefined && pages > unknown(index).length + 1;
			// Read on to the start of the window (not stopping at the keys asked for): the process then holds all of it.
			const whole = first && (!first.partial || lookUps) ? first : lookUps ? undefined : await read(ctx, itemIndex, testmode, since, undefined, undefined, first?.partial);
			const covered = whole !== undefined && whole.partial === undefined;
			index = {
				keys: new Map([...(index?.keys ?? []), ...(whole?.keys ?? [])]),
				oldest: covered ? whole.oldest : Math.min(index?.oldest ?? Number.POSITIVE_INFINITY, whole?.oldest ?? Number.POSITIVE_INFINITY),
				newest: Math.max(whole?.newest ?? 0, index?.newest ?? 0),
				proven: index?.proven ?? new Set(),
				secondsPerPage: secondsPerPage ?? (whole && whole.oldest > since ? spanOfPage(whole) : undefined),
			};
			if (lookUps) {
				const missing = unknown(index);
				// A mail run's keys are on its jobs' records, all under one reference: one read of that run's history.
				const answered = await (reference ? readReference(ctx, itemIndex, testmode, reference, since) : lookUp(ctx, itemIndex, testmode, missing)).catch(unlessFilterIgnored);
				if (answered) {
					for (const [sentKey, sent] of answered) index.keys.set(sentKey, sent);
					for (const looked of missing) index.proven.add(looked);
				} else {
					// A list that does not filter by reference proves nothing by what it leaves out: read the window instead.
					const window = await read(ctx, itemIndex, testmode, since, undefined, undefined, first?.partial);
					for (const [sentKey, sent] of window.keys) index.keys.set(sentKey, sent);
					index.oldest = window.oldest;
					index.newest = Math.max(index.newest, window.newest);
				}
			}
			indexes.set(key, index);
		}
		// Within the look-back only: a key sent before it may be sent again, as the user set it.
		const inWindow = new Map<string, SentHolding>();
		for (const [sentKey, sent] of index.keys) if (sent.created >= since) inWindow.set(sentKey, { id: sent.id, ...(sent.digest ? { digest: sent.digest } : {}) });
		return inWindow;
	});
	reads.set(key, turn.catch(() => undefined));
	return await turn;
}

/** A key this process just sent (with its letter's address digest, for a mail run's row), or found gone (deleted or cancelled since): the index learns it at once. */
export async function rememberSent(ctx: IExecuteFunctions, testmode: boolean, sentKey: string, printJobId: string | undefined, digest?: string): Promise<void> {
	const index = indexes.get(await indexKey(ctx, testmode));
	if (!index) return;
	if (printJobId) index.keys.set(sentKey, { id: printJobId, created: Math.floor(Date.now() / 1000), ...(digest ? { digest } : {}) });
	else index.keys.delete(sentKey);
}
