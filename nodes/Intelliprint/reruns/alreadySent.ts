import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, EXPECT } from '../transport';
import { asNodeError } from '../results';
import type { PrintJob } from '../results';
import { freshlyLookedUp, rememberSent, SENT_KEY_METADATA, sentKeysSince, type SentHolding } from './sentKeyIndex';
import { textValue } from '../values';

export { SENT_KEY_METADATA };
const MAX_KEY_LENGTH = 200;

interface Scan {
	/** Key → the print job that already carries it. */
	found: Promise<Map<string, SentHolding>>;
	/** Keys claimed in this run: the first item with a key creates; later ones wait for it. */
	claimed: Map<string, { itemIndex: number; created: Promise<string | undefined> }>;
	testmode: boolean;
}

const scans = new WeakMap<IExecuteFunctions, Map<string, Scan>>();

/**
 * The sent keys of the look-back, once per node run (per test/live mode): what this process knows of the account,
 * brought up to date (sentKeyIndex.ts). Not once per item: a run of 300 items costs one read, not 300.
 */
function scanFor(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, days: number, wanted?: () => Set<string>, reference?: string): Scan {
	let perMode = scans.get(ctx);
	if (!perMode) scans.set(ctx, (perMode = new Map()));
	const mode = String(testmode);
	let scan = perMode.get(mode);
	if (!scan) {
		const since = Math.floor(Date.now() / 1000) - days * 86_400;
		scan = { found: sentKeysSince(ctx, itemIndex, testmode, since, wanted?.(), reference), claimed: new Map(), testmode };
		perMode.set(mode, scan);
	}
	return scan;
}

/**
 * Every sent key on the print jobs of the look-back period, with its job (the same single read as checkSent). A mail
 * run gives the keys it looks for and its jobs' reference, so a big account is not read whole for them.
 */
export async function sentKeysFound(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, days: number, wanted?: Set<string>, reference?: string): Promise<Map<string, SentHolding>> {
	return await scanFor(ctx, itemIndex, testmode, days, wanted && (() => wanted), reference).found;
}

/**
 * The print job a key names, read: undefined when it no longer counts as sent (deleted since, or every letter
 * cancelled), and the process's index then forgets it, so the item is sent again.
 */
export async function sentJobStill(ctx: IExecuteFunctions, itemIndex: number, printJobId: string, sentKey: string, testmode: boolean): Promise<PrintJob | undefined> {
	let job: PrintJob;
	try {
		job = (freshlyLookedUp(printJobId) as PrintJob | undefined) ?? (await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${printJobId}`, itemIndex }));
	} catch (error) {
		if ((error as NodeApiError).httpCode !== '404') throw asNodeError(ctx, error);
		await rememberSent(ctx, testmode, sentKey, undefined);
		return undefined;
	}
	const letters = job.letters ?? [];
	if (letters.length > 0 && letters.every((letter) => letter.status === 'cancelled')) {
		await rememberSent(ctx, testmode, sentKey, undefined);
		return undefined;
	}
	return job;
}

export function sentKeyOf(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const key = textValue(ctx, itemIndex, value, 'Skip Items Already Sent')?.trim();
	if (!key || key.length > MAX_KEY_LENGTH) {
		throw new NodeOperationError(ctx.getNode(), key ? `The sent key is longer than ${MAX_KEY_LENGTH} characters` : `Item ${itemIndex + 1} has no sent key`, {
			itemIndex,
			description: 'With "Skip Items Already Sent" every item needs a short key that names its letter, e.g. {{ $json.invoiceId }}.',
		});
	}
	return key;
}

/**
 * A keyed job's reference: its key, so that a rerun in a new n8n process finds it with one request by reference
 * (sentKeyIndex.ts) instead of reading the account's history; a keyed mail run's, the one reference all of them share,
 * so a rerun reads only their history. A Reference set to something else is refused: a job that could not be found
 * so would be sent again.
 */
export function keyedReference(ctx: IExecuteFunctions, itemIndex: number, given: unknown, reference: string, mailRun = false): string {
	if (given === undefined || given === null || given === '' || given === reference) return reference;
	const why = mailRun
		? `A keyed mail run's print jobs all have the reference "${reference}", so that a rerun finds the rows they hold by reading only their history, not the account's.`
		: `Each print job's reference is then its key ("${reference.slice(0, 80)}"), so that a rerun finds it with one request instead of reading the account's history.`;
	throw new NodeOperationError(ctx.getNode(), `With Skip Items Already Sent on, Reference must be empty or ${mailRun ? `"${reference}"` : 'the same as the key'}`, {
		itemIndex,
		description: `${why} Nothing was sent for this item. Leave Reference empty, ${mailRun ? '' : 'set it to the key, '}or put your text in Metadata.`,
	});
}

/**
 * Print Job → Update may not change the reference of a job found by it (one whose reference is its sent key): a rerun
 * in a new n8n process would not find it and would send the letter again (the API contract's keyed-reference,
 * transport/contract.ts). Reads the job only when the reference changes.
 */
export async function keepKeyedReference(ctx: IExecuteFunctions, itemIndex: number, id: string, reference: unknown): Promise<void> {
	if (reference === undefined) return;
	const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex });
	const key = (job.metadata as IDataObject | undefined)?.[SENT_KEY_METADATA];
	if (typeof key !== 'string' || job.reference !== key || reference === key) return;
	throw new NodeOperationError(ctx.getNode(), `The reference of print job ${id} is its sent key, and cannot be changed`, {
		itemIndex,
		description: `Skip Items Already Sent finds this job by its reference ("${key.slice(0, 80)}"): changed, a rerun in a new n8n process would send the letter again. Nothing was changed. Put your text in Metadata instead.`,
	});
}

export type SentCheck =
	| { sent: true; printJobId: string; job?: PrintJob; byItem?: number }
	| { sent: false; done: (createdId: string | undefined) => void };

/**
 * Whether a print job carrying this key exists already (from an earlier run, or from an earlier item of this run)
 * and still counts as sent. When not, the item claims the key and must call `done` with what it created. `wanted`
 * gives every key the run looks for, so a first read can stop once all are found.
 */
export async function checkSent(ctx: IExecuteFunctions, itemIndex: number, key: string, testmode: boolean, days: number, wanted?: () => Set<string>): Promise<SentCheck> {
	const scan = scanFor(ctx, itemIndex, testmode, days, wanted);
	const earlier = scan.claimed.get(key);
	if (earlier) {
		const createdId = await earlier.created;
		if (createdId) return { sent: true, printJobId: createdId, byItem: earlier.itemIndex };
		throw new NodeOperationError(ctx.getNode(), `Item ${earlier.itemIndex + 1} has the same sent key and did not create its print job`, {
			itemIndex,
			description: `Both items carry the key "${key}". Fix item ${earlier.itemIndex + 1} first; this item was not sent, so the letter cannot go out twice.`,
		});
	}
	let done!: (createdId: string | undefined) => void;
	const created = new Promise<string | undefined>((resolve) => (done = resolve));
	scan.claimed.set(key, { itemIndex, created });
	const settle = (createdId: string | undefined) => {
		done(createdId);
		if (createdId) void rememberSent(ctx, testmode, key, createdId);
	};
	try {
		const existing = (await scan.found).get(key)?.id;
		const job = existing ? await sentJobStill(ctx, itemIndex, existing, key, testmode) : undefined;
		if (job) {
			done(job.id);
			return { sent: true, printJobId: job.id, job };
		}
	} catch (error) {
		// If the list or the job cannot be read, later items with this key must not wait forever.
		done(undefined);
		throw asNodeError(ctx, error);
	}
	return { sent: false, done: settle };
}
