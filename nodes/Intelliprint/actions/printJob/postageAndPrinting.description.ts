import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** Settings that only letters have: hidden when Create makes postcards. */
export const LETTERS_ONLY: IDisplayOptions = { hide: { '/type': ['postcard'] } };

/** How the letters are printed and posted: the API's `postage` and `printing` objects. */
export const postageAndPrintingFields: INodeProperties[] = [
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
						description:
							'The Royal Mail (or courier) service letters in the UK go by (Jersey, Guernsey, the Isle of Man and BFPO too); it sets the price and the delivery time. Rows abroad go by Postage Abroad.',
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
						displayName: 'Postage Abroad',
						name: 'postageAbroad',
						type: 'options',
						default: 'international',
						displayOptions: { show: { '/operation': ['create', 'check'] } },
						description: 'What happens to a row addressed outside the UK. A mail run with rows in the UK and abroad becomes one print job per service.',
						options: [
							{ name: 'International', value: 'international', description: "Posted by Intelliprint's International service" },
							{ name: 'Refuse the Row', value: 'refuse', description: 'The row is refused before anything is sent, with the reason' },
						],
					},
					{
						displayName: 'Ideal Envelope',
						name: 'idealEnvelope',
						type: 'options',
						default: 'c5',
						displayOptions: LETTERS_ONLY,
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
						description: 'Whether to print on both sides of the paper (fewer sheets, lower postage for long letters)',
						displayOptions: LETTERS_ONLY,
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
						displayOptions: { ...LETTERS_ONLY, show: { doubleSided: ['mixed'] } },
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
];
