import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LETTER_STATUSES } from '../../helpers/letterStatuses';
import { printJobItems, type PrintJob } from '../../helpers/output';
import { apiRequestAllItems } from '../../transport';
import { printJobOutputFields, returnAllOrLimit } from '../common.descriptions';

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
				displayName: 'Test Mode',
				name: 'testmode',
				type: 'boolean',
				default: true,
				description: 'Whether to list test jobs (on) or live jobs (off). Without this filter only live jobs are listed.',
			},
		],
	},
	...printJobOutputFields,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (filters.testmode !== undefined) qs.testmode = filters.testmode;
	if (filters.confirmed !== undefined) qs.confirmed = filters.confirmed;
	if (filters.reference) qs.reference = filters.reference;
	const statuses = (filters.letterStatus as string[] | undefined) ?? [];
	if (statuses.length) qs['letters.status'] = statuses.join(',');

	const max = returnAll ? undefined : (this.getNodeParameter('limit', itemIndex) as number);
	const jobs = await apiRequestAllItems<PrintJob>(this, '/prints', qs, { max, itemIndex });
	return await printJobItems(this, jobs, itemIndex);
}
