import { fail } from './http';
import { pageCount, readPages, type PageText, type WindowSide } from './pdf';
import type { Address, Recipient } from './recipients';
import { addressedCopies, renderContent } from './render';

/** The fake's price list in pence (ours; the real one differs), per letter plus per extra sheet. */
const POSTAGE_PENCE: Record<string, number> = {
	uk_second_class: 85, uk_first_class: 105, uk_second_class_signed_for: 245, uk_first_class_signed_for: 275,
	uk_special_delivery: 850, uk_special_delivery_9am: 1050, tracked_24: 310, tracked_48: 270, international: 220,
};
const PER_EXTRA_SHEET_PENCE = 5;
const PREMIUM_PER_SHEET_PENCE = 10;
/**
 * Postcards (ours: the vendor's postcard prices are not public): printed and posted second class for this much,
 * other services adding what they add to a letter; a matt finish costs 5p more.
 */
export const POSTCARD_PENCE: Record<string, number> = { postcard_a6: 55, postcard_a5: 70, postcard_a5_enveloped: 95 };
const MATT_FINISH_PENCE = 5;
const PENNY = 1_000_000; // amounts carry 8 implied decimals of a pound
const POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b/;

export interface Cost { amount: number; after_tax: number; currency: 'GBP' }

export interface FakeLetter {
	id: string;
	object: 'letter';
	status: string;
	pages: number;
	sheets: number;
	postage_service: string;
	envelope: string;
	address: { name: string | null; line: string | null; postcode: string | null; country: string | null };
	tracking_number: string | null;
	print_stream: string | null;
	cost: Cost;
	shipped_date: number | null;
	pdf_status: 'built' | 'deleted';
	pdf: string | null;
	returned?: { date: number; reason: string; acknowledged: boolean } | null;
	/** Internal: the page range of the letter in the uploaded file (not sent to clients). */
	_pages?: number[];
}

export interface LetterSettings {
	type?: string;
	address_window?: WindowSide;
	splitting: { method: string; phrase: string | null; pages: number | null };
	printing: { double_sided: string; double_sided_specific_pages: number[] | null; premium_quality: boolean; black_and_white?: boolean; matt_finish?: boolean };
	postage: { service: string; ideal_envelope: string };
	remove_letters: { with_phrase: string | null };
	extraPages: number;
}

export function cost(pence: number): Cost {
	const amount = pence * PENNY;
	return { amount, after_tax: Math.round(amount * 1.2), currency: 'GBP' };
}

function sheetsFor(pages: number, printing: LetterSettings['printing']): number {
	if (printing.double_sided === 'yes') return Math.ceil(pages / 2);
	if (printing.double_sided !== 'mixed') return pages;
	const doubled = new Set(printing.double_sided_specific_pages ?? []);
	let sheets = 0;
	for (let page = 1; page <= pages; page++) {
		sheets++;
		if (doubled.has(page) && page < pages) page++;
	}
	return sheets;
}

function groupPages(pages: PageText[], splitting: LetterSettings['splitting']): number[][] {
	const all = pages.map((_, index) => index);
	if (splitting.method === 'split_on_pages') {
		const size = splitting.pages ?? 1;
		const groups: number[][] = [];
		for (let i = 0; i < all.length; i += size) groups.push(all.slice(i, i + size));
		return groups;
	}
	if (splitting.method === 'split_on_phrase' && splitting.phrase) {
		const groups: number[][] = [];
		for (const index of all) {
			if (groups.length === 0 || pages[index].text.includes(splitting.phrase)) groups.push([index]);
			else groups[groups.length - 1].push(index);
		}
		return groups;
	}
	return [all];
}

function address(page: PageText): FakeLetter['address'] {
	const lines = page.windowLines.filter(Boolean);
	if (lines.length === 0) return { name: null, line: null, postcode: null, country: null };
	const postcodeLine = [...lines].reverse().find((line) => POSTCODE.test(line));
	return {
		name: lines[0],
		line: lines.slice(1).join('\n') || null,
		postcode: postcodeLine ? POSTCODE.exec(postcodeLine)![0] : null,
		country: postcodeLine ? 'GB' : null,
	};
}

/**
 * A letter of `pages` pages (extra documents included), priced. Postcards have two sides on one card whatever
 * the file held. Black and white costs the same as colour here (ours).
 */
function letter(settings: LetterSettings, pages: number, address: FakeLetter['address'], group: number[], newId: () => string): FakeLetter {
	const postcard = settings.type === 'postcard';
	const [letterPages, sheets] = postcard ? [2, 1] : [pages, sheetsFor(pages, settings.printing)];
	const envelope = settings.postage.ideal_envelope;
	const postage = POSTAGE_PENCE[settings.postage.service];
	const pence = postcard
		? POSTCARD_PENCE[envelope] + postage - POSTAGE_PENCE.uk_second_class + (settings.printing.matt_finish ? MATT_FINISH_PENCE : 0)
		: postage + (sheets - 1) * PER_EXTRA_SHEET_PENCE + (settings.printing.premium_quality ? sheets * PREMIUM_PER_SHEET_PENCE : 0);
	return {
		id: newId(), object: 'letter', status: 'draft', pages: letterPages, sheets,
		postage_service: settings.postage.service,
		envelope: !postcard && sheets > 5 && envelope === 'c5' ? 'c4' : envelope,
		address, tracking_number: null, print_stream: null,
		cost: cost(pence), shipped_date: null, pdf_status: 'built', pdf: null, returned: null, _pages: group,
	};
}

/** Splits the uploaded PDF into letters the way the API describes, and prices them. */
export async function buildLetters(pdf: Buffer, settings: LetterSettings, newId: () => string): Promise<{ letters: FakeLetter[]; pages: number }> {
	const pages = await readPages(pdf, settings.address_window);
	const groups = groupPages(pages, settings.splitting);
	const phrase = settings.remove_letters.with_phrase;
	const kept = phrase ? groups.filter((group) => !group.some((index) => pages[index].text.includes(phrase))) : groups;
	const long = settings.type === 'postcard' ? kept.findIndex((group) => group.length > 2) : -1;
	if (long !== -1) throw fail.invalid('parameter_invalid', `Invalid value for file: a postcard has two sides, but postcard ${long + 1} has ${kept[long].length} pages. Split the file so each postcard has one or two.`, 'file');
	const letters = kept.map((group) => letter(settings, group.length + settings.extraPages, address(pages[group[0]]), group, newId));
	return { letters, pages: pages.length };
}

/** Content letters: rendered one per recipient (see render.ts), addressed to the recipient, priced like any letter. */
export async function buildContentLetters(
	content: string,
	recipients: Array<{ address: Address; variables: Record<string, string> }>,
	settings: LetterSettings,
	newId: () => string,
): Promise<{ letters: FakeLetter[]; pdf: Buffer }> {
	const type = settings.type === 'postcard' ? 'postcard' : 'letter';
	const rendered = await renderContent({ content, recipients, type, size: settings.postage.ideal_envelope, window: settings.address_window ?? 'left' });
	const phrase = settings.remove_letters.with_phrase;
	const letters = rendered.letters.flatMap((drawn, index) =>
		phrase && drawn.text.includes(phrase) ? [] : [letter(settings, drawn.pages.length + settings.extraPages, { ...recipients[index].address }, drawn.pages, newId)],
	);
	return { letters, pdf: rendered.pdf };
}

/**
 * A PDF to recipients: the same file once per recipient, addressed in the envelope window (see addressedCopies),
 * one letter each, priced like any letter. The file's text decides `remove_letters` for all of them alike.
 */
export async function buildFileLetters(pdf: Buffer, recipients: Recipient[], settings: LetterSettings, newId: () => string): Promise<{ letters: FakeLetter[]; pdf: Buffer }> {
	if (settings.type === 'postcard') {
		const pages = await pageCount(pdf);
		if (pages > 2) throw fail.invalid('parameter_invalid', `Invalid value for file: a postcard has two sides, but the file has ${pages} pages, and each recipient's postcard is the whole file.`, 'file');
	}
	const phrase = settings.remove_letters.with_phrase;
	const kept = phrase && (await readPages(pdf)).some((page) => page.text.includes(phrase)) ? [] : recipients;
	const copies = await addressedCopies(pdf, kept, settings.address_window ?? 'left');
	const letters = kept.map((recipient, index) => {
		const pages = Array.from({ length: copies.size }, (_, page) => index * copies.size + page);
		return letter(settings, copies.size + settings.extraPages, { ...recipient.address }, pages, newId);
	});
	return { letters, pdf: copies.pdf };
}
