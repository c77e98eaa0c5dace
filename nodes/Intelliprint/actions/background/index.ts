import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, del as delete, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['background'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Upload a letterhead PDF as a background', action: 'Create a background' },
			{ name: 'Delete', value: 'delete', description: 'Delete a background', action: 'Delete a background' },
			{ name: 'Get', value: 'get', description: 'Get a background', action: 'Get a background' },
			{ name: 'Get Many', value: 'getMany', description: 'List backgrounds', action: 'Get many backgrounds' },
			{ name: 'Update', value: 'update', description: "Rename a background or change its team", action: 'Update a background' },
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...update.description,
	...del.description,
	...getMany.description,
];
