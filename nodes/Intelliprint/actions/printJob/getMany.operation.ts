import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LETTER_STATUSES } from '../../results';
import { printJobItems, type PrintJob } from '../../results';
import { apiRequestAllItems } from '../../transport';
import { printJobOutputFields, returnAllOrLimit } from '../common.descriptions';
import { listOptions, listQuery } from '../list.descriptions';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Confirmed',
				name: 'confirmed',
				type: 'boolean',
				default: true,
				description: 'Whether to list only confirmed jobs (on) or only drafts (off)',
			},
			{
				displayName: 'Letter Status',
				name: 'letterStatus',
				type: 'multiOptions',
				default: [],
				options: LETTER_STATUSES,
				description: 'Only jobs with at least one letter in one of these statuses',
			},
			{
				displayName: 'Reference',
				name: 'reference',
				type: 'string',
				default: '',
				placeholder: 'e.g. November invoices',
				description: 'Only jobs with exactly this reference',
			},
			{
				displayName: 'Returned Letters Acknowledged',
				name: 'returnedAcknowledged',
				type: 'boolean',
				default: false,
				description: 'Whether to list only jobs whose returned letters you have acknowledged (on) or not yet (off)',
			},
			{
				displayName: 'Test Mode',
				name: 'testmode',
				type: 'boolean',
				default: true,
				description: 'Whether to list test jobs (on) or live jobs (off). Without this filter only live jobs are listed.',
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				default: 'letter',
				options: [
					{ name: 'Letter', value: 'letter' },
					{ name: 'Postcard', value: 'postcard' },
				],
				description: 'Only print jobs of this type',
			},
		],
	},
	listOptions([
		['Confirmed At', 'confirmed_at'],
		['Cost', 'cost.amount'],
		['Cost After Tax', 'cost.after_tax'],
		['Created', 'created'],
		['Letters', 'letters'],
		['Mail Date', 'mail_date'],
		['Pages', 'pages'],
		['Reference', 'reference'],
		['Returned Date', 'letters.returned.date'],
		['Sheets', 'sheets'],
		['Type', 'type'],
	]),
	...printJobOutputFields,
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Lists Intelliprint print jobs, newest first: for each its ID (print_…), reference, test or live, confirmed or draft, letter count and cost in GBP, with a one-line summary.';

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const { qs, skip } = listQuery(this, itemIndex);
	if (filters.testmode !== undefined) qs.testmode = filters.testmode;
	if (filters.type) qs.type = filters.type;
	if (filters.returnedAcknowledged !== undefined) qs['letters.returned.acknowledged'] = filters.returnedAcknowledged;
	if (filters.confirmed !== undefined) qs.confirmed = filters.confirmed;
	if (filters.reference) qs.reference = filters.reference;
	const statuses = (filters.letterStatus as string[] | undefined) ?? [];
	if (statuses.length) qs['letters.status'] = statuses.join(',');

	const max = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const jobs = await apiRequestAllItems<PrintJob>(this, '/prints', qs, { max, itemIndex, skip });
	return await printJobItems(this, jobs, itemIndex);
}
