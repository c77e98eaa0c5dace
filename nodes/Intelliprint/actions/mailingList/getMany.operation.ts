import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MailingList } from '../../building';
import { apiRequestAllItems } from '../../transport';
import { returnAllOrLimit } from '../common.descriptions';
import { listOptions, listQuery } from '../list.descriptions';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	listOptions([
		['Created', 'created'],
		['Name', 'name'],
		['Recipients', 'recipients'],
	]),
];

export const description = updateDisplayOptions({ show: { resource: ['mailingList'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const max = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const { qs, skip } = listQuery(this, itemIndex);
	// Sorted as the API contract's mailing-lists says the SDK documents it (transport/contract.ts).
	const lists = await apiRequestAllItems<MailingList>(this, '/mailing_lists', qs, { max, itemIndex, skip });
	return lists.map((list) => ({ json: list, pairedItem: { item: itemIndex } }));
}
