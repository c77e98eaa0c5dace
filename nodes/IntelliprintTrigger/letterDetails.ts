import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { letterRow } from '../Intelliprint/results/letterRow';
import type { PrintJob } from '../Intelliprint/results/output';
import { apiRequest, EXPECT } from '../Intelliprint/transport';

/**
 * Add Letter Details: each event's letter with what a workflow needs to act on it, read from its print job with the
 * Intelliprint API credential once the delivery is answered (so a slow or failing read never costs the event): the
 * letter's `recipient`, the job's `print_reference` and `print_metadata`, and the row the letter came from (`row`,
 * `row_id`, `sent_key`: results/letterRow.ts). One read per print job for the events of a minute in this n8n process
 * (a job's letters, recipients and rows do not change), paced with the action node. A job that cannot be read still
 * starts the workflow with the event, `details_note` saying why (and is read again for the next event).
 */
const recent = new Map<string, { at: number; job: Promise<PrintJob | Error> }>();
const RECENT_MS = 60_000;

export async function withLetterDetails(ctx: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	for (const [id, read] of recent) if (Date.now() - read.at > RECENT_MS) recent.delete(id);
	const detailed = async (item: INodeExecutionData, itemIndex: number): Promise<IDataObject> => {
		const event = item.json;
		const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as IDataObject;
		const printId = event.print_id ?? data.print_id;
		const letterId = String(event.id ?? data.id ?? '');
		if (typeof printId !== 'string' || !/^print_\w+$/.test(printId)) return { details_note: 'The event names no print job, so there are no letter details to add.' };
		if (!recent.has(printId)) {
			const read = apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${printId}`, itemIndex });
			recent.set(printId, { at: Date.now(), job: read.catch((error: Error) => error) });
		}
		const job = await recent.get(printId)!.job;
		if (job instanceof Error) recent.delete(printId);
		if (job instanceof Error) return { details_note: `Print job ${printId} could not be read, so only the event is here: ${job.message}` };
		const letter = job.letters?.find((one) => one.id === letterId);
		return { recipient: letter?.address ?? null, print_reference: job.reference ?? null, print_metadata: job.metadata ?? {}, ...letterRow(job, letterId) };
	};
	return await Promise.all(items.map(async (item, itemIndex) => ({ ...item, json: { ...item.json, ...(await detailed(item, itemIndex)) } })));
}
