import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getLocatorId, textValue } from '../../values';

export const recipientIdField: INodeProperties = {
	displayName: 'Recipient ID',
	name: 'recipientId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. mlr_3c9d1a',
	description: 'The ID of the recipient on the list, as Get Many or Add return it',
};

/** The path of one recipient, from the list locator and the recipient ID of the item. */
export function recipientPath(ctx: IExecuteFunctions, itemIndex: number): string {
	const listId = getLocatorId(ctx, itemIndex, 'mailingList', 'mal_', 'mailing list');
	const id = textValue(ctx, itemIndex, ctx.getNodeParameter('recipientId', itemIndex, ''), 'Recipient ID')?.trim() ?? '';
	if (!/^[A-Za-z0-9_-]+$/.test(id)) {
		throw new NodeOperationError(ctx.getNode(), id ? `"${id.slice(0, 60)}" is not a valid recipient ID` : 'No recipient ID given', {
			itemIndex,
			description: 'Give the ID of a recipient of this list, as Mailing List Recipient → Get Many returns it.',
		});
	}
	return `/mailing_lists/${listId}/recipients/${id}`;
}
