import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FormObject } from '../transport';
import { readPdfProperty } from './binary';
import { locatorId, type LocatorValue } from '../values';
import { booleanValue, dateValue, numberValue, textValue } from '../values';

/** The settings collection as n8n hands it over (fixedCollections nest their values one level). */
interface PrintJobSettings {
	reference?: string;
	confirmed?: boolean;
	splitting?: { values?: { method?: string; phrase?: string; pages?: number } };
	printing?: { values?: { doubleSided?: string; doubleSidedSpecificPages?: string; premiumQuality?: boolean } };
	postage?: { values?: { service?: string; idealEnvelope?: string; mailDate?: unknown } };
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

/** Drops the keys whose value is undefined, and gives undefined for an object left empty. */
function defined(object: FormObject): FormObject | undefined {
	const kept = Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
	return Object.keys(kept).length ? kept : undefined;
}

/**
 * Turns the node's settings into the API's print job object (file parts included). Every value is
 * checked for type first. With `partial` (an update), only what was given is sent and fields that
 * go together are not required together: the API checks the job as a whole.
 */
export async function buildPrintJobBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	settings: PrintJobSettings & IDataObject,
	partial = false,
): Promise<FormObject> {
	const fail = (message: string, description: string) =>
		new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	const text = (value: unknown, label: string) => textValue(ctx, itemIndex, value, label);
	const number = (value: unknown, label: string, rules?: { integer?: boolean; min?: number }) =>
		numberValue(ctx, itemIndex, value, label, rules);
	const flag = (value: unknown, label: string) => booleanValue(ctx, itemIndex, value, label);

	const splitting = settings.splitting?.values;
	const method = text(splitting?.method, 'Splitting Method');
	const phrase = text(splitting?.phrase, 'Phrase');
	const pages = number(splitting?.pages, 'Pages per Letter', { integer: true, min: 1 });
	if (!partial && method === 'split_on_phrase' && !phrase?.trim()) {
		throw fail('Splitting on a phrase needs the phrase', 'Fill in "Phrase" under Splitting, e.g. "Dear".');
	}
	if (!partial && method === 'split_on_pages' && pages === undefined) {
		throw fail('Pages per letter must be a whole number of at least 1', `Got "${String(splitting?.pages)}".`);
	}

	const printing = settings.printing?.values;
	const doubleSided = text(printing?.doubleSided, 'Double Sided');
	const pageListText = text(printing?.doubleSidedSpecificPages, 'Double Sided Pages');
	const pageList = pageListText !== undefined ? parsePageList(pageListText) : undefined;
	if ((pageListText !== undefined || (!partial && doubleSided === 'mixed')) && !pageList) {
		throw fail(
			'Mixed double sided printing needs the pages to print double sided',
			`Fill in "Double Sided Pages" with page numbers or ranges such as 1,3,5-7 (got "${pageListText ?? ''}").`,
		);
	}

	const postage = settings.postage?.values;
	const mailDateText = dateValue(ctx, itemIndex, postage?.mailDate, 'Mail Date');
	const mailDate = mailDateText !== undefined ? toMailDate(mailDateText) : undefined;
	if (mailDateText !== undefined && mailDate === undefined) {
		throw fail(`"${mailDateText}" is not a date`, 'Pick a date for "Mail Date", or give one as YYYY-MM-DD.');
	}
	// Intelliprint schedules by day: a day already gone cannot be a mail date.
	if (mailDate !== undefined && mailDate * 1000 < Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate())) {
		throw fail(`Mail date ${mailDateText!.slice(0, 10)} is in the past`, 'Nothing was sent. Pick today or a later day for "Mail Date", or remove it to post as soon as possible.');
	}

	const background = settings.background?.values;
	const nudge = settings.nudge?.values;
	const body: FormObject = {
		reference: text(settings.reference, 'Reference'),
		confirmed: flag(settings.confirmed, 'Confirm'),
		splitting: defined({ method, phrase: method === 'split_on_phrase' || partial ? phrase : undefined, pages: method === 'split_on_pages' || partial ? pages : undefined }),
		printing: defined({
			double_sided: doubleSided,
			double_sided_specific_pages: doubleSided === 'mixed' || partial ? pageList : undefined,
			premium_quality: flag(printing?.premiumQuality, 'Premium Quality'),
		}),
		postage: defined({ service: text(postage?.service, 'Service'), ideal_envelope: text(postage?.idealEnvelope, 'Ideal Envelope'), mail_date: mailDate }),
		background: background
			? defined({
					first_page: locatorId(ctx, itemIndex, background.firstPage, 'bg_', 'First Page background') ?? undefined,
					other_pages: locatorId(ctx, itemIndex, background.otherPages, 'bg_', 'Other Pages background') ?? undefined,
				})
			: undefined,
		confidential: flag(settings.confidential, 'Confidential'),
		confirmation_email: flag(settings.confirmationEmail, 'Confirmation Email'),
		remove_letters: defined({ with_phrase: text(settings.removeLettersWithPhrase, 'Remove Letters With Phrase') }),
		nudge: defined({ x: number(nudge?.x, 'Nudge X'), y: number(nudge?.y, 'Nudge Y') }),
	};

	const documents = settings.extraDocuments?.document ?? [];
	// An item with no files at all is told about its main PDF first, not about an extra document.
	const mainPdf = ctx.getNodeParameter('binaryPropertyName', itemIndex, '') as string;
	if (documents.length && mainPdf && !Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {}).length) await readPdfProperty(ctx, itemIndex, mainPdf);
	if (documents.length) {
		body.extra_documents = [];
		for (const document of documents) {
			const order = text(document.order, 'Order');
			body.extra_documents.push({
				document: await readPdfProperty(ctx, itemIndex, document.binaryPropertyName, 'Extra Documents → Input Binary Field'),
				order,
				ordering_number: order === 'custom' ? (number(document.orderingNumber, 'Ordering Number', { integer: true, min: 0 }) ?? 1) : undefined,
				apply_background: flag(document.applyBackground, 'Apply Background') ?? false,
			});
		}
	}

	const entries = settings.metadata?.entry ?? [];
	if (entries.length) {
		const metadata: FormObject = {};
		for (const { key, value } of entries) {
			const name = text(key, 'Metadata Key')?.trim();
			if (!name) throw fail('A metadata entry has no key', 'Give every Metadata entry a key, or remove the empty one.');
			if (!/^[A-Za-z0-9_-]+$/.test(name)) {
				throw fail(`Metadata key "${name}" has characters Intelliprint cannot store`, 'Use letters, digits, "_" and "-" only.');
			}
			const given = text(value, `Metadata → ${name}`);
			// An expression that gave nothing would store an empty value and lose what it was meant to record.
			if (given === undefined) throw fail(`Metadata "${name}" has no value`, 'Nothing was sent. Its expression gave nothing for this item: check the field it reads, or remove the entry.');
			metadata[name] = given;
		}
		body.metadata = metadata;
	}
	return defined(body) ?? {};
}
