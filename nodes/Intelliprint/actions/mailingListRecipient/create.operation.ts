import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeError } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { errorItem, forEveryRow, rowsFailed } from '../../results';
import { appendTo, recipientKey, RECIPIENTS_PER_REQUEST, sendInParts } from '../../building';
import { getLocatorId } from '../../values';
import { recipientsOfAllItems, type Recipient } from '../../addresses';
import { apiRequestAllItems } from '../../transport';
import { mailingListLocator } from '../common.descriptions';
import { recipientProperties } from '../recipient.descriptions';

const properties: INodeProperties[] = [mailingListLocator, ...recipientProperties];

export const description = updateDisplayOptions({ show: { resource: ['mailingListRecipient'], operation: ['create'] } }, properties);

/** All items are added at once, a thousand per request, instead of one request per item. */
export function runsOnce(): boolean {
	return true;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const run = recipientsOfAllItems(this);
	// Each row comes out as its own recipient (or error), in input order.
	const output = await forEveryRow(this, run, async () => {
		// Items may name different lists (an expression): each list gets its own requests, and its own outcome.
		const byList = new Map<string, { recipients: Recipient[]; itemIndexes: number[] }>();
		const output: INodeExecutionData[] = [];
		run.recipients.forEach((recipient, index) => {
			const itemIndex = run.itemIndexes[index];
			let listId: string;
			try {
				listId = getLocatorId(this, itemIndex, 'mailingList', 'mal_', 'mailing list');
			} catch (caught) {
				output.push(...rowsFailed(this, caught, [itemIndex]));
				return;
			}
			let rows = byList.get(listId);
			if (!rows) byList.set(listId, (rows = { recipients: [], itemIndexes: [] }));
			rows.recipients.push(recipient);
			rows.itemIndexes.push(itemIndex);
		});
		for (const [listId, rows] of byList) {
			const sent = await sendInParts(this, rows, appendTo(this, listId, rows.itemIndexes[0]));
			output.push(...sent.errorItems);
			if (!sent.sentRows.length) continue;
			try {
				output.push(...(await readBack(this, listId, sent.sentRows.map((itemIndex) => ({ recipient: rows.recipients[rows.itemIndexes.indexOf(itemIndex)], itemIndex })))));
			} catch (caught) {
				// The rows were added: the error must say so, or someone adds them again.
				const error = caught as NodeError;
				error.description = `${error.description ?? ''} The recipients were added to mailing list ${listId}, but could not be read back: do not add them again.`.trim();
				output.push(...rowsFailed(this, error, sent.sentRows));
			}
		}
		return output;
	});
	return output.sort((a, b) => pairedIndex(a) - pairedIndex(b));
}

function pairedIndex(item: INodeExecutionData): number {
	return (item.pairedItem as { item: number }).item;
}

/**
 * Appending answers with the list, not the new recipients: read the newest ones back to give each
 * item its recipient with ID (newest first: the API contract's list-order, checked at the list's door). An item
 * whose recipient is not found is an error that says it was added, so nobody adds it twice.
 */
async function readBack(
	ctx: IExecuteFunctions,
	listId: string,
	entries: Array<{ recipient: Recipient; itemIndex: number }>,
): Promise<INodeExecutionData[]> {
	const newest = await apiRequestAllItems<IDataObject>(
		ctx,
		`/mailing_lists/${listId}/recipients`,
		{ sort_field: 'created', sort_order: 'desc' },
		{ max: entries.length + RECIPIENTS_PER_REQUEST, itemIndex: entries[0].itemIndex },
	);
	const found = new Map<string, IDataObject[]>();
	for (const recipient of newest) {
		const key = recipientKey(recipient as { address?: IDataObject; variables?: IDataObject });
		found.set(key, [...(found.get(key) ?? []), recipient]);
	}
	return entries.map(({ recipient, itemIndex }) => {
		const match = found.get(recipientKey(recipient))?.shift();
		if (match) return { json: match, pairedItem: { item: itemIndex } };
		const error = new NodeApiError(ctx.getNode(), {}, {
			message: 'The recipient was added, but Intelliprint did not list it afterwards',
			description: `It was sent to mailing list ${listId}: do not add it again. Check the list with Mailing List Recipient → Get Many.`,
			itemIndex,
		});
		return errorItem(ctx, error, itemIndex);
	});
}
