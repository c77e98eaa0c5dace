import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { connectionSettings, listPage, MAX_PAGE_SIZE } from '../transport';

/**
 * The sent keys of an account, as this n8n process has read them (Skip Items Already Sent): key → the ID of the
 * newest print job carrying it. A big sender's account holds hundreds of thousands of jobs in the look-back, so a
 * process reads the window once, newest first, and afterwards only what is newer: a rerun costs a page, not the
 * account. What the index says is checked where it matters: the job a key names is read before it counts as sent
 * (create.operation.ts), so one deleted or cancelled since does not.
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
}

/** Per credential fingerprint and test or live mode, shared by every run of the process. */
const indexes = new Map<string, Index>();
/** One read at a time per index: two runs at once share it. */
const reads = new Map<string, Promise<unknown>>();

async function indexKey(ctx: IExecuteFunctions, testmode: boolean): Promise<string> {
	return `${(await connectionSettings(ctx)).limitKey}|${String(testmode)}`;
}

/**
 * Reads the list newest first until a job created before `until`, or, when `wanted` is given, until every wanted
 * key is found. Returns the keys found and how far it read (the oldest `created` it covered).
 */
async function read(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, until: number, wanted?: Set<string>) {
	const keys = new Map<string, Sent>();
	const missing = new Set(wanted ?? []);
	let newest = until;
	let covered = until;
	const seen = new Set<string>();
	for (let skip = 0; ; ) {
		const page = await listPage<IDataObject>(
			ctx,
			'/prints',
			{ testmode, sort_field: 'created', sort_order: 'desc', fields: ['id', 'created', 'metadata'], limit: MAX_PAGE_SIZE, skip },
			itemIndex,
		);
		const fresh = page.data.filter((job) => !seen.has(String(job.id)));
		for (const job of fresh) {
			seen.add(String(job.id));
			const created = typeof job.created === 'number' ? job.created : undefined;
			// A job without a time cannot be placed: read on (it may carry a key), it ends nothing.
			if (created !== undefined && created < until) return { keys, oldest: until, newest };
			if (created !== undefined) newest = Math.max(newest, created);
			const key = (job.metadata as IDataObject | undefined)?.[SENT_KEY_METADATA];
			if (typeof key === 'string' && !keys.has(key)) keys.set(key, { id: String(job.id), created: created ?? until });
			missing.delete(String(key));
			if (created !== undefined) covered = created;
			// A rerun whose keys are all near the top need not read the rest of the window.
			if (wanted?.size && missing.size === 0) return { keys, oldest: covered, newest };
		}
		skip += page.data.length;
		if (!page.has_more) return { keys, oldest: until, newest };
		if (fresh.length === 0) {
			// Guessing past what the list shows could send a letter twice: stop instead.
			throw new NodeApiError(ctx.getNode(), {}, {
				message: "Intelliprint's list of print jobs says it has more, but its next page brought nothing new",
				description: `After ${seen.size} print jobs the list repeated itself or came back empty, so the node cannot tell which items were sent. Nothing was sent for this item; try again later.`,
				itemIndex,
			});
		}
	}
}

/**
 * The sent keys of the look-back (jobs created since `since`, Unix seconds): what the process read before, brought
 * up to date by reading what is newer; the whole window the first time (or stopping once every `wanted` key is
 * found). Never stops short because the account is big: a window the list cannot show ends the run's error instead.
 */
export async function sentKeysSince(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, since: number, wanted?: Set<string>): Promise<Map<string, string>> {
	const key = await indexKey(ctx, testmode);
	const turn = (reads.get(key) ?? Promise.resolve()).then(async () => {
		let index = indexes.get(key);
		if (index && index.oldest <= since) {
			const newer = await read(ctx, itemIndex, testmode, index.newest - LISTING_MARGIN_SECONDS);
			// Newer reads win: the newest job carrying a key is the one it names.
			for (const [sentKey, sent] of newer.keys) index.keys.set(sentKey, sent);
			index.newest = Math.max(index.newest, newer.newest);
		} else {
			const whole = await read(ctx, itemIndex, testmode, since, wanted);
			index = { keys: new Map([...(index?.keys ?? []), ...whole.keys]), oldest: whole.oldest, newest: Math.max(whole.newest, index?.newest ?? 0) };
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
