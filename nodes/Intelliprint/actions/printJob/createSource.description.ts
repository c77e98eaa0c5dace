import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputBinaryField, mailingListLocator } from '../common.descriptions';
import { recipientProperties } from '../recipient.descriptions';
import { filledByModel, toolDefault } from '../tool.descriptions';

/**
 * Version 1.2: what the letters are made of (Source) and who they go to (Recipients) are two
 * choices, as in the API, so every source reaches every kind of recipient it can. Earlier versions
 * had one list mixing both; it stays for their stored workflows.
 */
const FROM_V12: IDisplayOptions['show'] = { '@version': [{ _cnd: { gte: 1.2 } }] };
const BEFORE_V12: IDisplayOptions['show'] = { '@version': [{ _cnd: { lt: 1.2 } }] };

// The option lists are written out: n8n's linter checks each field's default against options it can read.
const ALL_ITEMS = "One print job with a letter to each item's address: a mail run";
const EACH_ITEM = "A print job of one letter to each item's address";
const MAILING_LIST = 'Everyone on a mailing list stored in Intelliprint';

/** A PDF needs no placeholder values; text, HTML and templates are filled in from them. */
const PLACEHOLDER_FIELDS = new Set(['variables', 'variableFields']);
const itemRecipients = updateDisplayOptions({ show: { recipientsFrom: ['allItems', 'eachItem'] } }, recipientProperties).map((property) =>
	PLACEHOLDER_FIELDS.has(property.name) ? { ...property, displayOptions: { ...property.displayOptions, show: { ...property.displayOptions?.show, source: ['content', 'template'] } } } : property,
);

/** The Source field of a node version; in an AI agent's tool it starts at content: a model has no file to give, but it can write a letter. */
function sourceField(show: IDisplayOptions['show'], options: INodeProperties['options']): INodeProperties[] {
	return toolDefault({ displayName: 'Source', name: 'source', type: 'options', noDataExpression: true, default: 'pdf', displayOptions: { show }, options }, 'content');
}

/** Where the letters of a new print job come from, and who they go to. */
/** Letter or postcard: Create's, and Address → Check's (a postcard goes by UK services only). */
export const typeField: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	noDataExpression: true,
	default: 'letter',
	options: [
		{ name: 'Letter', value: 'letter' },
		{ name: 'Postcard', value: 'postcard', description: 'Printed on card; letter-only options are hidden' },
	],
};

export const sourceFields: INodeProperties[] = [
	...sourceField(FROM_V12, [
		{ name: 'PDF File', value: 'pdf', description: 'A finished PDF in a binary field of the item' },
		{ name: 'PDF at a URL', value: 'url', description: 'A PDF that Intelliprint downloads from a link' },
		{ name: 'Template', value: 'template', description: 'A letter designed in your Intelliprint account, its {{placeholders}} filled in per recipient' },
		{ name: 'Text or HTML', value: 'content', description: 'The letter written here, its {{placeholders}} filled in per recipient' },
	]),
	...sourceField(BEFORE_V12, [
		{ name: 'PDF File', value: 'pdf', description: 'A finished PDF in a binary field of the item' },
		{
			name: 'Content for Recipients From Items',
			value: 'content',
			description: 'Letter text or HTML with {{placeholders}}; one letter per recipient, addresses taken from the items',
		},
		{ name: 'Content for a Mailing List', value: 'mailingList', description: 'Letter text or HTML sent to everyone on a stored mailing list' },
		{ name: 'PDF at a URL', value: 'url', description: 'A PDF that Intelliprint downloads from a link' },
	]),
	{ ...inputBinaryField('the PDF to print'), displayOptions: { show: { source: ['pdf'] } } },
	...filledByModel(
		{
			displayName: 'PDF URL',
			name: 'fileUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://example.com/invoices/1234.pdf',
			displayOptions: { show: { source: ['url'] } },
			description: 'A public http(s) link to the PDF; Intelliprint fetches it when the job is created',
		},
		{ key: 'pdf_url', description: 'A public https link to the finished PDF to print and post' },
	),
	{
		displayName: 'Template ID',
		name: 'template',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. tmpl_abc123',
		displayOptions: { show: { source: ['template'] } },
		description:
			"The ID of a template designed in your Intelliprint dashboard (Intelliprint offers no list of them to pick from). Its {{placeholders}} are filled from each recipient's variables.",
	},
	...filledByModel(
		{
			displayName: 'Content',
			name: 'content',
			type: 'string',
			typeOptions: { rows: 8 },
			default: '',
			required: true,
			placeholder: 'e.g. <p>Dear {{first_name}},</p><p>Your balance is £{{amount_due}}.</p>',
			displayOptions: { show: { source: ['content', 'mailingList'] } },
			description:
				'The letter as plain text or HTML. {{name}}-style placeholders are filled from each recipient\'s variables. Written in fixed mode they stay as they are; inside an n8n expression write them as {{ "{{first_name}}" }}.',
		},
		{
			key: 'letter_content',
			description:
				"The letter's full text, as plain text or simple HTML (<p>, <b>, <br>). Leave out the recipient's address: it is printed in the envelope window from the address arguments.",
		},
	),
	{
		displayName: 'Recipients',
		name: 'recipientsFrom',
		type: 'options',
		noDataExpression: true,
		default: 'inFile',
		displayOptions: { show: { ...FROM_V12, source: ['pdf', 'url'] } },
		options: [
			{ name: 'Addresses in the PDF', value: 'inFile', description: 'Each letter in the PDF shows its own address in the envelope window' },
			{ name: 'All Input Items (One Print Job)', value: 'allItems', description: "The PDF of the first item, once to each item's address: one print job" },
			{ name: 'Each Item (One Print Job per Item)', value: 'eachItem', description: "Each item's PDF to its own address: a print job per item" },
			{ name: 'Mailing List', value: 'mailingList', description: 'The same PDF once to everyone on a mailing list stored in Intelliprint' },
		],
	},
	{
		displayName: 'Recipients',
		name: 'recipientsFrom',
		type: 'options',
		noDataExpression: true,
		default: 'allItems',
		displayOptions: { show: { ...FROM_V12, source: ['template', 'content'] } },
		options: [
			{ name: 'All Input Items (One Print Job)', value: 'allItems', description: ALL_ITEMS },
			{ name: 'Each Item (One Print Job per Item)', value: 'eachItem', description: EACH_ITEM },
			{ name: 'Mailing List', value: 'mailingList', description: MAILING_LIST },
		],
	},
	{
		displayName: 'Recipients',
		name: 'recipientsFrom',
		type: 'options',
		noDataExpression: true,
		default: 'allItems',
		displayOptions: { show: { ...BEFORE_V12, source: ['content'] } },
		options: [
			{ name: 'All Input Items (One Print Job)', value: 'allItems', description: ALL_ITEMS },
			{ name: 'Each Item (One Print Job per Item)', value: 'eachItem', description: EACH_ITEM },
		],
	},
	...itemRecipients,
	{ ...mailingListLocator, displayOptions: { show: { recipientsFrom: ['mailingList'] } } },
	{ ...mailingListLocator, displayOptions: { show: { ...BEFORE_V12, source: ['mailingList'] } } },
	typeField,
];
