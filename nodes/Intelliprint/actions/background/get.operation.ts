import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { backgroundItems, type Background } from '../../results';
import { getBackgroundId } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { backgroundLocator, backgroundPreviewFields } from '../common.descriptions';

const properties: INodeProperties[] = [
	backgroundLocator('background', 'Background', 'The background to get'),
	...backgroundPreviewFields,
];

export const description = updateDisplayOptions({ show: { resource: ['background'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getBackgroundId(this, itemIndex);
	const background = await apiRequest<Background>(this, { expect: EXPECT.background, method: 'GET', path: `/backgrounds/${id}`, itemIndex });
	return await backgroundItems(this, [background], itemIndex);
}
