import type { INodeProperties } from 'n8n-workflow';

/** Print job IDs look like `print_` followed by letters and digits. */
export const PRINT_JOB_ID_REGEX = '^print_[A-Za-z0-9]+$';

export const printJobLocator: INodeProperties = {
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

/** What a print job operation hands downstream: the job, or its letters one item each. */
export const printJobOutputFields: INodeProperties[] = [
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'printJob',
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
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return only the fields people usually use, with costs also as GBP decimals, instead of the full API response',
	},
];
