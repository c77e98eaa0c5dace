import type { INodeProperties } from 'n8n-workflow';

import { backgroundLocator } from '../common.descriptions';

/**
 * The print job settings shared by Create and Update, grouped as the API's objects. Each inner
 * field shows only where it applies (a phrase only when splitting on a phrase, and so on).
 */
export const printJobSettingFields: INodeProperties[] = [
	{
		displayName: 'Background',
		name: 'background',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Background',
		description: 'Letterhead backgrounds printed behind the letters',
		options: [
			{
				displayName: 'Background',
				name: 'values',
				values: [
					backgroundLocator('firstPage', 'First Page', 'Background printed behind the first page of each letter', false),
					backgroundLocator('otherPages', 'Other Pages', 'Background printed behind every page after the first', false),
				],
			},
		],
	},
	{
		displayName: 'Confidential',
		name: 'confidential',
		type: 'boolean',
		default: false,
		description: 'Whether the letters are marked confidential and handled as such',
	},
	{
		displayName: 'Confirmation Email',
		name: 'confirmationEmail',
		type: 'boolean',
		default: true,
		description: 'Whether Intelliprint emails a confirmation when the job is confirmed',
	},
	{
		displayName: 'Extra Documents',
		name: 'extraDocuments',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Extra Document',
		description: 'PDFs added to every letter, such as terms and conditions or a leaflet',
		options: [
			{
				displayName: 'Document',
				name: 'document',
				values: [
					{
						displayName: 'Input Binary Field',
						name: 'binaryPropertyName',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. terms',
						description: 'The binary property of the input item holding the extra PDF',
					},
					{
						displayName: 'Order',
						name: 'order',
						type: 'options',
						default: 'last',
						options: [
							{ name: 'First', value: 'first', description: 'Before the letter' },
							{ name: 'Last', value: 'last', description: 'After the letter' },
							{ name: 'Custom', value: 'custom', description: 'At the position given by Ordering Number' },
						],
					},
					{
						displayName: 'Ordering Number',
						name: 'orderingNumber',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 1,
						displayOptions: { show: { order: ['custom'] } },
						description: 'Position among the extra documents; lower numbers come first',
					},
					{
						displayName: 'Apply Background',
						name: 'applyBackground',
						type: 'boolean',
						default: false,
						description: 'Whether the letter backgrounds are printed behind this document too',
					},
				],
			},
		],
	},
	{
		displayName: 'Metadata',
		name: 'metadata',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Metadata',
		description: 'Your own key/value pairs stored on the print job, e.g. a batch or customer number',
		options: [
			{
				displayName: 'Entry',
				name: 'entry',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'e.g. batch' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. 2026-11' },
				],
			},
		],
	},
	{
		displayName: 'Nudge',
		name: 'nudge',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Nudge',
		description: "Moves each letter's first page content so the address sits in the envelope window",
		options: [
			{
				displayName: 'Nudge',
				name: 'values',
				values: [
					{
						displayName: 'X (Mm)',
						name: 'x',
						type: 'number',
						typeOptions: { numberPrecision: 1 },
						default: 0,
						description: 'Millimetres to move right (negative moves left)',
					},
					{
						displayName: 'Y (Mm)',
						name: 'y',
						type: 'number',
						typeOptions: { numberPrecision: 1 },
						default: 0,
						description: 'Millimetres to move down (negative moves up)',
					},
				],
			},
		],
	},
	{
		displayName: 'Postage',
		name: 'postage',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Postage',
		options: [
			{
				displayName: 'Postage',
				name: 'values',
				values: [
					{
						displayName: 'Service',
						name: 'service',
						type: 'options',
						default: 'uk_second_class',
						options: [
							{ name: 'International', value: 'international' },
							{ name: 'Tracked 24', value: 'tracked_24' },
							{ name: 'Tracked 48', value: 'tracked_48' },
							{ name: 'UK First Class', value: 'uk_first_class' },
							{ name: 'UK First Class Signed For', value: 'uk_first_class_signed_for' },
							{ name: 'UK Second Class', value: 'uk_second_class' },
							{ name: 'UK Second Class Signed For', value: 'uk_second_class_signed_for' },
							{ name: 'UK Special Delivery', value: 'uk_special_delivery' },
							{ name: 'UK Special Delivery 9am', value: 'uk_special_delivery_9am' },
						],
					},
					{
						displayName: 'Ideal Envelope',
						name: 'idealEnvelope',
						type: 'options',
						default: 'c5',
						description: 'The envelope you would like; Intelliprint may upgrade to a larger one the service needs',
						options: [
							{ name: 'A4 Box', value: 'a4_box' },
							{ name: 'C4', value: 'c4' },
							{ name: 'C4 Plus', value: 'c4_plus' },
							{ name: 'C5', value: 'c5' },
						],
					},
					{
						displayName: 'Mail Date',
						name: 'mailDate',
						type: 'dateTime',
						default: '',
						description: 'The day to print and post; only the date counts. Leave empty to post as soon as possible.',
					},
				],
			},
		],
	},
	{
		displayName: 'Printing',
		name: 'printing',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Printing',
		options: [
			{
				displayName: 'Printing',
				name: 'values',
				values: [
					{
						displayName: 'Double Sided',
						name: 'doubleSided',
						type: 'options',
						default: 'no',
						options: [
							{ name: 'No', value: 'no' },
							{ name: 'Yes', value: 'yes' },
							{ name: 'Mixed', value: 'mixed', description: 'Only the pages listed below are double sided' },
						],
					},
					{
						displayName: 'Double Sided Pages',
						name: 'doubleSidedSpecificPages',
						type: 'string',
						default: '',
						placeholder: 'e.g. 1,3,5-7',
						displayOptions: { show: { doubleSided: ['mixed'] } },
						description: 'Page numbers (within each letter) printed double sided; ranges allowed',
					},
					{
						displayName: 'Premium Quality',
						name: 'premiumQuality',
						type: 'boolean',
						default: false,
						description: 'Whether to print in premium quality',
					},
				],
			},
		],
	},
	{
		displayName: 'Remove Letters With Phrase',
		name: 'removeLettersWithPhrase',
		type: 'string',
		default: '',
		placeholder: 'e.g. EMAIL ONLY',
		description: 'Letters containing this phrase anywhere are left out of the job',
	},
	{
		displayName: 'Splitting',
		name: 'splitting',
		type: 'fixedCollection',
		default: {},
		placeholder: 'Add Splitting',
		description: 'How one PDF becomes several letters',
		options: [
			{
				displayName: 'Splitting',
				name: 'values',
				values: [
					{
						displayName: 'Method',
						name: 'method',
						type: 'options',
						default: 'none',
						options: [
							{ name: 'None (One Letter)', value: 'none' },
							{ name: 'On Phrase', value: 'split_on_phrase', description: 'A new letter starts on each page containing the phrase' },
							{ name: 'On Pages', value: 'split_on_pages', description: 'Every N pages make one letter' },
						],
					},
					{
						displayName: 'Phrase',
						name: 'phrase',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. Dear',
						displayOptions: { show: { method: ['split_on_phrase'] } },
					},
					{
						displayName: 'Pages per Letter',
						name: 'pages',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 1,
						displayOptions: { show: { method: ['split_on_pages'] } },
					},
				],
			},
		],
	},
];
