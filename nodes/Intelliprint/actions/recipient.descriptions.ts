import type { INodeProperties } from 'n8n-workflow';

/**
 * Where a recipient's address and variables come from in each input item. Shared by Print Job →
 * Create (from content) and the mailing list operations that take recipients from items. Each
 * value is an expression over the item, so any column layout can be mapped.
 */
export const recipientFields: INodeProperties[] = [
	{
		displayName: 'Recipient Name',
		name: 'recipientName',
		type: 'string',
		default: '={{ $json.name }}',
		required: true,
		description: "The addressee's name, from the item",
	},
	{
		displayName: 'Address Lines',
		name: 'recipientAddress',
		type: 'string',
		default: '={{ $json.address }}',
		required: true,
		description:
			'The address without the name and postcode. Lines kept in separate fields can be given as a list (an expression with square brackets around the fields): empty ones are dropped and the rest joined one per line.',
	},
	{
		displayName: 'Postcode',
		name: 'recipientPostcode',
		type: 'string',
		default: '={{ $json.postcode }}',
		required: true,
	},
	{
		displayName: 'Country',
		name: 'recipientCountry',
		type: 'string',
		default: '={{ $json.country }}',
		placeholder: 'e.g. GB',
		description: 'Two-letter country code (ISO 3166-1); empty means GB',
	},
	{
		displayName: 'Variables',
		name: 'variables',
		type: 'options',
		default: 'all',
		description: 'Values for the {{placeholders}} in the letter, taken from the item',
		options: [
			{ name: 'All Fields of the Item', value: 'all', description: 'Every text, number or true/false field; nested ones are left out' },
			{ name: 'Chosen Fields', value: 'chosen' },
			{ name: 'None', value: 'none' },
		],
	},
	{
		displayName: 'Fields to Use',
		name: 'variableFields',
		type: 'string',
		default: '',
		placeholder: 'e.g. first_name, amount_due, due_date',
		displayOptions: { show: { variables: ['chosen'] } },
		description: 'Comma-separated names of the item fields to fill placeholders with',
	},
];
