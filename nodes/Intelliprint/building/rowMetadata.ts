import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * What leads each letter of a print job back to the row it came from (docs/webhook-trigger.md): the rows' places in the run
 * (`n8n_rows`, 1-based, as ranges: "1-250,252") in the order of the job's letters, and, when the user picked a Row ID
 * (Options → Row ID, e.g. {{ $json.invoiceId }}), those IDs in the same order (`n8n_row_ids`, JSON). Letter n of the
 * job is the n-th row listed. A job's IDs are stored while they fit ROW_IDS_MAX_CHARS; past that only the places are,
 * and the trigger says so (lower Letters per Print Job to keep them). A job sent to a mailing list names the list
 * (`n8n_mailing_list`): its letters are the list's recipients, each found by its address.
 */
export const ROW_METADATA = { rows: 'n8n_rows', ids: 'n8n_row_ids', list: 'n8n_mailing_list' } as const;
export const ROW_IDS_MAX_CHARS = 20_000;

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

/** The metadata that leads the letters made from `rows` (item indexes, in letter order) back to them. */
export function rowMetadata(ctx: IExecuteFunctions, rows: number[]): Record<string, string> {
	const metadata: Record<string, string> = { [ROW_METADATA.rows]: placesText(rows.map((row) => row + 1)) };
	const ids = rows.map((row) => String(ctx.getNodeParameter('options.rowId', row, '') ?? ''));
	const text = JSON.stringify(ids);
	if (ids.some(Boolean) && text.length <= ROW_IDS_MAX_CHARS) metadata[ROW_METADATA.ids] = text;
	return metadata;
}
