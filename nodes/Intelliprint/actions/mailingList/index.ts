import type { INodeProperties } from 'n8n-workflow';

import { describeResource } from '../operations';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, del as delete, get, getMany, update };

export const description: INodeProperties[] = describeResource('mailingList', 'create', [
	[{ name: 'Create', value: 'create', description: 'Create a mailing list, with the input items as recipients', action: 'Create a mailing list' }, create],
	[{ name: 'Delete', value: 'delete', description: 'Delete a mailing list and its recipients', action: 'Delete a mailing list' }, del],
	[{ name: 'Get', value: 'get', description: 'Get a mailing list', action: 'Get a mailing list' }, get],
	[{ name: 'Get Many', value: 'getMany', description: 'List mailing lists', action: 'Get many mailing lists' }, getMany],
	[{ name: 'Update', value: 'update', description: 'Rename a mailing list, or add or replace its recipients', action: 'Update a mailing list' }, update],
]);
