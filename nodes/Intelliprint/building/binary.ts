import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BinaryStream, FilePart } from '../transport';
import { usedAsTool } from '../agent';

const PDF_MAGIC = Buffer.from('%PDF-');
/** Above this size a file n8n keeps outside memory is streamed rather than read into memory. */
const STREAM_ABOVE_BYTES = 1024 * 1024;

/**
 * Reads one binary property of an input item as a PDF file part. Goes through n8n's binary helpers,
 * so the in-memory, filesystem and S3 binary data modes all work.
 */
export async function readPdfProperty(
	ctx: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	fieldLabel = 'Input Binary Field',
	fileNameOverride?: string,
): Promise<FilePart> {
	const name = propertyName.trim();
	const item = ctx.getInputData()[itemIndex];
	if (usedAsTool(ctx) && !item?.binary?.[name]) {
		throw new NodeOperationError(ctx.getNode(), 'This tool gets no files from the AI agent, so it cannot read a PDF', {
			itemIndex,
			description:
				"In the tool's panel, choose a Source the model can give: the letter's text (the model writes the letter and gives the address) or a PDF at a URL (the model gives a link to the PDF).",
		});
	}
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
	const fileName = fileNameOverride || binary.fileName || `${name}.pdf`;
	const notPdf = () =>
		new NodeOperationError(ctx.getNode(), `The file in "${name}" is not a PDF`, {
			itemIndex,
			description: `"${binary.fileName ?? name}" (${binary.mimeType || 'unknown type'}) does not start like a PDF. Intelliprint prints PDFs only: convert the document to PDF first.`,
		});

	// Large files n8n keeps on disk or in S3 are streamed to the API instead of being loaded whole.
	if (binary.id) {
		const { fileSize } = await ctx.helpers.getBinaryMetadata(binary.id);
		if (fileSize > STREAM_ABOVE_BYTES) {
			const id = binary.id;
			if (!startsLikePdf(await firstBytes(await ctx.helpers.getBinaryStream(id, 1024)))) throw notPdf();
			return { fileName, mimeType: 'application/pdf', stream: { size: fileSize, open: async () => await ctx.helpers.getBinaryStream(id) } };
		}
	}
	const data = await ctx.helpers.getBinaryDataBuffer(itemIndex, name);
	if (!startsLikePdf(data)) throw notPdf();
	if (!endsLikePdf(data)) {
		throw new NodeOperationError(ctx.getNode(), `The PDF in "${name}" is not complete`, {
			itemIndex,
			description: `"${binary.fileName ?? name}" is ${data.length} byte${data.length === 1 ? '' : 's'} and has no end-of-file marker (%%EOF) near its end, so it was cut short (a download that stopped early, say). Nothing was sent: fetch or export the file again.`,
		});
	}
	return { data, fileName, mimeType: 'application/pdf' };
}

/** Every PDF ends with "%%EOF" (some writers add a little after it); a file without one was cut short. */
function endsLikePdf(data: Buffer): boolean {
	return data.subarray(-1024).includes('%%EOF');
}

/** PDF readers accept the header anywhere in the first 1 KiB. */
function startsLikePdf(data: Buffer): boolean {
	return data.subarray(0, 1024).indexOf(PDF_MAGIC) !== -1;
}

async function firstBytes(stream: BinaryStream): Promise<Buffer> {
	for await (const chunk of stream) {
		stream.destroy();
		return chunk as Buffer;
	}
	return Buffer.alloc(0);
}
