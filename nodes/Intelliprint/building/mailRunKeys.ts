import type { Recipient } from '../addresses';
import { addressDigest, runRowKey } from '../rowRecords';

/**
 * Skip Items Already Sent in a mail run: what decides for each row is its own key (docs/every-letter-once.md). A row
 * is sent once its key is on a print job of the look-back, wherever it stood in the run that sent it: rows added on
 * top, removed or moved change nothing for the others. One key for every row of a run (more than one) is a run key:
 * a row is then known by the run key and its address (`<run key>#<digest>`, `.2` for the second row to the same
 * address), never by its place.
 */
export interface RowKey {
	key: string;
	/** The digest of the row's address (rowRecords/letterAddress.ts). */
	digest: string;
	/** Under a run key, the how-many-th row of the run to this address. */
	nth?: number;
}

export interface RunKeys {
	keys: Map<number, RowKey>;
	/** Set when one key was given for the whole run. */
	runKey?: string;
}

/** Each row's key (`given`: what Skip Items Already Sent says for the row), as the rows of the run decide it. */
export function keysOfRows(rows: number[], given: Map<number, string>, recipientOf: (row: number) => Recipient): RunKeys {
	const distinct = new Set(rows.map((row) => given.get(row)));
	const digests = new Map(rows.map((row) => [row, addressDigest(recipientOf(row).address)]));
	if (rows.length < 2 || distinct.size > 1) return { keys: new Map(rows.map((row) => [row, { key: given.get(row)!, digest: digests.get(row)! }])) };
	const runKey = given.get(rows[0])!;
	const seen = new Map<string, number>();
	const keys = new Map<number, RowKey>();
	for (const row of rows) {
		const digest = digests.get(row)!;
		const nth = (seen.get(digest) ?? 0) + 1;
		seen.set(digest, nth);
		keys.set(row, { key: runRowKey(runKey, digest, nth), digest, ...(nth > 1 ? { nth } : {}) });
	}
	return { keys, runKey };
}

export interface SentSplit {
	/** Print job ID → the rows of this run it already holds, in row order. */
	sentIn: Map<string, number[]>;
	/** Rows whose key was sent before to another address: they are not sent again, and say so. */
	addressChanged: Set<number>;
	/** Rows whose key is nowhere yet: the first row with each key, in row order. */
	unsent: number[];
	/** A row whose key an earlier row of this run has: it goes with that row's letter, not a letter of its own. */
	sameKeyAs: Map<number, number>;
}

/** Splits a keyed run's rows into those sent before (by their keys, `found`) and those to send now. */
export function splitSent(rows: number[], keys: RunKeys, found: Map<string, { id: string; digest?: string }>): SentSplit {
	const split: SentSplit = { sentIn: new Map(), addressChanged: new Set(), unsent: [], sameKeyAs: new Map() };
	const firstWithKey = new Map<string, number>();
	const jobOfRow = new Map<number, string>();
	for (const row of rows) {
		const { key, digest } = keys.keys.get(row)!;
		const earlier = firstWithKey.get(key);
		if (earlier !== undefined) {
			split.sameKeyAs.set(row, earlier);
			continue;
		}
		firstWithKey.set(key, row);
		const holding = found.get(key);
		if (!holding) {
			split.unsent.push(row);
			continue;
		}
		if (holding.digest !== undefined && holding.digest !== digest) split.addressChanged.add(row);
		if (!split.sentIn.has(holding.id)) split.sentIn.set(holding.id, []);
		split.sentIn.get(holding.id)!.push(row);
		jobOfRow.set(row, holding.id);
	}
	// A row with another's key goes where that row goes: into its print job, or its letter now.
	for (const [row, lead] of split.sameKeyAs) if (jobOfRow.has(lead)) split.sentIn.get(jobOfRow.get(lead)!)!.push(row);
	for (const held of split.sentIn.values()) held.sort((a, b) => a - b);
	return split;
}
