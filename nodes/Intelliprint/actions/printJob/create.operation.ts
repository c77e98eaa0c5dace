import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkSent, SENT_KEY_METADATA, sentKeyOf } from '../../helpers/alreadySent';
import { readPdfProperty } from '../../helpers/binary';
import { recordCreated } from '../../helpers/ledger';
import { printJobItems, type PrintJob } from '../../helpers/output';
import { alphabetical } from '../../helpers/parameters';
import { buildPrintJobBody } from '../../helpers/printJobBody';
import { apiRequest, encodeMultipart, flattenFormFields, EXPECT } from '../../transport';
import { inputBinaryField, parallelItemsOption, printJobOutputFields } from '../common.descriptions';
import { printJobSettingFields } from './printJobOptions.description';

const properties: INodeProperties[] = [
	inputBinaryField('the PDF to print'),
	{
		displayName: 'Confirm',
		name: 'confirmed',
		type: 'boolean',
		default: false,
		description:
			'Whether to send the job to print straight away. A confirmed live job is charged and posted and can no longer be changed; leave off to create a draft you can check first.',
	},
	{
		displayName: 'Test Mode',
		name: 'testmode',
		type: 'boolean',
		default: false,
		description: 'Whether to create a test job, which is never printed, posted or charged',
	},
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
				description: "The file name Intelliprint shows, instead of the binary's own",
			},
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

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const testmode = this.getNodeParameter('testmode', itemIndex, false) as boolean;
	const settings = await buildPrintJobBody(this, itemIndex, {
		...options,
		confirmed: this.getNodeParameter('confirmed', itemIndex, false) as boolean,
	});
	const sentKey = options.sentKey ? sentKeyOf(this, itemIndex, options.sentKey) : undefined;
	const check = sentKey ? await checkSent(this, itemIndex, sentKey, testmode, Number(options.sentKeyLookBackDays) || 30) : undefined;
	if (check?.sent) {
		const job = await apiRequest<PrintJob>(this, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${check.printJobId}`, itemIndex });
		return await printJobItems(this, [job], itemIndex, { already_sent: true });
	}
	if (sentKey) settings.metadata = { ...((settings.metadata as IDataObject) ?? {}), [SENT_KEY_METADATA]: sentKey };

	let created: string | undefined;
	try {
		const fileName = options.fileName ? String(options.fileName) : undefined;
		// The PDF is read straight into the multipart body and not kept: a large file is then held
		// once while it is sent, not twice.
		const multipart = encodeMultipart(
			flattenFormFields({ file: await readPdfProperty(this, itemIndex, propertyName, undefined, fileName), testmode, ...settings }),
		);
		const job = await apiRequest<PrintJob>(this, { expect: EXPECT.printJob, method: 'POST', path: '/prints', multipart, itemIndex });
		created = job.id;
		recordCreated(this, itemIndex, job.id);
		return await printJobItems(this, [job], itemIndex);
	} finally {
		if (check && !check.sent) check.done(created);
	}
}
