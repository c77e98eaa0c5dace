/**
 * The country of an address as its ISO 3166-1 alpha-2 code, from what a sheet holds: a code, a name in any of the
 * languages CLDR carries (Intl), a name the data stores or sheets write (sheetNames.ts), read as countryIndex.ts says,
 * or a place then its country ("Scotland, United Kingdom"). And the country's name as a message says it. The names
 * and their sources are listed in docs/addresses.md.
 */

import { CountryIndex, POSTED_AS } from './countryIndex';
import { countryTable, nameLanguages } from './countryTable';
import { nameKey } from './nameKey';
import { SHEET_NAMES } from './sheetNames';

/** What is wrong, in a few words with the value, and what to change; `field` when it is another than the one checked. */
export type Problem = { problem: string; fix: string; field?: 'country' };

/** Codes in the data that are no place to post to: uninhabited, no post of their own, or no code the API takes. */
const NOT_POSTABLE: Record<string, Problem> = {
	XK: {
		problem: "whose code XK is user-assigned, not an ISO 3166-1 code: Intelliprint's API takes ISO 3166-1 country codes, and has none for Kosovo",
		fix: 'Kosovo has its own post (Posta e Kosovës), but the node cannot name it to the API: ask Intelliprint whether it takes XK, or post this letter another way.',
	},
	AQ: { problem: 'which has no postal service of its own', fix: 'Check the country: give the country whose post serves the address.' },
	BV: { problem: 'which is uninhabited, with no postal service', fix: 'Check the country.' },
	HM: { problem: 'which are uninhabited, with no postal service', fix: 'Check the country.' },
	UM: { problem: 'which have no postal service of their own', fix: 'Check the country: give the country whose post serves the address.' },
};

/** A language's names of the territories, or undefined where this runtime's Intl has none (it would answer in English). */
function displayNames(language: string): Intl.DisplayNames | undefined {
	try {
		const display = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
		return display.resolvedOptions().locale.split('-')[0] === language.split('-')[0] ? display : undefined;
	} catch {
		return undefined;
	}
}

let known: { index: CountryIndex; codes: Set<string>; byAlpha3: Map<string, string> } | undefined;
/**
 * Every name of every country, built once at first use: Intl's names in English, in each country's official
 * languages and in the data's other languages (about 19,000), the names sheets write (sheetNames.ts), and those the
 * data stores besides. A name of two countries is both's, and refused as such.
 */
function countries(): { index: CountryIndex; codes: Set<string>; byAlpha3: Map<string, string> } {
	if (known) return known;
	const index = new CountryIndex();
	const rows = [...countryTable().values()];
	// Half the names are the same in another language ("Argentina"): each is made a key once.
	const keys = new Map<string, string>();
	const keyOf = (name = '') => keys.get(name) ?? keys.set(name, nameKey(name)).get(name)!;
	for (const language of nameLanguages()) {
		const display = displayNames(language);
		if (display) for (const row of rows) index.add(keyOf(display.of(row.code)), POSTED_AS[row.code] ?? row.code, language === 'en');
	}
	for (const [name, found] of Object.entries(SHEET_NAMES)) for (const code of found.split(' ')) index.add(nameKey(name), code, true);
	for (const row of rows) for (const key of row.names) index.add(key, POSTED_AS[row.code] ?? row.code);
	const codes = new Set(rows.filter((row) => !POSTED_AS[row.code] && !NOT_POSTABLE[row.code]).map((row) => row.code));
	known = { index, codes, byAlpha3: new Map(rows.map((row) => [row.alpha3, POSTED_AS[row.code] ?? row.code])) };
	return known;
}

/** The alpha-2 codes of the countries Intelliprint can post to. */
export const postableCodes = (): ReadonlySet<string> => countries().codes;

/** Names Intl gives for menus ("Congo - Kinshasa") that a sentence says otherwise. */
const SAID: Record<string, string> = {
	HK: 'Hong Kong', MO: 'Macao', CD: 'the Democratic Republic of the Congo', CG: 'the Republic of the Congo', MM: 'Myanmar', PS: 'Palestine',
};
/** Names said with "the": the Netherlands, the United Kingdom, the Isle of Man, the Cayman Islands… */
const WITH_THE = /^(?:United |Isle of )|(?:Islands|Republic|Netherlands|Philippines|Bahamas|Gambia|Maldives|Comoros|Seychelles|Territories|Territory)$/;

/** The country's name as a sentence says it: "the Netherlands", "France". */
export function countryName(code: string): string {
	const name = SAID[code] ?? new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' }).of(code) ?? code;
	return WITH_THE.test(name) ? `the ${name}` : name;
}
/** The name with the code, as messages name a country: "the Netherlands (NL)". */
export const countryLabel = (code: string) => `${countryName(code)} (${code})`;

const candidates = (codes: Iterable<string>) => [...codes].map(countryLabel).join(' or ');

/**
 * "Scotland, United Kingdom", "London, UK", "Jersey, Channel Islands": places, then the country last, as an
 * address's last lines are written. Parts that name no country are places; every part that names one must agree
 * with the last, or the row is refused with both ("Georgia, USA" names two).
 */
function placeThenCountry(text: string): string[] | Problem | undefined {
	const parts = text.split(',').map((part) => countries().index.find(part));
	const last = parts.pop();
	if (parts.length === 0 || !last) return undefined;
	let found = last;
	for (const named of parts) {
		if (!named) continue;
		const both = found.filter((code) => named.includes(code));
		if (!both.length) {
			return {
				problem: `Country "${text}" names more than one country: ${candidates(named)} and ${candidates(found)}`,
				fix: 'Give only the country the letter goes to (its name or two-letter code): a town or region goes on an address line.',
			};
		}
		found = both;
	}
	return found;
}

/** The country of a written value, as read once: a mail run reads the same few values on every row. */
function read(text: string): { code: string } | Problem {
	const upper = text.toUpperCase().replace(/\./g, '');
	const { index, codes, byAlpha3 } = countries();
	const code = /^[A-Z]{2}$/.test(upper) && (codes.has(upper) || NOT_POSTABLE[upper]) ? upper : byAlpha3.get(upper);
	const found = code ? [code] : (index.find(text) ?? (text.includes(',') ? placeThenCountry(text) : undefined));
	if (found && !Array.isArray(found)) return found;
	if (found?.length === 1 && NOT_POSTABLE[found[0]]) {
		const { problem, fix } = NOT_POSTABLE[found[0]];
		return { problem: `Country "${text}" is ${countryLabel(found[0])}, ${problem}`, fix };
	}
	if (found?.length === 1) return { code: found[0] };
	if (found) return { problem: `Country "${text}" could be ${candidates(found)}`, fix: 'Give the two-letter code of the one meant.' };
	if (POSTED_AS[upper]) {
		return { problem: `Country "${text}" is a code reserved for ${countryName(upper)}, not an ISO 3166-1 code`, fix: `${countryName(upper)} is part of ${countryLabel(POSTED_AS[upper])}: give ${POSTED_AS[upper]}.` };
	}
	return { problem: `Country "${text}" is not a country Intelliprint knows`, fix: 'Give its two-letter code (GB, IE, FR…), its three-letter code or its name; an empty country is GB.' };
}

const memo = new Map<string, { code: string } | Problem>();
/** The country as its two-letter code: a code, or a name or alias a sheet holds. Empty is GB (the API's default). */
export function countryOf(given: string): { code: string } | Problem {
	const text = given.trim();
	if (!text) return { code: 'GB' };
	let verdict = memo.get(text);
	if (!verdict) {
		if (memo.size >= 10_000) memo.clear();
		verdict = read(text);
		memo.set(text, verdict);
	}
	return verdict;
}
