import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputBinaryField, mailingListLocator } from '../common.descriptions';
import { recipientProperties } from '../recipient.descriptions';
import { filledByModel, toolDefault } from '../tool.descriptions';

/** Where the letters of a new print job come from: a PDF, content for recipients, or a link. */
export const sourceFields: INodeProperties[] = [
	...toolDefault(
		{
			displayName: 'Source',
			name: 'source',
			type: 'options',
			noDataExpression: true,
			default: 'pdf',
			options: [
				{ name: 'PDF File', value: 'pdf', description: 'A finished PDF in a binary field of the item' },
				{
					name: 'Content for Recipients From Items',
					value: 'content',
					description: 'Letter text or HTML with {{placeholders}}; one letter per recipient, addresses taken from the items',
				},
				{ name: 'Content for a Mailing List', value: 'mailingList', description: 'Letter text or HTML sent to everyone on a stored mailing list' },
				{ name: 'PDF at a URL', value: 'url', description: 'A PDF that Intelliprint downloads from a link' },
			],
		},
		// A model has no file to give, but it can write a letter.
		'content',
	),
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
		default: 'allItems',
		displayOptions: { show: { source: ['content'] } },
		options: [
			{ name: 'All Input Items (One Print Job)', value: 'allItems', description: 'One print job with a letter for each item: a mail run' },
			{ name: 'Each Item (One Print Job per Item)', value: 'eachItem', description: 'A print job of one letter for every item' },
		],
	},
	...updateDisplayOptions({ show: { source: ['content'] } }, recipientProperties),
	{ ...mailingListLocator, displayOptions: { show: { source: ['mailingList'] } } },
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		noDataExpression: true,
		default: 'letter',
		options: [
			{ name: 'Letter', value: 'letter' },
			{ name: 'Postcard', value: 'postcard', description: 'Printed on card; letter-only options are hidden' },
		],
	},
];
