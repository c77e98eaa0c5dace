import type { UploadedFile } from './body';
import { fail, newId } from './http';
import { looksLikePdf, pageCount } from './pdf';

export interface ExtraDocumentInput {
	id?: string;
	document?: UploadedFile;
	order?: string;
	ordering_number?: number;
	apply_background?: boolean;
}

export interface ExtraDocument {
	id: string;
	name: string | null;
	pages: number;
	order: string;
	ordering_number: number | null;
	apply_background: boolean;
}

/** Extra documents added to every letter: an uploaded PDF, or an existing document's id (counted as one page). */
export async function readExtraDocuments(inputs: ExtraDocumentInput[]): Promise<ExtraDocument[]> {
	const documents: ExtraDocument[] = [];
	for (const [index, document] of inputs.entries()) {
		const param = `extra_documents.${index}`;
		if (!document.document && !document.id) throw fail.invalid('parameter_missing', `Missing required param: ${param}.document.`, `${param}.document`);
		if (document.order === 'custom' && document.ordering_number === undefined) throw fail.invalid('parameter_missing', `Missing required param: ${param}.ordering_number.`, `${param}.ordering_number`);
		const file = document.document;
		if (file && !looksLikePdf(file.data)) throw fail.invalid('parameter_invalid', 'Invalid value: the extra document is not a PDF.', `${param}.document`);
		const pages = file ? await pageCount(file.data) : 1;
		documents.push({ id: document.id ?? newId('doc'), name: file?.fileName ?? null, pages, order: document.order ?? 'last', ordering_number: document.ordering_number ?? null, apply_background: document.apply_background ?? false });
	}
	return documents;
}
