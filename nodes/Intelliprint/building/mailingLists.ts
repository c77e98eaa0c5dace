import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, EXPECT } from '../transport';
import { rowsFailed, rowsInWords } from '../results';
import type { Recipient } from '../addresses';

/** Recipients per request: large lists go in few requests, each well inside the API's body limit. */
export const RECIPIENTS_PER_REQUEST = 1000;

export interface MailingList extends IDataObject {
	id: string;
	name?: string;
	recipients?: number;
}

function chunks<T>(entries: T[], size = RECIPIENTS_PER_REQUEST): T[][] {
	const parts: T[][] = [];
	for (let start = 0; start < entries.length; start += size) parts.push(entries.slice(start, start + size));
	return parts;
}

/** What sending rows to a list did: the list as the last answer shows it, the rows it holds now, and the others' errors. */
export interface RowsSent {
	list?: MailingList;
	sentRows: number[];
	errorItems: INodeExecutionData[];
}

/**
 * Sends rows' recipients to a list in as few requests as the API allows (`send` makes one request of a part; the
 * first may create the list, or replace the old recipients and change other fields). A part the API refuses, or
 * that fails on the way, gives its error to its own rows and the parts after it are still sent (see everyRow.ts);
 * without Continue On Fail it stops the run, saying which rows were already on the list.
 */
export async function sendInParts(
	ctx: IExecuteFunctions,
	rows: { recipients: Recipient[]; itemIndexes: number[] },
	send: (part: Recipient[], index: number, list: MailingList | undefined) => Promise<MailingList>,
): Promise<RowsSent> {
	const result: RowsSent = { sentRows: [], errorItems: [] };
	// No rows to send (a list made or changed per item): one request, whose failure is the item's own.
	if (!rows.recipients.length) return { ...result, list: await send([], 0, undefined), sentRows: rows.itemIndexes };
	for (const [index, part] of chunks(rows.recipients.map((_, at) => at)).entries()) {
		const partRows = part.map((at) => rows.itemIndexes[at]);
		try {
			result.list = await send(part.map((at) => rows.recipients[at]), index, result.list);
			result.sentRows.push(...partRows);
		} catch (caught) {
			const before = result.sentRows.length && result.list ? `The recipients of ${rowsInWords(result.sentRows)} were added to mailing list ${result.list.id} before this.` : undefined;
			result.errorItems.push(...rowsFailed(ctx, caught, partRows, before));
		}
	}
	return result;
}

/**
 * One request of `sendInParts` to an existing list: appends a part, the first also carrying `first`'s changes (an
 * update appends recipients, as the API contract's mailing-lists takes from the SDK; contract.ts).
 */
export function appendTo(ctx: IExecuteFunctions, listId: string, itemIndex: number, first: IDataObject = {}) {
	return async (part: Recipient[], index: number): Promise<MailingList> => {
		const json: IDataObject = { ...(index === 0 ? first : {}), ...(part.length ? { recipients: part } : {}) };
		return await apiRequest<MailingList>(ctx, { expect: EXPECT.mailingList, method: 'POST', path: `/mailing_lists/${listId}`, json, itemIndex });
	};
}

/** A list and the rows it now holds as one item; each row not sent comes out with its own error. */
export function listItems(sent: RowsSent): INodeExecutionData[] {
	const listed = sent.list && sent.sentRows.length ? [{ json: sent.list, pairedItem: sent.sentRows.map((item) => ({ item })) }] : [];
	return [...listed, ...sent.errorItems];
}

/**
 * How a recipient is recognised when read back: the same address and variables, written the same
 * way (the API may store "1 Mill Lane, Bath" as two lines, or a postcode without its space).
 */
export function recipientKey(recipient: { address?: IDataObject; variables?: IDataObject }): string {
	const { name, line, postcode, country } = recipient.address ?? {};
	const lines = String(line ?? '').split(/\n|,/).map((part) => part.trim()).filter(Boolean);
	const variables = Object.entries(recipient.variables ?? {})
		.map(([key, value]) => [key, String(value)])
		.sort(([a], [b]) => a.localeCompare(b));
	return JSON.stringify([String(name ?? '').trim(), lines, String(postcode ?? '').replace(/\s+/g, '').toUpperCase(), country ?? 'GB', variables]);
}
