/**
 * The country of an address as its ISO 3166-1 alpha-2 code, from what a sheet holds: a code, a name in English or
 * in the country's languages, an alias, or a place then its country ("Scotland, United Kingdom"). And the country's
 * name as a message says it. The names and their sources are listed in docs/addresses.md.
 */

import { countryTable } from './countryTable';

/** What is wrong, in a few words with the value, and what to change. */
export type Problem = { problem: string; fix: string };

/**
 * What sheets write for a country besides its names in the data (countryData.ts, generated from maintained
 * packages): the UK's nations and shorthands, common names the packages do not carry, and the names of the World
 * Bank's, the UN's and the IMF's country lists, which exports of their data bring along. Codes separated by a
 * space name more than one country, and such a name is refused with them as candidates.
 */
const SHEET_NAMES: Record<string, string> = {
	uk: 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', cymru: 'GB', 'northern ireland': 'GB',
	'great britain and northern ireland': 'GB', 'united kingdom of great britain and northern ireland': 'GB', 'england uk': 'GB', 'scotland uk': 'GB', 'wales uk': 'GB',
	'republic of ireland': 'IE', eire: 'IE', roi: 'IE', 'irish republic': 'IE', alderney: 'GG', sark: 'GG', 'channel islands': 'JE GG',
	america: 'US', 'united states': 'US', holland: 'NL', 'south korea': 'KR', 'north korea': 'KP', russia: 'RU', 'czech republic': 'CZ',
	ascension: 'SH', 'ascension island': 'SH', 'tristan da cunha': 'SH', vatican: 'VA', macau: 'MO', 'macau sar': 'MO', 'macao sar': 'MO',
	'macau china': 'MO', 'macao china': 'MO', 'china macao sar': 'MO', 'china macao special administrative region': 'MO',
	'hong kong sar': 'HK', hksar: 'HK', 'hong kong china': 'HK', 'china hong kong sar': 'HK', 'china hong kong special administrative region': 'HK',
	'korea rep': 'KR', 'korea south': 'KR', 'korea dem rep': 'KP', 'korea dem peoples rep': 'KP', 'korea dpr': 'KP', 'dpr korea': 'KP', dprk: 'KP', 'korea north': 'KP',
	'dr congo': 'CD', drc: 'CD', 'congo dr': 'CD', 'congo dem rep': 'CD', 'dem rep congo': 'CD', 'congo dem rep of the': 'CD', 'congo rep': 'CG', 'congo republic of': 'CG',
	'egypt arab rep': 'EG', 'iran islamic rep': 'IR', 'yemen rep': 'YE', 'venezuela rb': 'VE', 'micronesia fed sts': 'FM', 'lao pdr': 'LA',
	'kyrgyz republic': 'KG', 'slovak republic': 'SK', 'macedonia fyr': 'MK', 'somalia fed rep': 'SO', 'west bank and gaza': 'PS',
};
/** Codes in the data that are not countries to post to: not ISO-assigned (posted as their country), or with no post. */
const NOT_POSTABLE: Record<string, string> = { AC: 'SH', TA: 'SH', XK: '', AQ: '', BV: '', HM: '', UM: '' };

/** A key for telling names apart: case, accents, punctuation, "&" and "St." for "and" and "Saint", a "the" before or after. */
const simplify = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/&/g, ' and ')
		.replace(/[.'’]/g, '')
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim()
		.replace(/^the | the$/g, '')
		.replace(/^st /, 'saint ');

/** Each name's codes, by how sure a match is: a sheet's usage and codes first, then English, then other names. */
let known: { byName: Map<string, Set<string>>; codes: Set<string> } | undefined;
function countries(): { byName: Map<string, Set<string>>; codes: Set<string> } {
	if (known) return known;
	const tiers: Array<Map<string, Set<string>>> = [new Map(), new Map(), new Map(), new Map()];
	const add = (tier: number, name: string | undefined, code: string) => {
		const key = name ? simplify(name) : '';
		if (key) tiers[tier].set(key, (tiers[tier].get(key) ?? new Set<string>()).add(code));
	};
	const displays = new Map<string, Intl.DisplayNames>();
	const nameIn = (language: string, code: string) => {
		if (!displays.has(language)) displays.set(language, new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }));
		return displays.get(language)!.of(code);
	};
	const codes = new Set<string>();
	for (const [name, found] of Object.entries(SHEET_NAMES)) for (const code of found.split(' ')) add(0, name, code);
	for (const row of countryTable().values()) {
		const code = NOT_POSTABLE[row.code] ?? row.code;
		if (!code) continue;
		if (code === row.code) codes.add(code);
		add(0, row.alpha3, code);
		add(1, nameIn('en', row.code), code);
		for (const name of row.names) add(2, name, code);
		for (const language of row.languages) add(3, nameIn(language, row.code), code);
	}
	// A name keeps the codes of the surest tier that has it: "Korea" (KR, KP) stays two, and is refused as such.
	const byName = new Map<string, Set<string>>();
	for (const tier of tiers) for (const [name, found] of tier) if (!byName.has(name)) byName.set(name, found);
	known = { byName, codes };
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
function placeThenCountry(text: string): Set<string> | Problem | undefined {
	const parts = text.split(',').map((part) => countries().byName.get(simplify(part)));
	const last = parts.pop();
	if (parts.length === 0 || !last) return undefined;
	let found = last;
	for (const named of parts) {
		if (!named) continue;
		const both = new Set([...found].filter((code) => named.has(code)));
		if (!both.size) {
			return {
				problem: `Country "${text}" names more than one country: ${candidates(named)} and ${candidates(found)}`,
				fix: 'Give only the country the letter goes to (its name or two-letter code): a town or region goes on an address line.',
			};
		}
		found = both;
	}
	return found;
}

/** The country as its two-letter code: a code, or a name or alias a sheet holds. Empty is GB (the API's default). */
export function countryOf(given: string): { code: string } | Problem {
	const text = given.trim();
	if (!text) return { code: 'GB' };
	const upper = text.toUpperCase().replace(/\./g, '');
	if (/^[A-Z]{2}$/.test(upper) && countries().codes.has(upper)) return { code: upper };
	const found = countries().byName.get(simplify(text)) ?? (text.includes(',') ? placeThenCountry(text) : undefined);
	if (found instanceof Set) {
		if (found.size === 1) return { code: [...found][0] };
		return { problem: `Country "${text}" could be ${candidates(found)}`, fix: 'Give the two-letter code of the one meant.' };
	}
	if (found) return found;
	if (NOT_POSTABLE[upper] === '') return { problem: `Country "${text}" is not a place Intelliprint can post to`, fix: 'Check the country: it has no postal service of its own.' };
	return { problem: `Country "${text}" is not a country Intelliprint knows`, fix: 'Give its two-letter code (GB, IE, FR…), its three-letter code or its name; an empty country is GB.' };
}
