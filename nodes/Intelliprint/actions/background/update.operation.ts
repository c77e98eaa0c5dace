import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { backgroundItems, type Background } from '../../results';
import { getBackgroundId, textValue } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { backgroundLocator, backgroundPreviewFields } from '../common.descriptions';

const properties: INodeProperties[] = [
	backgroundLocator('background', 'Background', 'The background to change'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. Company letterhead', description: 'The name the background is listed under' },
			{
				displayName: 'Team',
				name: 'team',
				type: 'string',
				default: '',
				placeholder: 'e.g. team_4f9a2c',
				description: 'The team that may use the background',
			},
		],
	},
	...backgroundPreviewFields,
];

export const description = updateDisplayOptions({ show: { resource: ['background'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getBackgroundId(this, itemIndex);
	const given = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const fields: IDataObject = {};
	for (const [key, label] of [['name', 'Name'], ['team', 'Team']] as const) {
		if (key in given) fields[key] = textValue(this, itemIndex, given[key], label) ?? '';
	}
	if (Object.keys(fields).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', { itemIndex, description: 'Add Name or Team under "Update Fields".' });
	}
	const background = await apiRequest<Background>(this, { expect: EXPECT.background, method: 'PATCH', path: `/backgrounds/${id}`, json: fields, itemIndex });
	return await backgroundItems(this, [background], itemIndex);
}
