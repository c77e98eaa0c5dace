import type { IDataObject } from 'n8n-workflow';

import { placesOf, ROW_METADATA } from '../building/rowMetadata';
import type { PrintJob } from './output';

/**
 * The row a letter came from, as its print job's metadata says (building/rowMetadata.ts): its place in the run (`row`,
 * 1-based), the Row ID chosen for it (`row_id`), the job's Skip Items Already Sent key (`sent_key`); null where the
 * job does not say, with `row_note` saying why. A job made from one row (its PDF split into letters, say) is that
 * row's for every letter; letter n of a mail run is its n-th row, so one whose letters do not match its rows in number
 * (letters removed by phrase) names no row rather than a wrong one.
 */
export function letterRow(job: PrintJob, letterId: string): IDataObject {
	const metadata = (job.metadata ?? {}) as IDataObject;
	const letters = job.letters ?? [];
	let position = letters.findIndex((letter) => letter.id === letterId);
	const places = placesOf(metadata[ROW_METADATA.rows]);
	let ids: unknown;
	try {
		ids = JSON.parse(String(metadata[ROW_METADATA.ids] ?? 'null'));
	} catch {
		ids = null;
	}
	const found = { sent_key: typeof metadata.n8n_sent_key === 'string' ? metadata.n8n_sent_key : null, row: null, row_id: null };
	if (typeof metadata[ROW_METADATA.list] === 'string') return { ...found, mailing_list_id: metadata[ROW_METADATA.list], row_note: "A mailing list's letter: its recipient on the list stands for the row." };
	if (!places) return { ...found, row_note: 'The print job was not made by this node from rows (or before it stored them), so it names no row.' };
	if (position < 0) return { ...found, row_note: `The print job does not list letter ${letterId}.` };
	// One row made the whole job (a PDF split into letters): every letter is that row's.
	if (places.length === 1) position = 0;
	else if (places.length !== letters.length) {
		return { ...found, row_note: `The print job has ${letters.length} letters for ${places.length} rows (a PDF split, or letters removed), so its letters cannot be told apart by row.` };
	}
	const rowId = Array.isArray(ids) && ids.length === places.length ? ids[position] : null;
	const note = rowId === null && metadata[ROW_METADATA.ids] === undefined ? { row_note: 'No Row ID was stored (none set, or more than fit on the print job: lower Letters per Print Job).' } : {};
	return { ...found, row: places[position], row_id: rowId === '' ? null : (rowId as string | null), ...note };
}
