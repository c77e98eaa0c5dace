import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { forEveryRow, recordCreated } from '../../results';
import { appendTo, listItems, sendInParts, type MailingList, type RowsSent } from '../../building';
import { recipientsOfAllItems, type Recipient } from '../../addresses';
import { textValue } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { recipientProperties } from '../recipient.descriptions';
import { addressValidationOption } from './shared.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Customers with overdue invoices',
	},
	{
		displayName: 'Add Input Items as Recipients',
		name: 'addRecipients',
		type: 'boolean',
		default: true,
		description: 'Whether to make one list holding a recipient for every input item (otherwise one empty list per item)',
	},
	...updateDisplayOptions({ show: { addRecipients: [true] } }, recipientProperties),
	addressValidationOption,
];

export const description = updateDisplayOptions({ show: { resource: ['mailingList'], operation: ['create'] } }, properties);

export function runsOnce(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('addRecipients', 0, true) === true;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	if (!runsOnce.call(this)) return listItems(await createList(this, { recipients: [], itemIndexes: [itemIndex] }));
	const run = recipientsOfAllItems(this);
	return await forEveryRow(this, run, async () => listItems(await createList(this, run)));
}

/** The list is created with the first thousand rows; the rest are appended, a thousand per request. */
async function createList(ctx: IExecuteFunctions, rows: { recipients: Recipient[]; itemIndexes: number[] }): Promise<RowsSent> {
	const first = rows.itemIndexes[0];
	const json: IDataObject = { name: textValue(ctx, first, ctx.getNodeParameter('name', first, ''), 'Name') ?? '' };
	if (ctx.getNodeParameter('validateAddresses', first, false) === true) json.address_validation = { requested: true };
	let refused: unknown;
	return await sendInParts(ctx, rows, async (part, index, list) => {
		if (list) return await appendTo(ctx, list.id, first)(part, index);
		// Without the list its later parts have nowhere to go: they share the refusal of its creation.
		if (refused) throw refused;
		try {
			const created = await apiRequest<MailingList>(ctx, { expect: EXPECT.mailingList, method: 'POST', path: '/mailing_lists', json: { ...json, ...(part.length ? { recipients: part } : {}) }, itemIndex: first });
			recordCreated(ctx, first, created.id);
			return created;
		} catch (error) {
			throw (refused = error);
		}
	});
}
