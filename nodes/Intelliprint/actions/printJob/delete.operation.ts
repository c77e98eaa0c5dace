import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { printJobItems, type PrintJob } from '../../results';
import { getPrintJobId } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { printJobLocator, printJobOutputFields } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName:
			'A draft is deleted. For a confirmed job, the letters not yet printed are cancelled and refunded, and the job is returned.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	...printJobLocator,
	...printJobOutputFields,
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Deletes a draft Intelliprint print job by its ID (print_…), or cancels the letters of a confirmed job that are not printed yet. Returns the job with a one-line summary.';

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getPrintJobId(this, itemIndex);
	const result = await apiRequest<PrintJob & IDataObject>(this, { expect: EXPECT.printJob, method: 'DELETE', path: `/prints/${id}`, itemIndex });
	if (result.deleted === true) {
		return [{ json: { id: result.id ?? id, object: result.object ?? 'print', deleted: true }, pairedItem: { item: itemIndex } }];
	}
	return await printJobItems(this, [result], itemIndex);
}
