import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest, EXPECT } from '../../transport';
import { mailingListLocator } from '../common.descriptions';
import { recipientIdField, recipientPath } from './shared.descriptions';

const properties: INodeProperties[] = [mailingListLocator, recipientIdField];

export const description = updateDisplayOptions({ show: { resource: ['mailingListRecipient'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const recipient = await apiRequest<IDataObject>(this, { expect: EXPECT.recipient, method: 'GET', path: recipientPath(this, itemIndex), itemIndex });
	return [{ json: recipient, pairedItem: { item: itemIndex } }];
}
