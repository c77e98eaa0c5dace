import type { INodeProperties } from 'n8n-workflow';

import { backgroundLocator } from '../common.descriptions';
import { LETTERS_ONLY, postageAndPrintingFields } from './postageAndPrinting.description';

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
		displayOptions: LETTERS_ONLY,
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
		displayOptions: LETTERS_ONLY,
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
						description: 'Where the document goes in each letter',
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
					{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'e.g. batch', description: 'Letters, digits, _ and - only' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. 2026-11', description: 'Text stored with the print job, returned when you get it' },
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
						displayName: 'X in Millimetres',
						name: 'x',
						type: 'number',
						typeOptions: { numberPrecision: 1 },
						default: 0,
						description: 'Millimetres to move right (negative moves left)',
					},
					{
						displayName: 'Y in Millimetres',
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
	...postageAndPrintingFields,
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
		// Letters to given recipients are the whole PDF once each: splitting is for a PDF of many letters.
		displayOptions: { hide: { '/recipientsFrom': ['allItems', 'eachItem', 'mailingList'] } },
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
						description: 'Where one letter ends and the next begins',
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
						description: 'Text that appears once in each letter, on its first page (case-sensitive)',
					},
					{
						displayName: 'Pages per Letter',
						name: 'pages',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 1,
						displayOptions: { show: { method: ['split_on_pages'] } },
						description: 'How many pages of the PDF make one letter',
					},
				],
			},
		],
	},
];
