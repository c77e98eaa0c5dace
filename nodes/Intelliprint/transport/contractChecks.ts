import type { IDataObject } from 'n8n-workflow';

import type { AssumptionId } from './contract';

/**
 * The contract's checks on a list answer (contract.ts): pure, so the node (at its one door for lists,
 * pagination.ts) and `npm run check:api` judge an answer by the same rules. Each check reads only the answer
 * and what was asked: it costs no request.
 */

/** An assumption an answer broke, and how, in words that name the entries. */
export interface Breach {
	assumption: AssumptionId;
	detail: string;
}

/** The page as the API answered it (the envelope's shape is checked before, in answers.ts). */
export interface ListAnswer {
	data: unknown[];
	has_more: boolean;
	total_available?: number;
}

function valueAt(entry: unknown, path: string): unknown {
	let value: unknown = entry;
	for (const part of path.split('.')) value = typeof value === 'object' && value !== null ? (value as IDataObject)[part] : undefined;
	return value;
}

const name = (entry: unknown) => String((entry as IDataObject | null)?.id ?? 'an entry');
const asList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);
const asBoolean = (value: unknown): boolean | undefined => (value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined);

/** Entries out of the order asked, judged on numeric sort values only (a string's order depends on collation). */
function orderBreach(qs: IDataObject, entries: unknown[]): Breach | undefined {
	const field = typeof qs.sort_field === 'string' ? qs.sort_field : undefined;
	if (!field) return undefined;
	const descending = qs.sort_order !== 'asc';
	let last: { entry: unknown; value: number } | undefined;
	for (const entry of entries) {
		const value = valueAt(entry, field);
		if (typeof value !== 'number') continue;
		if (last && (descending ? value > last.value : value < last.value)) {
			return {
				assumption: 'list-order',
				detail: `the list was asked for ${descending ? 'the highest' : 'the lowest'} ${field} first, but ${name(last.entry)} (${field} ${last.value}) came before ${name(entry)} (${field} ${value})`,
			};
		}
		last = { entry, value };
	}
	return undefined;
}

/** Entries a filter of /prints should have kept out. */
function filterBreach(path: string, qs: IDataObject, entries: unknown[]): Breach | undefined {
	if (!/^\/prints\/?$/.test(path)) return undefined;
	const asked: Array<[string, unknown, AssumptionId]> = [];
	if (qs.reference !== undefined) asked.push(['reference', String(qs.reference), 'reference-filter']);
	for (const field of ['testmode', 'confirmed'] as const) {
		const value = asBoolean(qs[field]);
		if (value !== undefined) asked.push([field, value, 'mode-filters']);
	}
	for (const entry of entries) {
		for (const [field, value, assumption] of asked) {
			const got = valueAt(entry, field);
			// A reference must be there to be proven; a mode flag is checked where the answer carries it.
			if (got === value || (got === undefined && field !== 'reference')) continue;
			return { assumption, detail: `the list was filtered on ${field} = ${JSON.stringify(value)}, but it held ${name(entry)} with ${field} = ${JSON.stringify(got ?? null)}` };
		}
	}
	return undefined;
}

/** Entries that lack a field the projection (`fields[]`) asked for. */
function projectionBreach(qs: IDataObject, entries: unknown[]): Breach | undefined {
	const fields = asList(qs.fields).map((field) => field.split('.')[0]);
	for (const entry of entries) {
		const missing = fields.find((field) => typeof entry !== 'object' || entry === null || !(field in entry));
		if (missing) return { assumption: 'projection', detail: `the list was asked for ${fields.join(', ')} on each entry, but ${name(entry)} came without ${missing}` };
	}
	return undefined;
}

function countBreach(qs: IDataObject, page: ListAnswer): Breach | undefined {
	const limit = Number(qs.limit);
	if (Number.isInteger(limit) && limit > 0 && page.data.length > limit) {
		return { assumption: 'counts', detail: `a page asked for at most ${limit} entries held ${page.data.length}` };
	}
	if (typeof page.total_available !== 'number') return undefined;
	const through = (Number(qs.skip) || 0) + page.data.length;
	if (page.has_more !== through < page.total_available) {
		return {
			assumption: 'counts',
			detail: `the page ending at entry ${through} said has_more ${String(page.has_more)}, with total_available ${page.total_available}`,
		};
	}
	return undefined;
}

/**
 * The first assumption a list answer breaks, or undefined. `previous` is the page read just before this one (the
 * same query with a smaller skip): its last entry and this page's first must be in order too.
 */
export function listBreach(path: string, qs: IDataObject, page: ListAnswer, previous?: ListAnswer): Breach | undefined {
	const joined = previous?.data.length ? [previous.data[previous.data.length - 1], ...page.data] : page.data;
	return projectionBreach(qs, page.data) ?? filterBreach(path, qs, page.data) ?? countBreach(qs, page) ?? orderBreach(qs, joined);
}

/**
 * The contract's metadata-kept on a print job just made: every metadata entry sent is in the answer, as sent. The
 * sent key and the claim on the day live there; a job that lost them cannot be found by a rerun or counted by
 * another process.
 */
export function metadataBreach(sent: unknown, job: { id?: unknown; metadata?: unknown }): Breach | undefined {
	if (typeof sent !== 'object' || sent === null) return undefined;
	const kept = (typeof job.metadata === 'object' && job.metadata !== null ? job.metadata : {}) as IDataObject;
	const lost = Object.entries(sent as IDataObject).find(([key, value]) => kept[key] !== value);
	return lost && { assumption: 'metadata-kept', detail: `print job ${name(job)} was made with metadata ${lost[0]} = ${JSON.stringify(lost[1])}, but the answer has ${JSON.stringify(kept[lost[0]] ?? null)}` };
}
