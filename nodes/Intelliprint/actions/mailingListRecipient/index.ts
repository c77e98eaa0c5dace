import type { INodeProperties } from 'n8n-workflow';

import { describeResource } from '../operations';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { create, del as delete, get, getMany, update };

export const description: INodeProperties[] = describeResource('mailingListRecipient', 'create', [
	[{ name: 'Add', value: 'create', description: 'Add the input items to a mailing list as recipients', action: 'Add recipients to a mailing list' }, create],
	[{ name: 'Delete', value: 'delete', description: 'Remove a recipient from a mailing list', action: 'Delete a mailing list recipient' }, del],
	[{ name: 'Get', value: 'get', description: 'Get a recipient of a mailing list', action: 'Get a mailing list recipient' }, get],
	[{ name: 'Get Many', value: 'getMany', description: 'List the recipients of a mailing list', action: 'Get many mailing list recipients' }, getMany],
	[{ name: 'Update', value: 'update', description: "Change a recipient's address or variables", action: 'Update a mailing list recipient' }, update],
]);
