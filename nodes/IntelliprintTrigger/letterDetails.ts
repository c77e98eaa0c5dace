import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { letterRow, NO_ROW } from '../Intelliprint/results/letterRow';
import type { PrintJob } from '../Intelliprint/results/output';
import { recipientKey } from '../Intelliprint/building/mailingLists';
import { apiRequest, apiRequestAllItems, EXPECT } from '../Intelliprint/transport';

/**
 * Add Letter Details: each event's letter with what a workflow needs to act on it, read from its print job with the
 * Intelliprint API credential once the delivery is answered (so a slow or failing read never costs the event): the
 * letter's `recipient`, the job's `print_reference` and `print_metadata`, and the row the letter came from (`row`,
 * `row_id`, `sent_key`: results/letterRow.ts; for a mailing list's letter, the list recipient with its address and its
 * variables, which hold the row's own fields). One read per print job (and list) for the events of a minute in this process
 * (a job's letters, recipients and rows do not change), paced with the action node. A job that cannot be read still
 * starts the workflow with the event, `details_note` saying why (and is read again for the next event).
 */
const recent = new Map<string, { at: number; job: Promise<unknown> }>();
const RECENT_MS = 60_000;

/** Reads `path` (a print job, or a mailing list's recipients) once for the events of a minute; an error is not kept. */
async function readRecently<T>(id: string, read: () => Promise<T>): Promise<T | Error> {
	if (!recent.has(id)) recent.set(id, { at: Date.now(), job: read().catch((error: Error) => error) });
	const answer = (await recent.get(id)!.job) as T | Error;
	if (answer instanceof Error) recent.delete(id);
	return answer;
}

/** A mailing list's letter: the list's recipient with the same address (its ID and variables: the row's own fields). */
async function listRecipient(ctx: IExecuteFunctions, listId: string, address: IDataObject | undefined, itemIndex: number): Promise<IDataObject> {
	const recipients = await readRecently(listId, async () => await apiRequestAllItems<IDataObject>(ctx, `/mailing_lists/${listId}/recipients`, {}, { itemIndex }));
	if (recipients instanceof Error) return { row_note: `Mailing list ${listId}'s recipients could not be read: ${recipients.message}` };
	// The address alone, written as the list and the letter may each write it (lines, spacing aside).
	const match = recipients.find((recipient) => recipientKey({ address: recipient.address as IDataObject }) === recipientKey({ address }));
	if (!match) return { row_note: `No recipient of mailing list ${listId} has this letter's address any more.` };
	return { mailing_list_recipient_id: match.id ?? null, recipient_variables: match.variables ?? {} };
}

export async function withLetterDetails(ctx: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	for (const [id, read] of recent) if (Date.now() - read.at > RECENT_MS) recent.delete(id);
	const detailed = async (item: INodeExecutionData, itemIndex: number): Promise<IDataObject> => {
		const event = item.json;
		const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as IDataObject;
		const printId = event.print_id ?? data.print_id;
		const letterId = String(event.id ?? data.id ?? '');
		if (typeof printId !== 'string' || !/^print_\w+$/.test(printId)) return { recipient: null, print_reference: null, print_metadata: {}, ...NO_ROW, details_note: 'The event names no print job, so there are no letter details to add.' };
		const job = await readRecently(printId, async () => await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${printId}`, itemIndex }));
		// The same fields as for a readable job, null: a workflow's expressions keep working, and the next event of this job reads it again.
		if (job instanceof Error) return { recipient: null, print_reference: null, print_metadata: {}, ...NO_ROW, details_note: `Print job ${printId} could not be read, so only the event is here: ${job.message}. The next event of this job reads it again.` };
		const letter = job.letters?.find((one) => one.id === letterId);
		const row = letterRow(job, letterId);
		const fromList = typeof row.mailing_list_id === 'string' ? await listRecipient(ctx, row.mailing_list_id, letter?.address as IDataObject, itemIndex) : {};
		return { recipient: letter?.address ?? null, print_reference: job.reference ?? null, print_metadata: job.metadata ?? {}, ...row, ...fromList };
	};
	return await Promise.all(items.map(async (item, itemIndex) => ({ ...item, json: { ...item.json, ...(await detailed(item, itemIndex)) } })));
}
