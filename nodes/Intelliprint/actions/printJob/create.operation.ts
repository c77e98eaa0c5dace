import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { createOptions } from './createOptions.description';
import { forEveryRow } from '../../results';
import { jobShape, sourceBody, takesVariables } from '../../building';
import { recipientsOfAllItems, refuseUnpostableRows } from '../../addresses';
import { printJobOutputFields } from '../common.descriptions';
import { toolDefault } from '../tool.descriptions';
import { sourceFields } from './createSource.description';
import { createJob } from './createJob';
import { sendMailRun } from './mailRun';

const properties: INodeProperties[] = [
	...sourceFields,
	{
		displayName: 'Confirm',
		name: 'confirmed',
		type: 'boolean',
		default: false,
		description:
			'Whether to send the job to print straight away. A confirmed live job is charged and posted and can no longer be changed; leave off to create a draft you can check first.',
	},
	// An agent's jobs are test jobs unless the builder says otherwise.
	...toolDefault(
		{
			displayName: 'Test Mode',
			name: 'testmode',
			type: 'boolean',
			default: false,
			description: 'Whether to create a test job, which is never printed, posted or charged',
		},
		true,
	),
	...printJobOutputFields,
	createOptions,
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Creates a print job in Intelliprint: letters printed in the UK and posted there or abroad (addresses abroad go by International postage, UK ones by the workflow\'s UK service). A live job costs money (roughly £1 per letter) once it is confirmed; a test job is free and is never printed or posted. Whether a new job is confirmed straight away is set by the workflow, not by an argument: the result field "confirmed" says which (a draft is not printed until confirmed). Returns the job: its ID (print_…), testmode, confirmed, letter count, cost in GBP and a one-line summary to report to the user.';

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['create'] } },
	properties,
);

/** Before any item is sent, under On Error: Stop Workflow: every row's address, the refused rows named in one error. */
export function checkItems(this: IExecuteFunctions): void {
	if (jobShape(this, 0).recipients === 'eachItem') refuseUnpostableRows(this);
}

/** A mail run (recipients from all input items) is one print job, made once for the whole run. */
export function runsOnce(this: IExecuteFunctions): boolean {
	return jobShape(this, 0).recipients === 'allItems';
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const shape = jobShape(this, itemIndex);
	if (!runsOnce.call(this)) return await createJob(this, itemIndex, async () => await sourceBody(this, itemIndex, shape));
	const run = recipientsOfAllItems(this, takesVariables(shape));
	// Every row has an outcome: its print job, its own error, or the error of the job it was in.
	return await forEveryRow(this, run, async () => await sendMailRun(this, shape, run.recipients, run.itemIndexes));
}
