import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequestAllItems } from '../transport';
import { textValue } from './values';

/** The metadata entry that carries the user's key on every print job the node creates with one. */
export const SENT_KEY_METADATA = 'n8n_sent_key';
const MAX_KEY_LENGTH = 200;

interface Scan {
	/** Key → the ID of the print job that already carries it. */
	found: Promise<Map<string, string>>;
	/** Keys claimed in this run: the first item with a key creates; later ones wait for it. */
	claimed: Map<string, { itemIndex: number; created: Promise<string | undefined> }>;
}

const scans = new WeakMap<IExecuteFunctions, Map<string, Scan>>();

/**
 * Reads the print jobs of the last `days` once per node run (per test/live mode), newest first,
 * with only the fields needed, and maps each sent key to its job. Not once per item: a run of 300
 * items costs one or two list requests, not 300.
 */
function scanFor(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, days: number): Scan {
	let perMode = scans.get(ctx);
	if (!perMode) scans.set(ctx, (perMode = new Map()));
	const mode = String(testmode);
	let scan = perMode.get(mode);
	if (!scan) {
		const since = Math.floor(Date.now() / 1000) - days * 86_400;
		const found = apiRequestAllItems<IDataObject>(
			ctx,
			'/prints',
			{ testmode, sort_field: 'created', sort_order: 'desc', fields: ['id', 'created', 'metadata'] },
			{ itemIndex, until: (job) => typeof job.created === 'number' && job.created < since },
		).then((jobs) => {
			const keys = new Map<string, string>();
			for (const job of jobs) {
				const key = (job.metadata as IDataObject | undefined)?.[SENT_KEY_METADATA];
				if (typeof key === 'string' && !keys.has(key)) keys.set(key, String(job.id));
			}
			return keys;
		});
		scan = { found, claimed: new Map() };
		perMode.set(mode, scan);
	}
	return scan;
}

/** Every sent key on the print jobs of the look-back period, with its job (the same single read as checkSent). */
export async function sentKeysFound(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, days: number): Promise<Map<string, string>> {
	return await scanFor(ctx, itemIndex, testmode, days).found;
}

export function sentKeyOf(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const key = textValue(ctx, itemIndex, value, 'Skip Items Already Sent → Key')?.trim();
	if (!key || key.length > MAX_KEY_LENGTH) {
		throw new NodeOperationError(ctx.getNode(), key ? `The sent key is longer than ${MAX_KEY_LENGTH} characters` : `Item ${itemIndex + 1} has no sent key`, {
			itemIndex,
			description: 'With "Skip Items Already Sent" every item needs a short key that names its letter, e.g. {{ $json.invoiceId }}.',
		});
	}
	return key;
}

export type SentCheck =
	| { sent: true; printJobId: string; byItem?: number }
	| { sent: false; done: (createdId: string | undefined) => void };

/**
 * Whether a print job carrying this key exists already (from an earlier run, or from an earlier
 * item of this run). When not, the item claims the key and must call `done` with what it created.
 */
export async function checkSent(ctx: IExecuteFunctions, itemIndex: number, key: string, testmode: boolean, days: number): Promise<SentCheck> {
	const scan = scanFor(ctx, itemIndex, testmode, days);
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
	// If the list cannot be read, later items with this key must not wait forever.
	scan.found.catch(() => done(undefined));
	const found = await scan.found;
	const existing = found.get(key);
	if (existing) {
		done(existing);
		return { sent: true, printJobId: existing };
	}
	return { sent: false, done };
}
