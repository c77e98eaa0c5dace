import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getLocatorId } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { mailingListLocator } from '../common.descriptions';

const properties: INodeProperties[] = [{ ...mailingListLocator, description: 'The mailing list to delete, with its recipients' }];

export const description = updateDisplayOptions({ show: { resource: ['mailingList'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getLocatorId(this, itemIndex, 'mailingList', 'mal_', 'mailing list');
	const result = await apiRequest<IDataObject>(this, { expect: EXPECT.mailingList, method: 'DELETE', path: `/mailing_lists/${id}`, itemIndex });
	return [{ json: result, pairedItem: { item: itemIndex } }];
}
