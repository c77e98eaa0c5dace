import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FormObject, FormValue } from '../transport';
import { readPdfProperty } from './binary';
import { getLocatorId } from './parameters';
import { recipientOf, type Recipient } from './recipients';
import { textValue } from './values';

export type Source = 'pdf' | 'content' | 'mailingList' | 'url';

function content(ctx: IExecuteFunctions, itemIndex: number): string {
	const text = textValue(ctx, itemIndex, ctx.getNodeParameter('content', itemIndex, ''), 'Content');
	if (!text?.trim()) {
		throw new NodeOperationError(ctx.getNode(), 'The letter has no content', {
			itemIndex,
			description: 'Write the letter in "Content", as text or HTML, with {{placeholders}} for what differs per recipient.',
		});
	}
	return text;
}

function pdfUrl(ctx: IExecuteFunctions, itemIndex: number): string {
	const url = textValue(ctx, itemIndex, ctx.getNodeParameter('fileUrl', itemIndex, ''), 'PDF URL')?.trim() ?? '';
	if (!/^https?:\/\/[^\s/]+/i.test(url) || !URL.canParse(url)) {
		throw new NodeOperationError(ctx.getNode(), `"${url.slice(0, 100)}" is not a link Intelliprint can fetch`, {
			itemIndex,
			description: 'Give a full http:// or https:// link to the PDF, e.g. https://example.com/letter.pdf.',
		});
	}
	return url;
}

/**
 * What a print job is made from, as the API's fields: the PDF file part, a link for the API to
 * fetch, or content with its recipients (given, or a stored mailing list).
 */
export async function sourceBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	source: Source,
	recipients?: Recipient[],
): Promise<FormObject> {
	switch (source) {
		case 'url':
			return { file: { url: pdfUrl(ctx, itemIndex) } };
		case 'content':
			return { content: content(ctx, itemIndex), recipients: (recipients ?? [recipientOf(ctx, itemIndex)]) as unknown as FormValue[] };
		case 'mailingList':
			return {
				content: content(ctx, itemIndex),
				mailing_list: getLocatorId(ctx, itemIndex, 'mailingList', 'mal_', 'mailing list'),
			};
		default: {
			const propertyName = ctx.getNodeParameter('binaryPropertyName', itemIndex) as string;
			const options = ctx.getNodeParameter('options', itemIndex, {}) as { fileName?: unknown };
			const fileName = textValue(ctx, itemIndex, options.fileName, 'File Name');
			// The PDF goes straight into the multipart body and is not kept: a large file is held once.
			return { file: await readPdfProperty(ctx, itemIndex, propertyName, undefined, fileName) };
		}
	}
}
