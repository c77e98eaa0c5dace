import type { INodeProperties } from 'n8n-workflow';

import { filledByModel, toolDefault } from './tool.descriptions';

/**
 * Version 1.1: n8n's resource mapper. "Map Automatically" reads each item's fields by their names;
 * "Map Each Column Manually" (n8n's name for the mode) takes a field, a fixed value or an expression per recipient field.
 * Neither evaluates an expression per row for a plain field (see itemFields.ts).
 */
const recipientMapper: INodeProperties = {
	displayName: 'Recipient Fields',
	name: 'recipientFields',
	type: 'resourceMapper',
	noDataExpression: true,
	default: { mappingMode: 'autoMapInputData', value: null },
	required: true,
	typeOptions: {
		loadOptionsDependsOn: ['resource', 'operation'],
		resourceMapper: {
			resourceMapperMethod: 'getRecipientFields',
			mode: 'add',
			fieldWords: { singular: 'field', plural: 'fields' },
			addAllFields: true,
			multiKeyMatch: false,
			supportAutoMap: true,
		},
	},
	displayOptions: {
		show: { '@version': [{ _cnd: { gte: 1.1 } }] },
		hide: { '@tool': [true] },
	},
	description:
		'Automatically: fields named name, address (or address_line_1, address_line_2…, town, county), postcode and country. Manually: pick the item field for each.',
};

/** Version 1's four fields stay for its workflows and for an AI agent, whose model fills them. */
function versionOneOrTool(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) =>
		property.displayOptions?.hide?.['@tool']
			? {
					...property,
					displayOptions: {
						...property.displayOptions,
						show: { ...property.displayOptions.show, '@version': [1] },
					},
				}
			: property,
	);
}

/**
 * Where a recipient's address and variables come from in each input item. Shared by Print Job →
 * Create (from content) and the mailing list operations that take recipients from items. Used by
 * an AI agent, the model gives them.
 */
export const recipientProperties: INodeProperties[] = [
	recipientMapper,
	...versionOneOrTool([
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
	]),
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
