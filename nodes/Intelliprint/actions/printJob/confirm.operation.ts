import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { printJobItems, type PrintJob } from '../../helpers/output';
import { getPrintJobId } from '../../helpers/parameters';
import { confirmWithinLimits, limitsApply } from '../../helpers/spending';
import { refuseUnlessLiveAllowed } from '../../helpers/toolMode';
import { updatePrintJob } from '../../helpers/updatePrintJob';
import { apiRequest, EXPECT } from '../../transport';
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
	refuseUnlessLiveAllowed(this, itemIndex, 'confirm a print job');
	const id = getPrintJobId(this, itemIndex);
	const perJob = Number(this.getNodeParameter('options.confirmUpTo', itemIndex, 0)) || undefined;
	// Spending limits need the draft's cost first; without them the confirm is one request.
	const job = (await limitsApply(this, perJob))
		? await confirmWithinLimits(this, itemIndex, await apiRequest<PrintJob>(this, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex }), perJob)
		: await updatePrintJob(this, id, { confirmed: true }, itemIndex, 'confirmed again');
	return await printJobItems(this, [job], itemIndex);
}
