import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { alphabetical, textValue } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { mailingListLocator } from '../common.descriptions';
import { recipientIdField, recipientPath } from './shared.descriptions';

const ADDRESS_FIELDS: Array<[name: string, label: string, api: string]> = [
	['name', 'Name', 'name'],
	['addressLines', 'Address Lines', 'line'],
	['postcode', 'Postcode', 'postcode'],
	['country', 'Country', 'country'],
];

const properties: INodeProperties[] = [
	mailingListLocator,
	recipientIdField,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here change; the others are kept',
		options: alphabetical([
			...ADDRESS_FIELDS.map(([name, label]): INodeProperties => ({ displayName: label, name, type: 'string', default: '' })),
			{
				displayName: 'Variables',
				name: 'variables',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Variable',
				description: "The recipient's variables for {{placeholders}}; these replace the ones it had",
				options: [
					{
						displayName: 'Variable',
						name: 'variable',
						values: [
							{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. first_name' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. Ada' },
						],
					},
				],
			},
		]),
	},
];

export const description = updateDisplayOptions({ show: { resource: ['mailingListRecipient'], operation: ['update'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const json: IDataObject = {};
	const address: IDataObject = {};
	for (const [name, label, api] of ADDRESS_FIELDS) {
		if (name in fields) address[api] = textValue(this, itemIndex, fields[name], label) ?? '';
	}
	if (Object.keys(address).length) json.address = address;
	const entries = ((fields.variables as IDataObject | undefined)?.variable as Array<{ name: unknown; value: unknown }>) ?? [];
	if ('variables' in fields) {
		json.variables = Object.fromEntries(
			entries.map(({ name, value }) => [textValue(this, itemIndex, name, 'Variable Name') ?? '', textValue(this, itemIndex, value, 'Variable Value') ?? '']),
		);
	}
	if (Object.keys(json).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', { itemIndex, description: 'Add at least one field under "Update Fields".' });
	}
	const recipient = await apiRequest<IDataObject>(this, { expect: EXPECT.recipient, method: 'POST', path: recipientPath(this, itemIndex), json, itemIndex });
	return [{ json: recipient, pairedItem: { item: itemIndex } }];
}
