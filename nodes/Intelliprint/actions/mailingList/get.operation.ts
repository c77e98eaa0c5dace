import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MailingList } from '../../building';
import { getLocatorId } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { mailingListLocator } from '../common.descriptions';

const properties: INodeProperties[] = [mailingListLocator];

export const description = updateDisplayOptions({ show: { resource: ['mailingList'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getLocatorId(this, itemIndex, 'mailingList', 'mal_', 'mailing list');
	const list = await apiRequest<MailingList>(this, { expect: EXPECT.mailingList, method: 'GET', path: `/mailing_lists/${id}`, itemIndex });
	return [{ json: list, pairedItem: { item: itemIndex } }];
}
