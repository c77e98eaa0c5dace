import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { printJobItems, type PrintJob } from '../../results';
import { getPrintJobId } from '../../values';
import { apiRequest, EXPECT } from '../../transport';
import { printJobLocator, printJobOutputFields } from '../common.descriptions';

const properties: INodeProperties[] = [...printJobLocator, ...printJobOutputFields];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	"Gets one Intelliprint print job by its ID (print_…): whether it is a test or live job, confirmed or a draft, each letter's recipient and status (e.g. waiting_to_print, printing, dispatched, returned) and the cost in GBP, with a one-line summary.";

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getPrintJobId(this, itemIndex);
	const job = await apiRequest<PrintJob>(this, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex });
	return await printJobItems(this, [job], itemIndex);
}
