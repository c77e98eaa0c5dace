import type { INodeProperties } from 'n8n-workflow';

import * as confirm from './confirm.operation';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { confirm, create, del as delete, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['printJob'] } },
		options: [
			{ name: 'Cancel or Delete', value: 'delete', description: 'Delete a draft, or cancel the unprinted letters of a confirmed job', action: 'Cancel or delete a print job' },
			{ name: 'Confirm', value: 'confirm', description: 'Send a draft print job to print', action: 'Confirm a print job' },
			{ name: 'Create', value: 'create', description: 'Create a print job from a PDF', action: 'Create a print job' },
			{ name: 'Get', value: 'get', description: 'Get a print job and its letters', action: 'Get a print job' },
			{ name: 'Get Many', value: 'getMany', description: 'List print jobs', action: 'Get many print jobs' },
			{ name: 'Update', value: 'update', description: 'Change a draft print job', action: 'Update a print job' },
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...update.description,
	...confirm.description,
	...del.description,
	...getMany.description,
];
