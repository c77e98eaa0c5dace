import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { recordCreated } from '../../helpers/ledger';
import { RECIPIENTS_PER_REQUEST, sendRecipients, type MailingList } from '../../helpers/mailingLists';
import { recipientsForRun } from '../../helpers/recipients';
import { textValue } from '../../helpers/values';
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
	const fromItems = runsOnce.call(this);
	const { recipients, itemIndexes, errorItems: errors } = recipientsForRun(this, fromItems, itemIndex);
	if (fromItems && !recipients.length) return errors;
	const first = itemIndexes[0];
	const name = textValue(this, first, this.getNodeParameter('name', first, ''), 'Name');
	const json: IDataObject = { name: name ?? '' };
	if (this.getNodeParameter('validateAddresses', first, false) === true) json.address_validation = { requested: true };
	// The list is created with the first thousand; the rest are appended, a thousand per request.
	const firstPart = recipients.slice(0, RECIPIENTS_PER_REQUEST);
	const rest = recipients.slice(RECIPIENTS_PER_REQUEST);
	if (firstPart.length) json.recipients = firstPart;
	let list = await apiRequest<MailingList>(this, { expect: EXPECT.mailingList, method: 'POST', path: '/mailing_lists', json, itemIndex: first });
	recordCreated(this, first, list.id);
	if (rest.length) list = await sendRecipients(this, list.id, rest, first);
	return [{ json: list, pairedItem: itemIndexes.map((item) => ({ item })) }, ...errors];
}
