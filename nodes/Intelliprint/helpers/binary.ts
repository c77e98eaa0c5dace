import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FilePart } from '../transport';

const PDF_MAGIC = Buffer.from('%PDF-');

/**
 * Reads one binary property of an input item as a PDF file part. Goes through n8n's binary helpers,
 * so the in-memory, filesystem and S3 binary data modes all work.
 */
export async function readPdfProperty(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	fieldLabel = 'Input Binary Field',
): Promise<FilePart> {
	const name = propertyName.trim();
	const item = ctx.getInputData()[itemIndex];
	if (!name || !item?.binary?.[name]) {
		const available = Object.keys(item?.binary ?? {});
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1} has no binary property "${name}"`, {
			itemIndex,
			description: available.length
				? `Its binary properties are: ${available.join(', ')}. Set "${fieldLabel}" to one of them.`
				: `It has no binary data at all. Put a node that reads or downloads the PDF (e.g. Read/Write Files from Disk or HTTP Request) before this one, or set "${fieldLabel}" to the right property.`,
		});
	}
	const binary = ctx.helpers.assertBinaryData(itemIndex, name);
	const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	// PDF readers accept the header anywhere in the first 1 KiB.
	if (data.subarray(0, 1024).indexOf(PDF_MAGIC) === -1) {
		throw new NodeOperationError(ctx.getNode(), `The file in "${name}" is not a PDF`, {
			itemIndex,
			description: `"${binary.fileName ?? name}" (${binary.mimeType || 'unknown type'}) does not start like a PDF. Intelliprint prints PDFs only: convert the document to PDF first.`,
		});
	}
	const fileName = binary.fileName || `${name}.pdf`;
	return { data, fileName, mimeType: 'application/pdf' };
}
