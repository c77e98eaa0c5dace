/**
 * Whether an address can arrive, checked before a letter is paid for: the country as an ISO 3166-1 alpha-2 code
 * (names and aliases a sheet holds read as their codes), the postcode in its country's published format and in
 * its standard form, and the address fitting the envelope window. Pure rules, no n8n: recipients.ts applies them.
 * The rules and their sources are listed in the README ("Addresses checked before sending").
 */

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

/** Postcodes of other countries whose format is well defined, as [pattern on the compact form, standard form]. */
const OTHER_POSTCODES: Record<string, { shape: RegExp; form: (compact: string) => string; example: string }> = {
	// Eircode: a routing key (a letter and two digits, or D6W) and four characters, from a set without B, G, I, J, L, M, O, Q, S, U, Z.
	IE: { shape: /^(?:[AC-FHKNPRTV-Y][0-9]{2}|D6W)[0-9AC-FHKNPRTV-Y]{4}$/, form: (c) => `${c.slice(0, 3)} ${c.slice(3)}`, example: 'A65 F4E2' },
	US: { shape: /^[0-9]{5}(?:-?[0-9]{4})?$/, form: (c) => (c.length > 5 ? `${c.slice(0, 5)}-${c.slice(-4)}` : c), example: '10001' },
	CA: { shape: /^[ABCEGHJ-NPRSTVXY][0-9][ABCEGHJ-NPRSTV-Z][0-9][ABCEGHJ-NPRSTV-Z][0-9]$/, form: (c) => `${c.slice(0, 3)} ${c.slice(3)}`, example: 'K1A 0B1' },
	DE: { shape: /^[0-9]{5}$/, form: (c) => c, example: '10115' },
	FR: { shape: /^[0-9]{5}$/, form: (c) => c, example: '75008' },
	ES: { shape: /^(?:0[1-9]|[1-4][0-9]|5[0-2])[0-9]{3}$/, form: (c) => c, example: '28001' },
	IT: { shape: /^[0-9]{5}$/, form: (c) => c, example: '00184' },
	NL: { shape: /^[1-9][0-9]{3}(?!SA|SD|SS)[A-Z]{2}$/, form: (c) => `${c.slice(0, 4)} ${c.slice(4)}`, example: '1012 AB' },
	BE: { shape: /^[1-9][0-9]{3}$/, form: (c) => c, example: '1000' },
	AT: { shape: /^[1-9][0-9]{3}$/, form: (c) => c, example: '1010' },
	CH: { shape: /^[1-9][0-9]{3}$/, form: (c) => c, example: '8001' },
	DK: { shape: /^[1-9][0-9]{3}$/, form: (c) => c, example: '1050' },
	NO: { shape: /^[0-9]{4}$/, form: (c) => c, example: '0150' },
	SE: { shape: /^[1-9][0-9]{4}$/, form: (c) => `${c.slice(0, 3)} ${c.slice(3)}`, example: '111 22' },
	PL: { shape: /^[0-9]{2}-?[0-9]{3}$/, form: (c) => `${c.slice(0, 2)}-${c.slice(-3)}`, example: '00-950' },
	PT: { shape: /^[1-9][0-9]{3}-?[0-9]{3}$/, form: (c) => `${c.slice(0, 4)}-${c.slice(-3)}`, example: '1000-001' },
	AU: { shape: /^[0-9]{4}$/, form: (c) => c, example: '2000' },
	NZ: { shape: /^[0-9]{4}$/, form: (c) => c, example: '6011' },
};

/** Names and aliases a sheet holds, besides the English names every code has (built below from Intl). */
const ALIASES: Record<string, string> = {
	uk: 'GB', 'united kingdom': 'GB', 'great britain': 'GB', britain: 'GB', england: 'GB', scotland: 'GB', wales: 'GB', cymru: 'GB',
	'northern ireland': 'GB', 'united kingdom of great britain and northern ireland': 'GB', 'england uk': 'GB', 'scotland uk': 'GB', 'wales uk': 'GB',
	ireland: 'IE', 'republic of ireland': 'IE', eire: 'IE', roi: 'IE', 'irish republic': 'IE',
	guernsey: 'GG', alderney: 'GG', sark: 'GG', jersey: 'JE', 'isle of man': 'IM',
	usa: 'US', 'united states': 'US', 'united states of america': 'US', america: 'US', holland: 'NL', 'the netherlands': 'NL',
	deutschland: 'DE', espana: 'ES', italia: 'IT', 'south korea': 'KR', 'north korea': 'KP', russia: 'RU', 'czech republic': 'CZ',
};

const simplify = (text: string) =>
	text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[.'’]/g, '').replace(/[^a-z&]+/g, ' ').trim().replace(/^the /, '');

/** Region codes Intl names that are not countries one can post to (groupings, placeholders, user-assigned). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ', 'XA', 'XB', 'XK']);
let known: { byName: Map<string, string>; codes: Set<string> } | undefined;
/** Every ISO 3166-1 alpha-2 code n8n's runtime knows, by its English name (Intl), with the aliases above. */
function countries(): { byName: Map<string, string>; codes: Set<string> } {
	if (known) return known;
	const byName = new Map(Object.entries(ALIASES));
	const codes = new Set<string>();
	const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
	for (let a = 65; a <= 90; a++) {
		for (let b = 65; b <= 90; b++) {
			const code = String.fromCharCode(a, b);
			const name = names.of(code);
			// A code withdrawn from ISO 3166 (DD, YU, SU…) canonicalises to its successor: not a code to send.
			if (!name || name === code || NOT_COUNTRIES.has(code) || Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
			codes.add(code);
			if (!byName.has(simplify(name))) byName.set(simplify(name), code);
		}
	}
	known = { byName, codes };
	return known;
}

/** The country as its two-letter code: a code, or a name or alias a sheet holds. Empty is GB (the API's default). */
export function countryOf(given: string): { code: string } | Problem {
	const text = given.trim();
	if (!text) return { code: 'GB' };
	const upper = text.toUpperCase().replace(/\./g, '');
	if (upper === 'UK') return { code: 'GB' };
	if (/^[A-Z]{2}$/.test(upper) && countries().codes.has(upper)) return { code: upper };
	const named = countries().byName.get(simplify(text));
	if (named) return { code: named };
	return { problem: `Country "${text}" is not a country Intelliprint knows`, fix: 'Give its two-letter code (GB, IE, FR…) or its English name; an empty country is GB.' };
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
	const rule = OTHER_POSTCODES[country];
	if (!rule) return { postcode: given.trim().replace(/\s+/g, ' ') };
	if (!rule.shape.test(compact)) return { problem: `${shown} is not a postcode of ${country}`, fix: `Postcodes of ${country} are like ${rule.example}: check the postcode or the country.` };
	return { postcode: rule.form(compact.replace(/-/g, '')) };
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
