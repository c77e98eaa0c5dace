import { readPages, type PageText } from './pdf';

/** The fake's price list in pence (ours; the real one differs), per letter plus per extra sheet. */
const POSTAGE_PENCE: Record<string, number> = {
	uk_second_class: 85, uk_first_class: 105, uk_second_class_signed_for: 245, uk_first_class_signed_for: 275,
	uk_special_delivery: 850, uk_special_delivery_9am: 1050, tracked_24: 310, tracked_48: 270, international: 220,
};
const PER_EXTRA_SHEET_PENCE = 5;
const PREMIUM_PER_SHEET_PENCE = 10;
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
	splitting: { method: string; phrase: string | null; pages: number | null };
	printing: { double_sided: string; double_sided_specific_pages: number[] | null; premium_quality: boolean };
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

/** Splits the uploaded PDF into letters the way the API describes, and prices them. */
export async function buildLetters(pdf: Buffer, settings: LetterSettings, newId: () => string): Promise<{ letters: FakeLetter[]; pages: number }> {
	const pages = await readPages(pdf);
	const groups = groupPages(pages, settings.splitting);
	const phrase = settings.remove_letters.with_phrase;
	const kept = phrase ? groups.filter((group) => !group.some((index) => pages[index].text.includes(phrase))) : groups;
	const envelope = settings.postage.ideal_envelope;
	const letters = kept.map((group): FakeLetter => {
		const letterPages = group.length + settings.extraPages;
		const sheets = sheetsFor(letterPages, settings.printing);
		const pence =
			POSTAGE_PENCE[settings.postage.service] +
			(sheets - 1) * PER_EXTRA_SHEET_PENCE +
			(settings.printing.premium_quality ? sheets * PREMIUM_PER_SHEET_PENCE : 0);
		return {
			id: newId(), object: 'letter', status: 'draft', pages: letterPages, sheets,
			postage_service: settings.postage.service,
			envelope: sheets > 5 && envelope === 'c5' ? 'c4' : envelope,
			address: address(pages[group[0]]), tracking_number: null, print_stream: null,
			cost: cost(pence), shipped_date: null, pdf_status: 'built', pdf: null, returned: null, _pages: group,
		};
	});
	return { letters, pages: pages.length };
}
