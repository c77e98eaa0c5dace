import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { backgroundItems, type Background } from '../../results';
import { apiRequestAllItems } from '../../transport';
import { backgroundPreviewFields, returnAllOrLimit } from '../common.descriptions';
import { listOptions, listQuery } from '../list.descriptions';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Team',
				name: 'team',
				type: 'string',
				default: '',
				placeholder: 'e.g. team_4f9a2c',
				description: 'Only backgrounds of this team',
			},
		],
	},
	listOptions([
		['Created', 'created'],
		['Name', 'name'],
	]),
	...backgroundPreviewFields,
];

export const description = updateDisplayOptions({ show: { resource: ['background'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const max = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const { qs, skip } = listQuery(this, itemIndex);
	if (filters.team) qs.team = filters.team;
	const backgrounds = await apiRequestAllItems<Background>(this, '/backgrounds', qs, { max, itemIndex, skip });
	return await backgroundItems(this, backgrounds, itemIndex);
}
