import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { brokenAssumption, connectionSettings, listPage, MAX_PAGE_SIZE, type ListPage } from '../transport';

/**
 * The sent keys of an account, as this n8n process has read them (Skip Items Already Sent): key → the ID of the
 * newest print job carrying it. A big sender's account holds hundreds of thousands of jobs in the look-back, so a
 * process reads only what it must: the window once, newest first, where that is a few pages, or else each key it
 * looks for by the job's reference (a keyed job's reference is its key, so the API finds it with one request), and
 * afterwards only what is newer: a rerun costs a page, not the account. What the index says is checked where it
 * matters: the job a key names is read before it counts as sent (alreadySent.ts), so one deleted or cancelled
 * since does not.
 */

/** The metadata entry that carries the user's key on every print job the node creates with one. */
export const SENT_KEY_METADATA = 'n8n_sent_key';

/**
 * How far before the newest job read a later read goes back: a job another process created is listed late by a
 * lagging API (a cache, a replica) with a `created` older than the newest one already read.
 */
const LISTING_MARGIN_SECONDS = 15 * 60;

/** The newest job carrying a key, and when it was created: a key counts only within the run's look-back. */
interface Sent {
	id: string;
	created: number;
}

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
			// The key lives in metadata: the API contract's metadata-kept (transport/contract.ts).
			const key = (job.metadata as IDataObject | undefined)?.[SENT_KEY_METADATA];
			if (typeof key === 'string' && !keys.has(key)) keys.set(key, { id: String(job.id), created: created ?? until });
			missing.delete(String(key));
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
 * Jobs just looked up, whole, by ID: what the lookup answered is as fresh as reading the job, so the check that it
 * still counts as sent (alreadySent.ts) reads it from here, within a minute, instead of asking again.
 */
const lookedUp = new Map<string, { job: IDataObject; at: number }>();
const FRESH_MS = 60_000;

/** A job a lookup answered in the last minute, whole; it is handed out once. */
export function freshlyLookedUp(id: string): IDataObject | undefined {
	const entry = lookedUp.get(id);
	lookedUp.delete(id);
	return entry && Date.now() - entry.at < FRESH_MS ? entry.job : undefined;
}

/** A lookup answered with jobs of other references (the contract's reference-filter): undefined, so the window is read. */
function unlessFilterIgnored(error: unknown): undefined {
	if (brokenAssumption(error) === 'reference-filter') return undefined;
	throw error;
}

/**
 * The newest job carrying each key, looked up by reference (the key): one request per key, several at once. Each
 * answer is held to the contract's reference-filter at the list's door (transport/pagination.ts).
 */
async function lookUp(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, keys: string[]): Promise<Map<string, Sent>> {
	const found = new Map<string, Sent>();
	for (const [id, entry] of lookedUp) if (Date.now() - entry.at >= FRESH_MS) lookedUp.delete(id);
	await Promise.all(
		keys.map(async (key) => {
			const page = await listPage<IDataObject>(ctx, '/prints', { testmode, reference: key, sort_field: 'created', sort_order: 'desc', limit: 100 }, itemIndex);
			// A job the user gave this reference by other means is not one the node sent under the key.
			const job = page.data.find((listed) => (listed.metadata as IDataObject | undefined)?.[SENT_KEY_METADATA] === key);
			if (!job) return;
			found.set(key, { id: String(job.id), created: typeof job.created === 'number' ? job.created : 0 });
			lookedUp.set(String(job.id), { job, at: Date.now() });
		}),
	);
	return found;
}

/**
 * The sent keys of the look-back (jobs created since `since`, Unix seconds): what the process read before, brought
 * up to date by reading what is newer. What it has not read yet it reads whichever way is cheaper: the window, or,
 * where that is more pages than there are `wanted` keys still unknown, each of those keys by reference. Never stops
 * short because the account is big: a window the list cannot show ends the run's error instead.
 */
export async function sentKeysSince(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, since: number, wanted?: Set<string>): Promise<Map<string, string>> {
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
				const answered = await lookUp(ctx, itemIndex, testmode, missing).catch(unlessFilterIgnored);
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
		const inWindow = new Map<string, string>();
		for (const [sentKey, sent] of index.keys) if (sent.created >= since) inWindow.set(sentKey, sent.id);
		return inWindow;
	});
	reads.set(key, turn.catch(() => undefined));
	return await turn;
}

/** A key this process just sent, or found gone (deleted or cancelled since): the index learns it at once. */
export async function rememberSent(ctx: IExecuteFunctions, testmode: boolean, sentKey: string, printJobId: string | undefined): Promise<void> {
	const index = indexes.get(await indexKey(ctx, testmode));
	if (!index) return;
	if (printJobId) index.keys.set(sentKey, { id: printJobId, created: Math.floor(Date.now() / 1000) });
	else index.keys.delete(sentKey);
}
