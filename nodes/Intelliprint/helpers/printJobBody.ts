import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FormObject } from '../transport';
import { readPdfProperty } from './binary';
import { locatorId, type LocatorValue } from './parameters';

/** The settings collection as n8n hands it over (fixedCollections nest their values one level). */
interface PrintJobSettings {
	reference?: string;
	confirmed?: boolean;
	splitting?: { values?: { method?: string; phrase?: string; pages?: number } };
	printing?: { values?: { doubleSided?: string; doubleSidedSpecificPages?: string; premiumQuality?: boolean } };
	postage?: { values?: { service?: string; idealEnvelope?: string; mailDate?: string } };
	background?: { values?: { firstPage?: LocatorValue; otherPages?: LocatorValue } };
	confidential?: boolean;
	extraDocuments?: {
		document?: Array<{ binaryPropertyName: string; order: string; orderingNumber?: number; applyBackground?: boolean }>;
	};
	removeLettersWithPhrase?: string;
	nudge?: { values?: { x?: number; y?: number } };
	confirmationEmail?: boolean;
	metadata?: { entry?: Array<{ key: string; value: string }> };
}

/** "1,3,5-7" → [1, 3, 5, 6, 7] */
export function parsePageList(text: string): number[] | undefined {
	const pages = new Set<number>();
	for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
		const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
		if (!match) return undefined;
		const from = Number(match[1]);
		const to = match[2] ? Number(match[2]) : from;
		if (from < 1 || to < from || to - from > 10000) return undefined;
		for (let page = from; page <= to; page++) pages.add(page);
	}
	return pages.size ? [...pages].sort((a, b) => a - b) : undefined;
}

/**
 * The API schedules by day: a mail date is the UNIX time of the start (UTC) of the chosen calendar
 * day, whatever time of day the picker or an expression produced.
 */
export function toMailDate(value: string): number | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
	if (!match) return undefined;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const time = Date.UTC(year, month - 1, day);
	const check = new Date(time);
	if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
	return time / 1000;
}

/** Turns the node's settings into the API's print job object (file parts included). */
export async function buildPrintJobBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	settings: PrintJobSettings & IDataObject,
): Promise<FormObject> {
	const fail = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	const body: FormObject = {};

	if (settings.reference !== undefined && settings.reference !== '') body.reference = settings.reference;
	if (settings.confirmed !== undefined) body.confirmed = settings.confirmed;

	const splitting = settings.splitting?.values;
	if (splitting?.method) {
		body.splitting = { method: splitting.method };
		if (splitting.method === 'split_on_phrase') {
			if (!splitting.phrase?.trim()) {
				throw fail('Splitting on a phrase needs the phrase', 'Fill in "Phrase" under Splitting, e.g. "Dear".');
			}
			body.splitting.phrase = splitting.phrase;
		}
		if (splitting.method === 'split_on_pages') {
			const pages = Number(splitting.pages);
			if (!Number.isInteger(pages) || pages < 1) {
				throw fail('Pages per letter must be a whole number of at least 1', `Got "${splitting.pages}".`);
			}
			body.splitting.pages = pages;
		}
	}

	const printing = settings.printing?.values;
	if (printing) {
		body.printing = { double_sided: printing.doubleSided, premium_quality: printing.premiumQuality };
		if (printing.doubleSided === 'mixed') {
			const pages = parsePageList(printing.doubleSidedSpecificPages ?? '');
			if (!pages) {
				throw fail(
					'Mixed double sided printing needs the pages to print double sided',
					`Fill in "Double Sided Pages" with page numbers or ranges such as 1,3,5-7 (got "${printing.doubleSidedSpecificPages ?? ''}").`,
				);
			}
			body.printing.double_sided_specific_pages = pages;
		}
	}

	const postage = settings.postage?.values;
	if (postage) {
		body.postage = { service: postage.service, ideal_envelope: postage.idealEnvelope };
		if (postage.mailDate) {
			const mailDate = toMailDate(String(postage.mailDate));
			if (mailDate === undefined) {
				throw fail(`"${postage.mailDate}" is not a date`, 'Pick a date for "Mail Date", or give one as YYYY-MM-DD.');
			}
			body.postage.mail_date = mailDate;
		}
	}

	const background = settings.background?.values;
	if (background) {
		body.background = {
			first_page: locatorId(ctx, itemIndex, background.firstPage, 'bg_', 'First Page background'),
			other_pages: locatorId(ctx, itemIndex, background.otherPages, 'bg_', 'Other Pages background'),
		};
	}

	if (settings.confidential !== undefined) body.confidential = settings.confidential;
	if (settings.confirmationEmail !== undefined) body.confirmation_email = settings.confirmationEmail;
	if (settings.removeLettersWithPhrase) body.remove_letters = { with_phrase: settings.removeLettersWithPhrase };

	const nudge = settings.nudge?.values;
	if (nudge) body.nudge = { x: Number(nudge.x ?? 0), y: Number(nudge.y ?? 0) };

	const documents = settings.extraDocuments?.document ?? [];
	if (documents.length) {
		body.extra_documents = [];
		for (const document of documents) {
			body.extra_documents.push({
				document: await readPdfProperty(ctx, itemIndex, document.binaryPropertyName, 'Extra Documents → Input Binary Field'),
				order: document.order,
				ordering_number: document.order === 'custom' ? Number(document.orderingNumber ?? 1) : undefined,
				apply_background: document.applyBackground ?? false,
			});
		}
	}

	const entries = settings.metadata?.entry ?? [];
	if (entries.length) {
		const metadata: FormObject = {};
		for (const { key, value } of entries) {
			if (!key?.trim()) throw fail('A metadata entry has no key', 'Give every Metadata entry a key, or remove the empty one.');
			if (!/^[A-Za-z0-9_-]+$/.test(key)) {
				throw fail(`Metadata key "${key}" has characters Intelliprint cannot store`, 'Use letters, digits, "_" and "-" only.');
			}
			metadata[key] = value ?? '';
		}
		body.metadata = metadata;
	}
	return body;
}
