import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkSent, SENT_KEY_METADATA, sentKeyOf } from '../../helpers/alreadySent';
import { recordCreated } from '../../helpers/ledger';
import { printJobItems, type PrintJob } from '../../helpers/output';
import { alphabetical } from '../../helpers/parameters';
import { buildPrintJobBody } from '../../helpers/printJobBody';
import { sourceBody, type Source } from '../../helpers/printJobSource';
import { recipientsOfAllItems } from '../../helpers/recipients';
import { liveAllowed } from '../../helpers/toolMode';
import { apiRequest, encodeMultipart, flattenFormFields, EXPECT, type FormObject } from '../../transport';
import { parallelItemsOption, printJobOutputFields } from '../common.descriptions';
import { toolDefault } from '../tool.descriptions';
import { sourceFields } from './createSource.description';
import { applyTypeOptions, postcardFields } from './postcard.description';
import { printJobSettingFields } from './printJobOptions.description';

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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: alphabetical([
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. invoices-november.pdf',
				displayOptions: { show: { '/source': ['pdf'] } },
				description: "The file name Intelliprint shows, instead of the binary's own",
			},
			...postcardFields,
			{
				displayName: 'Reference',
				name: 'reference',
				type: 'string',
				default: '',
				placeholder: 'e.g. November invoices',
				description: 'Your name for the job; defaults to the file name',
			},
			{
				displayName: 'Skip Items Already Sent',
				name: 'sentKey',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.invoiceId }}',
				description: `A key that names each item's letter, stored on its print job (metadata "${SENT_KEY_METADATA}"). An item whose key is already on a print job is not sent again: that job is output instead, marked already_sent. Makes rerunning a failed batch safe.`,
			},
			{
				displayName: 'Skip Items Already Sent: Look Back (Days)',
				name: 'sentKeyLookBackDays',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 30,
				description: 'How far back to look for print jobs carrying the keys (read once per run, newest first)',
			},
			parallelItemsOption,
			...printJobSettingFields,
		]),
	},
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Creates a print job in Intelliprint: letters printed and posted in the UK. A live job costs money (roughly £1 per letter) once it is confirmed; a test job is free and is never printed or posted. A new job is a draft unless it is confirmed at creation. Returns the job: its ID (print_…), testmode, confirmed, letter count, cost in GBP and a one-line summary to report to the user.';

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['create'] } },
	properties,
);

/** A mail run (content for all input items) is one print job, made once for the whole run. */
export function runsOnce(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('source', 0, 'pdf') === 'content' && this.getNodeParameter('recipientsFrom', 0, 'allItems') === 'allItems';
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	if (!runsOnce.call(this)) {
		const source = this.getNodeParameter('source', itemIndex, 'pdf') as Source;
		return await createJob(this, itemIndex, () => sourceBody(this, itemIndex, source));
	}
	const { recipients, itemIndexes, errorItems: errors } = recipientsOfAllItems(this);
	if (!recipients.length) return errors;
	const jobItems = await createJob(this, itemIndexes[0], () => sourceBody(this, itemIndexes[0], 'content', recipients), itemIndexes);
	return [...jobItems, ...errors];
}

/** Creates one print job (unless its sent key shows it exists already) and shapes its output. */
async function createJob(
	ctx: IExecuteFunctions,
	itemIndex: number,
	source: () => Promise<FormObject>,
	fromItems?: number[],
): Promise<INodeExecutionData[]> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const askedForTest = ctx.getNodeParameter('testmode', itemIndex, false) as boolean;
	const testmode = askedForTest || !liveAllowed(ctx, itemIndex);
	const extra = testmode && !askedForTest ? { live_refused: true } : undefined;
	const type = ctx.getNodeParameter('type', itemIndex, 'letter') as string;
	const settings = await buildPrintJobBody(ctx, itemIndex, { ...options, confirmed: ctx.getNodeParameter('confirmed', itemIndex, false) as boolean });
	applyTypeOptions(settings, options, type);
	const sentKey = options.sentKey ? sentKeyOf(ctx, itemIndex, options.sentKey) : undefined;
	const check = sentKey ? await checkSent(ctx, itemIndex, sentKey, testmode, Number(options.sentKeyLookBackDays) || 30) : undefined;
	if (check?.sent) {
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${check.printJobId}`, itemIndex });
		return await printJobItems(ctx, [job], itemIndex, { extra: { already_sent: true }, fromItems });
	}
	if (sentKey) settings.metadata = { ...((settings.metadata as IDataObject) ?? {}), [SENT_KEY_METADATA]: sentKey };

	let created: string | undefined;
	try {
		const multipart = encodeMultipart(flattenFormFields({ ...(await source()), testmode, ...settings }));
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'POST', path: '/prints', multipart, itemIndex });
		created = job.id;
		recordCreated(ctx, itemIndex, job.id);
		return await printJobItems(ctx, [job], itemIndex, { fromItems, extra });
	} finally {
		if (check && !check.sent) check.done(created);
	}
}
