import { DIGEST_CHARS } from './letterAddress';
import { fromPieces, inPieces, piecesFor } from './metadataBudget';

/**
 * What leads each letter of a print job back to the rows it came from, and what tells a rerun which rows are sent
 * (docs/every-letter-once.md): one record per row the job carries, in the job's metadata, in pieces within the budget
 * (metadataBudget.ts). A row's record holds its place in the run that sent it, the digest of its letter's address
 * (letterAddress.ts: the letter is found by it, not by its place among the job's letters), its sent key and its Row
 * ID. Rows of one letter (One Letter per Recipient) share its digest.
 *
 * - `n8n_rows`: the places, 1-based, as ranges ("1-250,252"), in record order;
 * - `n8n_addr`: the digests, six characters each, in the same order;
 * - `n8n_keys`: the rows' own sent keys (JSON), when they have them; under a run key (one key for the whole run, in
 *   `n8n_run_key`) a row's key is the run key and its address (`<run key>#<digest>`, `.2` for the second row of the
 *   run with that address: `n8n_nth` lists those as {"record": n});
 * - `n8n_ids`: the Row IDs (JSON, "" for none), or "=" when each is the row's key.
 */
export const ROW_FIELDS = { places: 'n8n_rows', digests: 'n8n_addr', keys: 'n8n_keys', ids: 'n8n_ids', nth: 'n8n_nth', runKey: 'n8n_run_key', list: 'n8n_mailing_list' } as const;

/** The reference of every keyed mail run's print jobs: a rerun finds their rows with one read of it (reruns/). */
export const MAIL_RUN_REFERENCE = 'n8n mail run';

export interface RowRecord {
	/** The row's place in the run that sent it, from 1. */
	place: number;
	digest: string;
	/** Its sent key: its own, or under a run key, the run key with its address. */
	key?: string;
	/** The Row ID chosen for it. */
	id?: string;
	/** Under a run key, the how-many-th row of the run with this address (from 1). */
	nth?: number;
}

/** A row's key under a run key: the run key and its address, so the row is recognised wherever it stands. */
export function runRowKey(runKey: string, digest: string, nth = 1): string {
	return `${runKey}#${digest}${nth > 1 ? `.${nth}` : ''}`;
}

/** "1-3,7,9-10" for [1, 2, 3, 7, 9, 10]. */
export function placesText(places: number[]): string {
	const ranges: string[] = [];
	for (let start = 0; start < places.length; ) {
		let end = start;
		while (end + 1 < places.length && places[end + 1] === places[end] + 1) end++;
		ranges.push(end === start ? String(places[start]) : `${places[start]}-${places[end]}`);
		start = end + 1;
	}
	return ranges.join(',');
}

/** The places "1-3,7" names, in order; undefined for text that is not such a list. */
export function placesOf(text: unknown): number[] | undefined {
	if (typeof text !== 'string' || !/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(text)) return undefined;
	return text.split(',').flatMap((range) => {
		const [from, to = from] = range.split('-').map(Number);
		return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
	});
}

/** The digest of a row whose address the node does not know (a PDF that carries its own). */
export const UNKNOWN_DIGEST = '-'.repeat(DIGEST_CHARS);

/** The metadata entries that store `records`; under a run key the keys are not stored (they are derived). */
export function encodeRows(records: RowRecord[], underRunKey: boolean): Record<string, string> {
	const entries: Record<string, string> = {
		...inPieces(ROW_FIELDS.places, placesText(records.map((record) => record.place))),
	};
	// A row whose address the node does not know (a PDF's own) needs none: its job is that row's for every letter.
	if (records.some((record) => record.digest !== UNKNOWN_DIGEST)) Object.assign(entries, inPieces(ROW_FIELDS.digests, records.map((record) => record.digest).join('')));
	const keys = records.map((record) => record.key ?? '');
	if (!underRunKey && keys.some(Boolean)) Object.assign(entries, inPieces(ROW_FIELDS.keys, JSON.stringify(keys)));
	const ids = records.map((record) => record.id ?? '');
	if (ids.some(Boolean)) Object.assign(entries, inPieces(ROW_FIELDS.ids, ids.every((id, at) => id === keys[at]) && !underRunKey ? '=' : JSON.stringify(ids)));
	const nth = Object.fromEntries(records.flatMap((record, at) => ((record.nth ?? 1) > 1 ? [[at, record.nth]] : [])));
	if (Object.keys(nth).length) Object.assign(entries, inPieces(ROW_FIELDS.nth, JSON.stringify(nth)));
	return entries;
}

/**
 * How many characters one more row adds at most, by field: what a part is planned with (building/mailRunParts.ts). A
 * place right after the one before adds nothing to its range ("1-250"); another starts one ("1-250,252-…").
 */
export function rowCost(record: Pick<RowRecord, 'place' | 'key' | 'id' | 'nth'>, underRunKey: boolean, previousPlace?: number): number[] {
	const quoted = (text: string | undefined) => JSON.stringify(text ?? '').length + 1;
	const key = underRunKey ? 0 : quoted(record.key);
	// An ID that is the row's key is stored once for the whole job ("=").
	const id = record.id && (underRunKey || record.id !== record.key) ? quoted(record.id) : 0;
	const place = previousPlace === record.place - 1 ? 0 : 2 * String(record.place).length + 2;
	return [place, DIGEST_CHARS, key, id, (record.nth ?? 1) > 1 ? String(record.nth).length + 10 : 0];
}

/** Adds one row's cost to running lengths per field, and says how many entries they then take (two for brackets). */
export function entriesWith(lengths: number[], cost: number[]): number {
	cost.forEach((chars, field) => (lengths[field] = (lengths[field] ?? 0) + chars));
	return lengths.reduce((sum, length) => sum + piecesFor(length > 0 ? length + 2 : 0), 0);
}

const parsed = (text: string | undefined): unknown => {
	try {
		return text === undefined ? undefined : JSON.parse(text);
	} catch {
		return undefined;
	}
};

/** The records a job's metadata holds; undefined when the node did not store them (a job made elsewhere). */
export function decodeRows(metadata: Record<string, unknown> | undefined): RowRecord[] | undefined {
	if (!metadata) return undefined;
	const places = placesOf(fromPieces(metadata, ROW_FIELDS.places));
	const digests = fromPieces(metadata, ROW_FIELDS.digests) ?? (places ?? []).map(() => UNKNOWN_DIGEST).join('');
	if (!places || digests.length !== places.length * DIGEST_CHARS) return undefined;
	const keys = parsed(fromPieces(metadata, ROW_FIELDS.keys));
	const idsText = fromPieces(metadata, ROW_FIELDS.ids);
	const ids = idsText === '=' ? keys : parsed(idsText);
	const nth = (parsed(fromPieces(metadata, ROW_FIELDS.nth)) ?? {}) as Record<string, number>;
	const runKey = typeof metadata[ROW_FIELDS.runKey] === 'string' ? (metadata[ROW_FIELDS.runKey] as string) : undefined;
	const textAt = (list: unknown, at: number) => (Array.isArray(list) && typeof list[at] === 'string' && list[at] !== '' ? (list[at] as string) : undefined);
	return places.map((place, at) => {
		const digest = digests.slice(at * DIGEST_CHARS, (at + 1) * DIGEST_CHARS);
		const own = textAt(keys, at);
		const key = own ?? (runKey !== undefined && !Array.isArray(keys) ? runRowKey(runKey, digest, nth[at]) : undefined);
		return { place, digest, ...(key !== undefined ? { key } : {}), ...(textAt(ids, at) !== undefined ? { id: textAt(ids, at) } : {}), ...(nth[at] ? { nth: nth[at] } : {}) };
	});
}
