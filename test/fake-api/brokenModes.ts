import type { Fields } from './body';
import { refuseInternational } from './destinations';
import type { SortFields } from './lists';
import type { FakePrintJob } from './prints';

/**
 * An API that differs from the node's contract (nodes/Intelliprint/transport/contract.ts) in one way, chosen by the
 * base URL as a credential would point at it: `<origin>/broken/<mode>/v1` (several modes: `a,b`). Everything else
 * behaves as the fake always does, so a test or `npm run check:api` against a mode sees exactly that difference.
 */
export const BROKEN_MODES = {
	ignoreSort: { assumption: 'list-order', what: 'lists ignore sort_field and sort_order and answer oldest first' },
	insertionOrder: { assumption: 'list-order', what: 'lists sorted on created come in the order the jobs were stored, not by created' },
	ignoreReference: { assumption: 'reference-filter', what: 'GET /prints ignores the reference filter' },
	ignoreConfirmed: { assumption: 'mode-filters', what: 'GET /prints ignores the confirmed filter' },
	dropFields: { assumption: 'projection', what: 'a list asked for fields[] leaves out metadata and cost' },
	countsOff: { assumption: 'counts', what: "a list's total_available is one more than it holds" },
	ignoreSkip: { assumption: 'paging', what: 'every page is the first, whatever skip says' },
	dropMetadata: { assumption: 'metadata-kept', what: 'metadata given to a print job is not kept' },
	shortMetadata: { assumption: 'metadata-budget', what: 'metadata values are kept only to their first 200 characters' },
	renamedKeys: { assumption: 'keyed-reference', what: "each keyed print job's reference (an item's key, or a keyed mail run's `n8n mail run`) is renamed (as in the dashboard) once made" },
	noInternational: { assumption: 'postage-abroad', what: '`international` is refused (400 parameter_invalid on postage.service)' },
} as const;

export type BrokenMode = keyof typeof BROKEN_MODES;
export type Modes = ReadonlySet<BrokenMode>;

/** The modes a path asks for and the API path below them; unknown modes are refused, so a typo is never "no mode". */
export function brokenModesOf(pathname: string): { modes: Modes; pathname: string } {
	const match = /^\/broken\/([^/]+)(\/.*)?$/.exec(pathname);
	if (!match) return { modes: new Set(), pathname };
	const names = match[1].split(',');
	const unknown = names.find((name) => !(name in BROKEN_MODES));
	if (unknown) throw new Error(`The fake has no broken mode "${unknown}"; it has ${Object.keys(BROKEN_MODES).join(', ')}`);
	return { modes: new Set(names as BrokenMode[]), pathname: match[2] ?? '/' };
}

/** The query a list of print jobs is answered by, bent as the modes say. */
export function bentListQuery(modes: Modes, query: URLSearchParams): URLSearchParams {
	const bent = new URLSearchParams(query);
	if (modes.has('ignoreSort')) {
		bent.set('sort_field', 'created');
		bent.set('sort_order', 'asc');
	}
	if (modes.has('ignoreReference')) bent.delete('reference');
	if (modes.has('ignoreConfirmed')) bent.delete('confirmed');
	return bent;
}

/** Sort fields under insertionOrder: `created` reads the order the jobs were stored in. */
export function bentSorts<T extends { _seq?: number }>(modes: Modes, sorts: SortFields<T>): SortFields<T> {
	return modes.has('insertionOrder') ? { ...sorts, created: (entry) => entry._seq } : sorts;
}

/** A list's answer bent after the fact: fields dropped, the count off. */
export function bendListAnswer(modes: Modes, query: URLSearchParams, body: unknown): unknown {
	const list = body as { data?: Array<Record<string, unknown>>; total_available?: number };
	const projected = query.has('fields[]') || query.has('fields');
	if (modes.has('dropFields') && projected) {
		for (const entry of list.data ?? []) {
			delete entry.metadata;
			delete entry.cost;
		}
	}
	if (modes.has('countsOff') && typeof list.total_available === 'number') list.total_available += 1;
	return body;
}

/** A create's or update's fields as a mode makes the API take them (or refuse them). */
export function bentFields(modes: Modes, fields: Fields): Fields {
	if (modes.has('noInternational')) refuseInternational(fields);
	if (modes.has('shortMetadata') && typeof fields === 'object' && fields !== null) {
		const metadata = (fields as Record<string, unknown>).metadata;
		if (typeof metadata === 'object' && metadata !== null) {
			const cut = Object.fromEntries(Object.entries(metadata).map(([name, value]) => [name, typeof value === 'string' ? value.slice(0, 200) : value]));
			return { ...(fields as Record<string, unknown>), metadata: cut } as Fields;
		}
	}
	if (!modes.has('dropMetadata') || typeof fields !== 'object' || fields === null) return fields;
	const kept = { ...(fields as Record<string, unknown>) };
	delete kept.metadata;
	return kept as Fields;
}

/** A print job just made or changed, as a mode leaves it stored. */
export function afterWrite(modes: Modes, job: FakePrintJob): void {
	const key = job.metadata?.n8n_sent_key;
	if (modes.has('renamedKeys') && typeof key === 'string' && job.reference === key) job.reference = `Renamed ${key}`;
	// A keyed mail run's job (its rows' keys in its records) under the reference they all share.
	const mailRun = typeof job.metadata?.n8n_run_key === 'string' || typeof job.metadata?.n8n_keys === 'string';
	if (modes.has('renamedKeys') && mailRun && job.reference === 'n8n mail run') job.reference = 'Renamed n8n mail run';
}
