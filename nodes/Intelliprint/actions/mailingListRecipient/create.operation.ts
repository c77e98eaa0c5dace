import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { errorItem } from '../../helpers/errorItem';
import { recipientKey, sendRecipients, RECIPIENTS_PER_REQUEST } from '../../helpers/mailingLists';
import { getLocatorId } from '../../helpers/parameters';
import { recipientsOfAllItems, type Recipient } from '../../helpers/recipients';
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
	const { recipients, itemIndexes, errorItems: output } = recipientsOfAllItems(this);
	// Items may name different lists (an expression): each list gets its own requests.
	const byList = new Map<string, Array<{ recipient: Recipient; itemIndex: number }>>();
	recipients.forEach((recipient, index) => {
		const itemIndex = itemIndexes[index];
		const listId = getLocatorId(this, itemIndex, 'mailingList', 'mal_', 'mailing list');
		let entries = byList.get(listId);
		if (!entries) byList.set(listId, (entries = []));
		entries.push({ recipient, itemIndex });
	});
	for (const [listId, entries] of byList) {
		await sendRecipients(this, listId, entries.map(({ recipient }) => recipient), entries[0].itemIndex);
		for (const item of await readBack(this, listId, entries)) output.push(item);
	}
	return output.sort((a, b) => pairedIndex(a) - pairedIndex(b));
}

function pairedIndex(item: INodeExecutionData): number {
	return (item.pairedItem as { item: number }).item;
}

/**
 * Appending answers with the list, not the new recipients: read the newest ones back to give each
 * item its recipient with ID. An item whose recipient is not found is an error that says it was
 * added, so nobody adds it twice.
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
