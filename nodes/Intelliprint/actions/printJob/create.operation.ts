import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readPdfProperty } from '../../helpers/binary';
import { printJobItems, type PrintJob } from '../../helpers/output';
import { alphabetical } from '../../helpers/parameters';
import { buildPrintJobBody } from '../../helpers/printJobBody';
import { apiRequest, encodeMultipart, flattenFormFields, EXPECT } from '../../transport';
import { inputBinaryField, printJobOutputFields } from '../common.descriptions';
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
	const settings = await buildPrintJobBody(this, itemIndex, {
		...options,
		confirmed: this.getNodeParameter('confirmed', itemIndex, false) as boolean,
	});
	const fileName = options.fileName ? String(options.fileName) : undefined;
	// The PDF is read straight into the multipart body and not kept: a large file is then held
	// once while it is sent, not twice.
	const multipart = encodeMultipart(
		flattenFormFields({
			file: await readPdfProperty(this, itemIndex, propertyName, undefined, fileName),
			testmode: this.getNodeParameter('testmode', itemIndex, false) as boolean,
			...settings,
		}),
	);
	const job = await apiRequest<PrintJob>(this, { expect: EXPECT.printJob, method: 'POST', path: '/prints', multipart, itemIndex });
	return await printJobItems(this, [job], itemIndex);
}
