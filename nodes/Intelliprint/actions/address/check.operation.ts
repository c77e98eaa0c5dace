import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeOperationError } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { postageOf, sameRecipientKey, recipientOf } from '../../addresses';
import { recipientProperties } from '../recipient.descriptions';
import { postageAndPrintingFields } from '../printJob/postageAndPrinting.description';
import { typeField } from '../printJob/createSource.description';

/** Create's Postage with only what decides the service: a row's verdict is Create's for the same choice. */
const postage = postageAndPrintingFields.find((field) => field.name === 'postage')!;
const servicePostage: INodeProperties = {
	...postage,
	options: (postage.options as Array<{ name: string; displayName: string; values: INodeProperties[] }>).map((group) => ({
		...group,
		values: group.values.filter((field) => ['service', 'postageAbroad'].includes(field.name)),
	})),
};

const properties: INodeProperties[] = [
	{
		displayName: 'Nothing is sent: each item comes out with its verdict and its address as it would be posted',
		name: 'checkNotice',
		type: 'notice',
		default: '',
	},
	// Only the address: a check has no letter, so no variables.
	...recipientProperties.filter((property) => !['variables', 'variableFields'].includes(property.name)),
	{ ...typeField, description: 'What would be sent: a postcard goes by UK services only' },
	{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [servicePostage] },
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Checks a postal address before a letter is sent, and sends nothing: whether the country is known, the postcode has its country\'s format (a full UK postcode such as SW1A 1AA) and the address fits the envelope window. Returns address_ok; the address as it would be posted in posted_name, posted_address, posted_postcode and posted_country, and the postage service its letter would go by in postage_service (international for addresses abroad); and if refused address_field, address_problem (the reason) and address_fix (how to fix it).';

export const description = updateDisplayOptions({ show: { resource: ['address'], operation: ['check'] } }, properties);

/** All items at once: a later row can repeat an earlier one. */
export function runsOnce(this: IExecuteFunctions): boolean {
	return true;
}

/**
 * The fields the check adds to each item, every one on every item (empty where they do not apply), so rows written
 * back to a sheet get the same columns and a rerun's verdict replaces an earlier one whole. The item's own fields
 * are never changed: its `address` stays as the row had it, and the address as it would be posted has its own fields.
 */
export const CHECK_FIELDS = ['address_ok', 'address_problem', 'address_fix', 'address_field', 'duplicate_of_row', 'posted_name', 'posted_address', 'posted_postcode', 'posted_country', 'postage_service'] as const;

type Verdict = Record<(typeof CHECK_FIELDS)[number], string | number | boolean | null>;

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const firstRowOf = new Map<string, number>();
	return this.getInputData().map((item, itemIndex): INodeExecutionData => {
		const verdict: Verdict = {
			address_ok: false, address_problem: '', address_fix: '', address_field: '', duplicate_of_row: null,
			posted_name: '', posted_address: '', posted_postcode: '', posted_country: '', postage_service: '',
		};
		try {
			const { address } = recipientOf(this, itemIndex, false);
			const service = postageOf(this, itemIndex, address.country);
			const key = sameRecipientKey(address);
			const first = firstRowOf.get(key);
			if (first === undefined) firstRowOf.set(key, itemIndex);
			Object.assign(verdict, {
				address_ok: true, duplicate_of_row: first === undefined ? null : first + 1,
				posted_name: address.name, posted_address: address.line, posted_postcode: address.postcode, posted_country: address.country,
				postage_service: service,
			});
		} catch (caught) {
			// A refused address is this operation's answer, not its failure: it stays on the main output.
			// (recipientOf refuses with NodeOperationError only.)
			const error = caught as NodeOperationError;
			Object.assign(verdict, {
				address_problem: error.message.replace(/ \(row \d+\)$/, ''),
				address_fix: error.description ?? '',
				address_field: error.context.addressField ?? 'address',
			});
		}
		return { json: { ...item.json, ...(verdict as IDataObject) }, pairedItem: { item: itemIndex } };
	});
}
