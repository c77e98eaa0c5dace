import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FormObject, FormValue } from '../transport';
import { readPdfProperty } from './binary';
import { getLocatorId, textValue } from '../values';
import { recipientOf, type Recipient } from '../addresses';

/** What the letters are made of. */
/** Where a job's letters come from. A template is taken by ID: no endpoint lists them (the API contract's templates, transport/contract.ts). */
export type Source = 'pdf' | 'url' | 'template' | 'content';
/** Who they go to: the addresses printed in the PDF, the items' addresses, or a stored mailing list. */
export type RecipientsFrom = 'inFile' | 'allItems' | 'eachItem' | 'mailingList';

export interface JobShape {
	source: Source;
	recipients: RecipientsFrom;
}

/**
 * The print job's shape as the node's parameters give it. Before version 1.2 one list chose both:
 * a PDF (file or link) went to its own addresses, content to the items or to a mailing list.
 */
export function jobShape(ctx: IExecuteFunctions, itemIndex: number): JobShape {
	const source = ctx.getNodeParameter('source', itemIndex, 'pdf') as Source | 'mailingList';
	if (source === 'mailingList') return { source: 'content', recipients: 'mailingList' };
	const ownDefault: RecipientsFrom = source === 'pdf' || source === 'url' ? 'inFile' : 'allItems';
	const chosen = ctx.getNode().typeVersion >= 1.2 || source === 'content';
	return { source, recipients: chosen ? (ctx.getNodeParameter('recipientsFrom', itemIndex, ownDefault) as RecipientsFrom) : ownDefault };
}

/** Only text and templates have placeholders to fill: a PDF's recipients carry no variables. */
export function takesVariables(shape: JobShape): boolean {
	return shape.source === 'content' || shape.source === 'template';
}

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

function templateId(ctx: IExecuteFunctions, itemIndex: number): string {
	const id = textValue(ctx, itemIndex, ctx.getNodeParameter('template', itemIndex, ''), 'Template ID')?.trim() ?? '';
	// The API's only example is "tmpl_abc123"; its format is not documented, so only blanks and spaces are refused here.
	if (!id || /\s/.test(id)) {
		throw new NodeOperationError(ctx.getNode(), id ? `"${id.slice(0, 100)}" is not a template ID` : 'No template ID given', {
			itemIndex,
			description: 'Copy the ID of the template from your Intelliprint dashboard into "Template ID", e.g. tmpl_abc123.',
		});
	}
	return id;
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

async function madeOf(ctx: IExecuteFunctions, itemIndex: number, source: Source): Promise<FormObject> {
	switch (source) {
		case 'url':
			return { file: { url: pdfUrl(ctx, itemIndex) } };
		case 'template':
			return { template: templateId(ctx, itemIndex) };
		case 'content':
			return { content: content(ctx, itemIndex) };
		default: {
			const propertyName = ctx.getNodeParameter('binaryPropertyName', itemIndex) as string;
			// Only this option: reading the whole collection would evaluate its expressions (Reference, say) again.
			const fileName = textValue(ctx, itemIndex, ctx.getNodeParameter('options.fileName', itemIndex, ''), 'File Name');
			// The PDF goes straight into the multipart body and is not kept: a large file is held once.
			return { file: await readPdfProperty(ctx, itemIndex, propertyName, undefined, fileName) };
		}
	}
}

/**
 * A print job's source and recipients as the API's fields (one of `file`, `template` and `content`;
 * `recipients[]` or `mailing_list` unless a PDF carries its own addresses). A mail run passes its
 * recipients; otherwise the item is its own recipient.
 */
export async function sourceBody(ctx: IExecuteFunctions, itemIndex: number, shape: JobShape, recipients?: Recipient[]): Promise<FormObject> {
	const body = await madeOf(ctx, itemIndex, shape.source);
	switch (shape.recipients) {
		case 'inFile':
			return body;
		case 'mailingList':
			return { ...body, mailing_list: getLocatorId(ctx, itemIndex, 'mailingList', 'mal_', 'mailing list') };
		default:
			return { ...body, recipients: (recipients ?? [recipientOf(ctx, itemIndex, takesVariables(shape))]) as unknown as FormValue[] };
	}
}
