import type { INodeProperties } from 'n8n-workflow';

import { filledByModel } from './tool.descriptions';

/** Print job IDs look like `print_` followed by letters and digits. */
export const PRINT_JOB_ID_REGEX = '^print_[A-Za-z0-9]+$';
/** Background IDs look like `bg_` followed by letters and digits. */
export const BACKGROUND_ID_REGEX = '^bg_[A-Za-z0-9]+$';
/** Mailing list IDs look like `mal_` followed by letters and digits. */
export const MAILING_LIST_ID_REGEX = '^mal_[A-Za-z0-9]+$';

/** A mailing list picked from the account's lists or given by ID. */
export const mailingListLocator: INodeProperties = {
	displayName: 'Mailing List',
	name: 'mailingList',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'A mailing list stored in Intelliprint',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a mailing list…',
			typeOptions: { searchListMethod: 'searchMailingLists', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. mal_5b1e9c',
			validation: [
				{
					type: 'regex',
					properties: { regex: MAILING_LIST_ID_REGEX, errorMessage: 'A mailing list ID starts with "mal_", e.g. mal_5b1e9c' },
				},
			],
		},
	],
};

/** A background (letterhead) picked from the account's list or given by ID. */
export function backgroundLocator(name: string, displayName: string, description: string, required = true): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a background…',
				typeOptions: { searchListMethod: 'searchBackgrounds', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. bg_8d2f0a',
				validation: [
					{
						type: 'regex',
						properties: { regex: BACKGROUND_ID_REGEX, errorMessage: 'A background ID starts with "bg_", e.g. bg_8d2f0a' },
					},
				],
			},
		],
	};
}

const printJobChoice: INodeProperties = {
	displayName: 'Print Job',
	name: 'printJob',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The print job to work on',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a print job…',
			typeOptions: { searchListMethod: 'searchPrintJobs', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. print_4f9a2c7d1e',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: PRINT_JOB_ID_REGEX,
						errorMessage: 'A print job ID starts with "print_", e.g. print_4f9a2c7d1e',
					},
				},
			],
		},
	],
};

/** A print job picked from the list or given by ID; an AI agent gives its ID. */
export const printJobLocator = filledByModel(printJobChoice, {
	key: 'print_job_id',
	description: 'The print job ID, which starts with print_ (e.g. print_4f9a2c7d1e), from an earlier result',
});

/** What a print job operation hands downstream: the job, or its letters one item each. */
export const printJobOutputFields: INodeProperties[] = [
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'printJob',
		description: 'What comes out of the node for each print job',
		options: [
			{
				name: 'Print Job',
				value: 'printJob',
				description: 'One item per print job',
			},
			{
				name: 'One Item per Letter',
				value: 'letters',
				description: 'One item per letter, with its address, status and cost',
			},
		],
	},
	{
		displayName: 'Download Letter PDFs',
		name: 'downloadLetterPdfs',
		type: 'boolean',
		default: false,
		displayOptions: { show: { output: ['letters'] } },
		description: "Whether to download each letter's PDF into a binary field of its item",
	},
	{
		displayName: 'Put Letter PDF in Field',
		name: 'letterPdfBinaryProperty',
		type: 'string',
		default: 'data',
		displayOptions: { show: { output: ['letters'], downloadLetterPdfs: [true] } },
		hint: "The name of the output binary field for each letter's PDF",
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return only the fields people usually use, with costs also as GBP decimals, instead of the full API response',
	},
];

/** Backgrounds can come out with their PNG preview as a binary, e.g. to check a letterhead by eye. */
export const backgroundPreviewFields: INodeProperties[] = [
	{
		displayName: 'Download Preview',
		name: 'downloadPreview',
		type: 'boolean',
		default: false,
		description: "Whether to download the background's PNG preview into a binary property",
	},
	{
		displayName: 'Put Preview in Field',
		name: 'previewBinaryProperty',
		type: 'string',
		default: 'preview',
		displayOptions: { show: { downloadPreview: [true] } },
		hint: 'The name of the output binary field for the preview',
	},
];

/** Return All / Limit, as every Get Many has them. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	...filledByModel(
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
		{ key: 'limit', description: 'How many results to return at most, newest first, e.g. 10', type: 'number' },
	),
];

/** The binary property an operation reads its PDF from. */
export function inputBinaryField(what: string): INodeProperties {
	return {
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: `The name of the input binary field holding ${what}`,
	};
}

/** How many items go out at once; read by the router for the whole run from the first item. */
export const parallelItemsOption: INodeProperties = {
	displayName: 'Items in Parallel',
	name: 'parallelItems',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 100 },
	default: 0,
	description:
		"How many items are sent at the same time. 0 lets the node choose: as many as the credential's rate limit allows at once (at most 100). Lower it to hold fewer PDFs in memory at a time.",
};

/** A bound on one job's cost, where a live job can be confirmed (the credential's daily limit bounds the day). */
export const confirmUpToOption: INodeProperties = {
	displayName: 'Confirm Only Up To (GBP)',
	name: 'confirmUpTo',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 0,
	description:
		'The most one live job may cost (after tax) to be confirmed. A dearer job stays a draft, with an error giving its ID and cost, for a person to check. 0 means no limit.',
};
