import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { forEveryRow } from '../../results';
import { appendTo, listItems, sendInParts, type RowsSent } from '../../building';
import { getLocatorId, textValue } from '../../values';
import { recipientsOfAllItems, type Recipient } from '../../addresses';
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
	if (!runsOnce.call(this)) return listItems(await updateList(this, { recipients: [], itemIndexes: [itemIndex] }, false));
	const run = recipientsOfAllItems(this);
	return await forEveryRow(this, run, async () => listItems(await updateList(this, run, true)));
}

async function updateList(ctx: IExecuteFunctions, rows: { recipients: Recipient[]; itemIndexes: number[] }, fromItems: boolean): Promise<RowsSent> {
	const first = rows.itemIndexes[0];
	const id = getLocatorId(ctx, first, 'mailingList', 'mal_', 'mailing list');
	const changes: IDataObject = {};
	const name = textValue(ctx, first, ctx.getNodeParameter('newName', first, ''), 'New Name');
	if (name) changes.name = name;
	if (ctx.getNodeParameter('recipientsAction', first, 'keep') === 'replace') changes.delete_old_recipients = true;
	if (ctx.getNodeParameter('validateAddresses', first, false) === true) changes.address_validation = { requested: true };
	if (!fromItems && Object.keys(changes).length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Nothing to update', {
			itemIndex: first,
			description: 'Give a New Name, choose to add or replace recipients, or turn on Validate Addresses.',
		});
	}
	return await sendInParts(ctx, rows, appendTo(ctx, id, first, changes));
}
