import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getBackgroundId } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { backgroundLocator } from '../common.descriptions';

const properties: INodeProperties[] = [backgroundLocator('background', 'Background', 'The background to delete')];

export const description = updateDisplayOptions({ show: { resource: ['background'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getBackgroundId(this, itemIndex);
	const result = await apiRequest<IDataObject>(this, { expect: EXPECT.background, method: 'DELETE', path: `/backgrounds/${id}`, itemIndex });
	return [{ json: result, pairedItem: { item: itemIndex } }];
}
