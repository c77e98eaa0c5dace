import type { IDataObject } from 'n8n-workflow';

import { addressDigest, decodeRows, ROW_FIELDS, type RowRecord } from '../rowRecords';
import type { PrintJob } from './output';

/** The fields that name a letter's rows, all null: a job that names none, or could not be read. */
export const NO_ROW: IDataObject = { sent_key: null, row: null, row_id: null, rows: [], row_ids: [] };

/** A job's records and its letters' digests, read once per job object: a trigger asks for each of its letters. */
const readJobs = new WeakMap<PrintJob, { records?: RowRecord[]; rowsTo: Map<string, RowRecord[]>; digestOf: Map<string, string>; lettersTo: Map<string, number> }>();
function readJob(job: PrintJob) {
	let read = readJobs.get(job);
	if (!read) {
		read = { records: decodeRows(job.metadata as IDataObject | undefined), rowsTo: new Map(), digestOf: new Map(), lettersTo: new Map() };
		for (const record of read.records ?? []) {
			const rows = read.rowsTo.get(record.digest);
			if (rows) rows.push(record);
			else read.rowsTo.set(record.digest, [record]);
		}
		for (const letter of job.letters ?? []) {
			const digest = addressDigest(letter.address);
			read.digestOf.set(letter.id, digest);
			read.lettersTo.set(digest, (read.lettersTo.get(digest) ?? 0) + 1);
		}
		readJobs.set(job, read);
	}
	return read;
}

const named = (record: RowRecord) => ({ row: record.place, row_id: record.id ?? null, sent_key: record.key ?? null });

/**
 * The rows a letter came from, as its print job's records say (rowRecords/): every row it carried (`rows`: its place
 * in the run, Row ID and sent key; `row_ids` for an alert), and the first of them as `row`, `row_id`, `sent_key`. A
 * letter is matched to its rows by its address, not by its place among the job's letters, so an answer in any order
 * names the right rows. Null, with `row_note` saying why, where the job does not say: made elsewhere, or a letter
 * whose address matches none of the rows. A job made from one row (a PDF split into letters) is that row's for
 * every letter; letters to one address that the job holds several of name every row sent to it. The records are whole
 * as long as the API keeps the contract's metadata-budget (transport/contract.ts).
 */
export function letterRow(job: PrintJob, letterId: string): IDataObject {
	const metadata = (job.metadata ?? {}) as IDataObject;
	const jobKey = typeof metadata.n8n_sent_key === 'string' ? metadata.n8n_sent_key : null;
	if (typeof metadata[ROW_FIELDS.list] === 'string') {
		return { ...NO_ROW, sent_key: jobKey, mailing_list_id: metadata[ROW_FIELDS.list], row_note: "A mailing list's letter: its recipient on the list stands for the row." };
	}
	const { records, rowsTo, digestOf, lettersTo } = readJob(job);
	if (!records?.length) return { ...NO_ROW, sent_key: jobKey, row_note: 'The print job was not made by this node from rows (or before it stored them), so it names no row.' };
	const digest = digestOf.get(letterId);
	if (digest === undefined) return { ...NO_ROW, sent_key: jobKey, row_note: `The print job does not list letter ${letterId}.` };
	const rows = records.length === 1 ? records : (rowsTo.get(digest) ?? []);
	if (!rows.length) {
		return { ...NO_ROW, sent_key: jobKey, row_note: `This letter's address is not the address of any of the ${records.length} rows the print job was made from (changed on Intelliprint?), so it names none rather than a wrong one.` };
	}
	const sameAddress = records.length === 1 ? 1 : (lettersTo.get(digest) ?? 0);
	const note = sameAddress > 1 ? { row_note: `The print job holds ${sameAddress} letters to this address: this letter is one of the rows named, which one the API does not say.` } : {};
	return { ...named(rows[0]), sent_key: rows[0].key ?? jobKey, rows: rows.map(named), row_ids: rows.map((record) => record.id ?? null), ...note };
}
