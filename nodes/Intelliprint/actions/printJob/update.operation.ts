import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { printJobItems } from '../../results';
import { alphabetical, getPrintJobId } from '../../values';
import { buildPrintJobBody, serviceFitsDraft, updatePrintJob } from '../../building';
import { confirmById, planConfirm } from '../../spending';
import { testJobOrRefuse } from '../../agent';
import { keepKeyedReference } from '../../reruns';
import { printJobLocator, printJobOutputFields } from '../common.descriptions';
import { groupUpdateFields, printJobUpdateFields } from './printJobUpdateFields.description';

const properties: INodeProperties[] = [
	...printJobLocator,
	...printJobOutputFields,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: alphabetical([
			{
				displayName: 'Confirm',
				name: 'confirmed',
				type: 'boolean',
				default: false,
				description: 'Whether to send the job to print with these changes. A confirmed live job is charged and posted.',
			},
			{
				displayName: 'Reference',
				name: 'reference',
				type: 'string',
				default: '',
				placeholder: 'e.g. November invoices',
				description: 'Your name for the job',
			},
			...printJobUpdateFields,
		]),
	},
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Changes the settings of a draft Intelliprint print job by its ID (print_…), such as postage or printing. Confirmed jobs cannot be changed. Returns the job with a one-line summary.';

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['update'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const id = getPrintJobId(this, itemIndex);
	const { confirmed, ...fields } = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	// Confirm here is a confirm like any other: the spending gate decides, before anything is sent.
	const plan = confirmed === undefined ? undefined : await planConfirm(this, itemIndex, { confirm: confirmed, rerun: 'confirmsAgain' });
	if (plan && plan.kind !== 'draft') await testJobOrRefuse(this, itemIndex, id);
	const body = await buildPrintJobBody(this, itemIndex, { ...groupUpdateFields(fields), confirmed: plan?.kind === 'now' ? true : plan?.kind === 'draft' ? false : undefined }, true);
	if (Object.keys(body).length === 0 && plan?.kind !== 'checked') {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', {
			itemIndex,
			description: 'Add at least one field under "Update Fields".',
		});
	}
	const service = (body.postage as IDataObject | undefined)?.service;
	if (typeof service === 'string') await serviceFitsDraft(this, itemIndex, id, service);
	// A new process finds a keyed job by its reference: the API contract's keyed-reference (transport/contract.ts).
	await keepKeyedReference(this, itemIndex, id, body.reference);
	// Under a limit the changes go first, to a draft, and the confirm follows once the new cost is known to fit.
	const changed = Object.keys(body).length ? await updatePrintJob(this, id, body, itemIndex, 'updated', plan?.kind === 'now' ? plan.pass : undefined) : undefined;
	const job = plan?.kind === 'checked' ? await confirmById(this, itemIndex, id, plan, changed) : changed!;
	return await printJobItems(this, [job], itemIndex);
}
