import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getLocatorId } from '../../values';
import { apiRequestAllItems } from '../../transport';
import { mailingListLocator, returnAllOrLimit } from '../common.descriptions';
import { listOptions, listQuery } from '../list.descriptions';

const properties: INodeProperties[] = [
	mailingListLocator,
	...returnAllOrLimit,
	listOptions([
		['Created', 'created'],
		['Name', 'name'],
	]),
];

export const description = updateDisplayOptions({ show: { resource: ['mailingListRecipient'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const listId = getLocatorId(this, itemIndex, 'mailingList', 'mal_', 'mailing list');
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const max = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const { qs, skip } = listQuery(this, itemIndex);
	const recipients = await apiRequestAllItems<IDataObject>(this, `/mailing_lists/${listId}/recipients`, qs, { max, itemIndex, skip });
	return recipients.map((recipient) => ({ json: recipient, pairedItem: { item: itemIndex } }));
}
