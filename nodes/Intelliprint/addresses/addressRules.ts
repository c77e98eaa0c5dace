/**
 * Whether an address can arrive, checked before a letter is paid for: the country as an ISO 3166-1 alpha-2 code
 * (names and aliases a sheet holds read as their codes), the postcode in its country's published format and in
 * its standard form, and the address fitting the envelope window. Pure rules, no n8n: recipients.ts applies them.
 * The rules and their sources are listed in docs/addresses.md.
 */

import { countryRow, countryTable, type CountryRow } from './countryTable';
import { codePoint, postcodeText, printedText } from './visibleText';

/**
 * Lines below the name that the envelope window shows: a PAF address has at most six above its postcode
 * (organisation, sub-building, building, street, locality, post town). Intelliprint publishes no limit.
 */
export const MAX_ADDRESS_LINES = 6;
/**
 * The longest line accepted: the longest field of Royal Mail's address file (PAF: organisation name and
 * thoroughfare, 60 characters), so that no address Royal Mail itself holds is refused. Intelliprint publishes no limit.
 */
export const MAX_LINE_LENGTH = 60;

export interface Address {
	name: string;
	line: string;
	postcode: string;
	country: string;
}
export type AddressField = 'name' | 'address' | 'postcode' | 'country';
export type Verdict = { ok: true; address: Address } | { ok: false; field: AddressField; value: string; reason: string; fix: string };
/** What is wrong, in a few words with the value, and what to change. */
type Problem = { problem: string; fix: string };

// Royal Mail's format (BS 7666): outward code A9, A99, AA9, AA99, A9A or AA9A, inward code 9AA; letters are not used
// in every position (Q, V, X never first; I, J, Z never second; C, I, K, M, O, V never in the inward code).
const OUTWARD = '(?:[A-PR-UWYZ](?:[0-9]{1,2}|[0-9][A-HJKPS-UW])|[A-PR-UWYZ][A-HK-Y](?:[0-9]{1,2}|[0-9][ABEHMNPRV-Y]))';
const INWARD = '[0-9][ABD-HJLNP-UW-Z]{2}';
const UK_POSTCODE = new RegExp(`^(${OUTWARD})(${INWARD})$`);
const UK_OUTWARD_ONLY = new RegExp(`^${OUTWARD}$`);
/** The Crown dependencies post with Royal Mail's format, each under its own area. */
const CROWN_AREAS: Record<string, string> = { GG: 'GY', JE: 'JE', IM: 'IM' };

/**
 * What sheets write for a country besides its names in the data (countryData.ts, generated from maintained
 * packages): the UK's nations and shorthands, and a few common names the packages do not carry.
 */
const SHEET_NAMES: Record<string, string> = {
	uk: 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', cymru: 'GB', 'northern ireland': 'GB',
	'great britain and northern ireland': 'GB', 'united kingdom of great britain and northern ireland': 'GB', 'england uk': 'GB', 'scotland uk': 'GB', 'wales uk': 'GB',
	'republic of ireland': 'IE', eire: 'IE', roi: 'IE', 'irish republic': 'IE', alderney: 'GG', sark: 'GG',
	america: 'US', 'united states': 'US', holland: 'NL', 'south korea': 'KR', 'north korea': 'KP', russia: 'RU', 'czech republic': 'CZ',
	ascension: 'SH', 'ascension island': 'SH', 'tristan da cunha': 'SH',
};
/** Codes in the data that are not countries to post to: not ISO-assigned (posted as their country), or with no post. */
const NOT_POSTABLE: Record<string, string> = { AC: 'SH', TA: 'SH', XK: '', AQ: '', BV: '', HM: '', UM: '' };

const simplify = (text: string) =>
	text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/&/g, ' and ').replace(/[.'’]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim().replace(/^the /, '');

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
	for (const [name, code] of Object.entries(SHEET_NAMES)) add(0, name, code);
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

const englishName = (code: string) => new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' }).of(code) ?? code;

/** The country as its two-letter code: a code, or a name or alias a sheet holds. Empty is GB (the API's default). */
export function countryOf(given: string): { code: string } | Problem {
	const text = given.trim();
	if (!text) return { code: 'GB' };
	const upper = text.toUpperCase().replace(/\./g, '');
	if (/^[A-Z]{2}$/.test(upper) && countries().codes.has(upper)) return { code: upper };
	const found = countries().byName.get(simplify(text));
	if (found?.size === 1) return { code: [...found][0] };
	if (found && found.size > 1) {
		const candidates = [...found].map((code) => `${englishName(code)} (${code})`).join(' or ');
		return { problem: `Country "${text}" could be ${candidates}`, fix: 'Give the two-letter code of the one meant.' };
	}
	if (NOT_POSTABLE[upper] === '') return { problem: `Country "${text}" is not a place Intelliprint can post to`, fix: 'Check the country: it has no postal service of its own.' };
	return { problem: `Country "${text}" is not a country Intelliprint knows`, fix: 'Give its two-letter code (GB, IE, FR…), its three-letter code or its name; an empty country is GB.' };
}

/** Whether a letter to this country needs a postcode: the UK's always; elsewhere as its post publishes. */
export function postcodeNeeded(country: string): boolean {
	const place = countryOf(country);
	// A country that cannot be read is the row's problem to report, before any postcode.
	if ('problem' in place) return false;
	return place.code === 'GB' || Boolean(CROWN_AREAS[place.code]) || countryRow(place.code)?.postcode === 'required';
}

const shape = (text: string) => text.replace(/[A-Z]/g, 'A').replace(/[0-9]/g, '9');

/**
 * The ways to write the postcode, most standard first: as the country's published examples of its shape write it
 * (Japan's "150-0001"), then, for a shape no example has, with the space or hyphen its pattern names where the
 * pattern takes it (Ireland's "D02 X285"), then without one.
 */
function writings(compact: string, row: CountryRow): string[] {
	const fromExamples = row.examples.flatMap((example) => {
		if (shape(example.replace(/[\s-]/g, '')) !== shape(compact)) return [];
		let at = 0;
		return [example.replace(/[^\s-]/g, () => compact[at++])];
	});
	const separated = [' ', '-']
		.filter((separator) => row.patternSource.includes(separator))
		.flatMap((separator) => Array.from({ length: compact.length - 1 }, (_, at) => `${compact.slice(0, at + 1)}${separator}${compact.slice(at + 1)}`));
	return [...fromExamples, ...separated, compact];
}

/** A postcode of a country other than the UK, checked against the data: required, optional or absent, and its pattern. */
function postcodeAbroad(given: string, country: string): { postcode: string } | Problem {
	const row = countryRow(country);
	let typed = given.toUpperCase().trim().replace(/\s+/g, ' ');
	if (row?.prefix && typed.startsWith(row.prefix.toUpperCase())) typed = typed.slice(row.prefix.length).trim();
	const name = `${englishName(country)} (${country})`;
	if (!typed) {
		if (row?.postcode === 'required') return { problem: `A letter to ${name} needs a postcode`, fix: `Postcodes of ${country} are like ${row.examples[0] ?? '…'}: fill it in.` };
		return { postcode: '' };
	}
	// A country without postcodes, or without a published pattern: what the sheet has goes on the envelope as typed.
	if (!row?.pattern) return { postcode: typed };
	const fitting = writings(typed.replace(/[\s-]/g, ''), row).find((form) => row.pattern!.test(form)) ?? (row.pattern.test(typed) ? typed : undefined);
	if (fitting) return { postcode: fitting };
	return { problem: `Postcode "${given.trim()}" is not a postcode of ${country}`, fix: `Postcodes of ${name} are like ${row.examples.slice(0, 2).join(' or ')}: check the postcode or the country.` };
}

/** The postcode in its standard form for the country, or why it cannot be one. */
export function postcodeOf(given: string, country: string): { postcode: string } | Problem {
	const compact = given.toUpperCase().replace(/\s+/g, '');
	const shown = `Postcode "${given.trim()}"`;
	if (country === 'GB' || CROWN_AREAS[country]) {
		if (compact === 'GIR0AA') return { postcode: 'GIR 0AA' };
		const bfpo = /^BFPO([0-9]{1,4})$/.exec(compact);
		if (bfpo && country === 'GB') return { postcode: `BFPO ${bfpo[1]}` };
		const match = UK_POSTCODE.exec(compact);
		if (!match) {
			if (UK_OUTWARD_ONLY.test(compact)) return { problem: `${shown} is not a complete UK postcode`, fix: `It has the district (${compact}) but not the last three characters, as in ${compact} 1AA: look the full postcode up.` };
			const meant = oneSlipAway(compact);
			return {
				problem: `${shown} is not a UK postcode${meant ? ` (did you mean "${meant}"?)` : ''}`,
				fix: meant
					? `A letter O typed for a zero, or an I for a one, is the usual slip: check the postcode against the address, and correct it if "${meant}" is right.`
					: "Royal Mail's postcodes are like SW1A 1AA, M1 1AE or B33 8TH; for an address abroad, give its country.",
			};
		}
		const area = CROWN_AREAS[country];
		if (area && !compact.startsWith(area)) return { problem: `${shown} is not a postcode of ${country}`, fix: `Postcodes of ${country} start with ${area}: check the postcode or the country.` };
		return { postcode: `${match[1]} ${match[2]}` };
	}
	return postcodeAbroad(given, country);
}

/** Letters and digits typed for one another: O and 0, I and 1. */
const SLIPS: Record<string, string> = { O: '0', '0': 'O', I: '1', '1': 'I' };

/**
 * The one UK postcode a single O/0 or I/1 slip away from `compact`, if exactly one is: shown to the user as a
 * question, never applied, since another real postcode may be meant.
 */
function oneSlipAway(compact: string): string | undefined {
	const found = new Set<string>();
	for (let at = 0; at < compact.length; at++) {
		const other = SLIPS[compact[at]];
		if (!other) continue;
		const match = UK_POSTCODE.exec(`${compact.slice(0, at)}${other}${compact.slice(at + 1)}`);
		if (match) found.add(`${match[1]} ${match[2]}`);
	}
	return found.size === 1 ? [...found][0] : undefined;
}

/** The whole check of one address, its parts already read as text (the lines joined by "\n"). */
export function checkAddress(givenName: string, givenLine: string, givenPostcode: string, givenCountry: string): Verdict {
	const printed = { name: printedText(givenName, false), address: printedText(givenLine, true) };
	for (const field of ['name', 'address'] as const) {
		const { text, refused } = printed[field];
		if (refused === undefined) continue;
		const where = field === 'name' ? 'The name' : `Address line ${text.split('\n').findIndex((part) => part.includes(refused)) + 1}`;
		return {
			ok: false,
			field,
			value: field === 'name' ? givenName : givenLine,
			reason: `${where} holds an invisible character (${codePoint(refused)}) that would change what is printed`,
			fix: 'It looks right on screen but is not: retype the value, or delete the character (it often comes with text copied from another system).',
		};
	}
	const [name, line, postcode, country] = [printed.name.text, printed.address.text, postcodeText(givenPostcode), postcodeText(givenCountry)];
	const place = countryOf(country);
	if ('problem' in place) return { ok: false, field: 'country', value: country, reason: place.problem, fix: place.fix };
	const code = postcodeOf(postcode, place.code);
	if ('problem' in code) return { ok: false, field: 'postcode', value: postcode, reason: code.problem, fix: code.fix };
	const lines = line.split('\n');
	if (lines.length > MAX_ADDRESS_LINES) {
		return { ok: false, field: 'address', value: line, reason: `The address has ${lines.length} lines below the name`, fix: `The envelope window shows ${MAX_ADDRESS_LINES}: join or drop lines.` };
	}
	const long = [name, ...lines].find((text) => text.length > MAX_LINE_LENGTH);
	if (long !== undefined) {
		return {
			ok: false,
			field: long === name ? 'name' : 'address',
			value: long,
			reason: `${long === name ? 'The name' : 'Address line'} "${long.slice(0, 40)}…" is ${long.length} characters long`,
			fix: `A line of the envelope window holds ${MAX_LINE_LENGTH}: ${long === name ? 'shorten it' : 'split it over two lines'}.`,
		};
	}
	return { ok: true, address: { name, line, postcode: code.postcode, country: place.code } };
}

/** Two recipients are one when name, lines, postcode and country agree once case, spacing and punctuation are set aside. */
export function sameRecipientKey(address: Address): string {
	const plain = (text: string) => text.toLowerCase().replace(/[.,'’]/g, '').replace(/\s+/g, ' ').trim();
	return [plain(address.name), plain(address.line), address.postcode, address.country].join('|');
}
