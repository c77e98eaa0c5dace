import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { brokenAssumption, listPage, MAX_PAGE_SIZE, type ListPage } from '../transport';
import { decodeRows } from '../rowRecords';

/**
 * How the sent-key index (sentKeyIndex.ts) learns keys from listed print jobs, and its two cheaper reads than the
 * account's whole window: a lookup per key by reference (an item's job has its key as reference) and a read of one
 * reference's history (a keyed mail run's jobs share one).
 */

/** The metadata entry that carries the user's key on every print job the node creates with one. */
export const SENT_KEY_METADATA = 'n8n_sent_key';

/** The newest job carrying a key, and when it was created: a key counts only within the run's look-back. */
export interface Sent {
	id: string;
	created: number;
	/** A mail run's row: the digest of the address its letter went to (rowRecords/). */
	digest?: string;
}

/** A sent key's print job, and for a mail run's row the digest of the address its letter went to. */
export interface SentHolding {
	id: string;
	digest?: string;
}

/**
 * Every key a listed job carries: an item's (`n8n_sent_key`) and each row's of a mail run (its records,
 * rowRecords/). The newest job carrying a key is the one it names, so a key already learned from a newer job stays.
 */
export function learnKeys(keys: Map<string, Sent>, job: IDataObject, created: number): string[] {
	const metadata = job.metadata as IDataObject | undefined;
	const learned: string[] = [];
	const learn = (key: string, digest?: string) => {
		learned.push(key);
		if (!keys.has(key)) keys.set(key, { id: String(job.id), created, ...(digest ? { digest } : {}) });
	};
	if (typeof metadata?.[SENT_KEY_METADATA] === 'string') learn(metadata[SENT_KEY_METADATA] as string);
	// A mail run's rows' keys, whole as long as the API keeps the node's metadata-budget (transport/contract.ts).
	for (const record of decodeRows(metadata) ?? []) if (record.key) learn(record.key, record.digest);
	return learned;
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
export function unlessFilterIgnored(error: unknown): undefined {
	if (brokenAssumption(error) === 'reference-filter') return undefined;
	throw error;
}

/**
 * The newest job carrying each key, looked up by reference (the key): one request per key, several at once. Each
 * answer is held to the contract's reference-filter at the list's door (transport/pagination.ts).
 */
export async function lookUp(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, keys: string[]): Promise<Map<string, Sent>> {
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
 * Every key on the jobs of one reference in the look-back, newest first: a keyed mail run's jobs all carry one
 * (create.operation.ts), so its rows are found with a read as long as that reference's history, not the account's.
 * Each page is held to the contract's reference-filter and list-order at the list's door.
 */
export async function readReference(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, reference: string, since: number): Promise<Map<string, Sent>> {
	const keys = new Map<string, Sent>();
	const seen = new Set<string>();
	let last: ListPage<IDataObject> | undefined;
	for (let skip = 0; ; ) {
		const qs = { testmode, reference, sort_field: 'created', sort_order: 'desc', fields: ['id', 'created', 'metadata', 'testmode', 'reference'], limit: MAX_PAGE_SIZE, skip };
		const page: ListPage<IDataObject> = await listPage<IDataObject>(ctx, '/prints', qs, itemIndex, last);
		last = page;
		for (const job of page.data) {
			const created = typeof job.created === 'number' ? job.created : since;
			if (created < since) return keys;
			if (!seen.has(String(job.id))) learnKeys(keys, job, created);
			seen.add(String(job.id));
		}
		skip += page.data.length;
		if (!page.has_more || page.data.length === 0) return keys;
	}
}

