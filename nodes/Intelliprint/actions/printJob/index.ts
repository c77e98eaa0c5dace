import type { INodeProperties } from 'n8n-workflow';

import { describeResource } from '../operations';
import { liveLettersFields } from '../tool.descriptions';
import * as confirm from './confirm.operation';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { confirm, create, del as delete, get, getMany, update };

export const description: INodeProperties[] = [
	...liveLettersFields,
	...describeResource('printJob', 'create', [
		[
			{
				name: 'Cancel or Delete',
				value: 'delete',
				description: 'Delete a draft, or cancel the unprinted letters of a confirmed job',
				action: 'Cancel or delete a print job',
			},
			del,
		],
		[{ name: 'Confirm', value: 'confirm', description: 'Send a draft print job to print', action: 'Confirm a print job' }, confirm],
		[
			{
				name: 'Create',
				value: 'create',
				description: 'Create letters or postcards from your items, a mailing list or a PDF',
				action: 'Create a print job',
			},
			create,
		],
		[{ name: 'Get', value: 'get', description: 'Get a print job and its letters', action: 'Get a print job' }, get],
		[{ name: 'Get Many', value: 'getMany', description: 'List print jobs', action: 'Get many print jobs' }, getMany],
		[{ name: 'Update', value: 'update', description: 'Change a draft print job', action: 'Update a print job' }, update],
	]),
];
