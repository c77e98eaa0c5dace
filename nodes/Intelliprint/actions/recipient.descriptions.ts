import type { INodeProperties } from 'n8n-workflow';

import { filledByModel, toolDefault } from './tool.descriptions';

/**
 * Where a recipient's address and variables come from in each input item. Shared by Print Job →
 * Create (from content) and the mailing list operations that take recipients from items. Each
 * value is an expression over the item, so any column layout can be mapped; used by an AI agent,
 * the model gives them.
 */
export const recipientFields: INodeProperties[] = [
	...filledByModel(
		{
			displayName: 'Recipient Name',
			name: 'recipientName',
			type: 'string',
			default: '={{ $json.name }}',
			required: true,
			description: "The addressee's name, from the item",
		},
		{
			key: 'recipient_name',
			description: 'The full name of the person or company the letter is addressed to, e.g. Ann Example',
		},
	),
	...filledByModel(
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
			key: 'recipient_address',
			description:
				"The recipient's address without their name and postcode: street, town, one part per line or separated by commas, e.g. 1 High Street, London",
		},
	),
	...filledByModel(
		{
			displayName: 'Postcode',
			name: 'recipientPostcode',
			type: 'string',
			default: '={{ $json.postcode }}',
			required: true,
		},
		{
			key: 'recipient_postcode',
			description: "The recipient's postcode, e.g. SW1A 1AA",
		},
	),
	...filledByModel(
		{
			displayName: 'Country',
			name: 'recipientCountry',
			type: 'string',
			default: '={{ $json.country }}',
			placeholder: 'e.g. GB',
			description: 'Two-letter country code (ISO 3166-1); empty means GB',
		},
		{
			key: 'recipient_country',
			description: "The recipient's country as a two-letter code, e.g. GB for the United Kingdom",
		},
	),
	// A model's arguments are not letter variables: the letter's text is the model's own.
	...toolDefault(
		{
			displayName: 'Variables',
			name: 'variables',
			type: 'options',
			default: 'all',
			description: 'Values for the {{placeholders}} in the letter, taken from the item',
			options: [
				{
					name: 'All Fields of the Item',
					value: 'all',
					description: 'Every text, number or true/false field; nested ones are left out',
				},
				{ name: 'Chosen Fields', value: 'chosen' },
				{ name: 'None', value: 'none' },
			],
		},
		'none',
	),
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
