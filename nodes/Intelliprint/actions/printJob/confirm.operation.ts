import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { printJobItems } from '../../results';
import { getPrintJobId } from '../../values';
import { confirmById, planConfirm } from '../../spending';
import { testJobOrRefuse } from '../../agent';
import { confirmUpToOption, printJobLocator, printJobOutputFields } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Confirming sends the job to print: a live job is charged and posted, and can no longer be changed',
		name: 'confirmNotice',
		type: 'notice',
		default: '',
	},
	...printJobLocator,
	...printJobOutputFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [confirmUpToOption],
	},
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Confirms a draft Intelliprint print job by its ID (print_…). A confirmed live job is printed, posted and charged (it costs money) and can no longer be changed; test jobs stay free. Returns the job with a one-line summary.';

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['confirm'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getPrintJobId(this, itemIndex);
	// An agent not allowed live letters may still confirm a test job, which posts and costs nothing.
	const known = await testJobOrRefuse(this, itemIndex, id);
	const perJob = this.getNodeParameter('options.confirmUpTo', itemIndex, 0);
	const plan = await planConfirm(this, itemIndex, { confirm: true, testmode: known?.testmode === true ? true : undefined, perJob, rerun: 'confirmsAgain' });
	return await printJobItems(this, [await confirmById(this, itemIndex, id, plan, known)], itemIndex);
}
