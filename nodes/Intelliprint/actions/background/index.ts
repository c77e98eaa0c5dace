import type { INodeProperties } from 'n8n-workflow';

import { describeResource } from '../operations';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, del as delete, get, getMany, update };

export const description: INodeProperties[] = describeResource('background', 'create', [
	[{ name: 'Create', value: 'create', description: 'Upload a letterhead PDF as a background', action: 'Create a background' }, create],
	[{ name: 'Delete', value: 'delete', description: 'Delete a background', action: 'Delete a background' }, del],
	[{ name: 'Get', value: 'get', description: 'Get a background', action: 'Get a background' }, get],
	[{ name: 'Get Many', value: 'getMany', description: 'List backgrounds', action: 'Get many backgrounds' }, getMany],
	[{ name: 'Update', value: 'update', description: "Rename a background or change its team", action: 'Update a background' }, update],
]);
