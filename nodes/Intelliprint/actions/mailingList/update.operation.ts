import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { sendRecipients } from '../../helpers/mailingLists';
import { getLocatorId } from '../../helpers/parameters';
import { recipientsForRun } from '../../helpers/recipients';
import { textValue } from '../../helpers/values';
import { mailingListLocator } from '../common.descriptions';
import { recipientProperties } from '../recipient.descriptions';
import { addressValidationOption } from './shared.descriptions';

const properties: INodeProperties[] = [
	mailingListLocator,
	{
		displayName: 'New Name',
		name: 'newName',
		type: 'string',
		default: '',
		description: 'Leave empty to keep the current name',
	},
	{
		displayName: 'Recipients',
		name: 'recipientsAction',
		type: 'options',
		noDataExpression: true,
		default: 'keep',
		options: [
			{ name: 'Keep As They Are', value: 'keep' },
			{ name: 'Add the Input Items', value: 'append', description: 'A recipient for every input item, after the ones on the list' },
			{ name: 'Replace With the Input Items', value: 'replace', description: 'The list then holds exactly the input items' },
		],
	},
	...updateDisplayOptions({ show: { recipientsAction: ['append', 'replace'] } }, recipientProperties),
	addressValidationOption,
];

export const description = updateDisplayOptions({ show: { resource: ['mailingList'], operation: ['update'] } }, properties);

/** Adding or replacing recipients takes every input item for one list. */
export function runsOnce(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('recipientsAction', 0, 'keep') !== 'keep';
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const fromItems = runsOnce.call(this);
	const { recipients, itemIndexes, errorItems: errors } = recipientsForRun(this, fromItems, itemIndex);
	if (fromItems && !recipients.length) return errors;
	const first = itemIndexes[0];
	const id = getLocatorId(this, first, 'mailingList', 'mal_', 'mailing list');
	const changes: IDataObject = {};
	const name = textValue(this, first, this.getNodeParameter('newName', first, ''), 'New Name');
	if (name) changes.name = name;
	if (this.getNodeParameter('recipientsAction', first, 'keep') === 'replace') changes.delete_old_recipients = true;
	if (this.getNodeParameter('validateAddresses', first, false) === true) changes.address_validation = { requested: true };
	if (!fromItems && Object.keys(changes).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', {
			itemIndex,
			description: 'Give a New Name, choose to add or replace recipients, or turn on Validate Addresses.',
		});
	}
	const list = await sendRecipients(this, id, recipients, first, changes);
	return [{ json: list, pairedItem: itemIndexes.map((item) => ({ item })) }, ...errors];
}
