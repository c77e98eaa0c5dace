/**
 * Whether an address can arrive, checked before a letter is paid for: the country as an ISO 3166-1 alpha-2 code
 * (countryNames.ts), the postcode in its country's published format and in its standard form (postcodeRules.ts),
 * text that would not print as it looks (visibleText.ts), and the address fitting the envelope window. Pure rules,
 * no n8n: recipients.ts applies them. The rules and their sources are listed in docs/addresses.md.
 */

import { countryOf } from './countryNames';
import { postcodeOf } from './postcodeRules';
import { codePoint, postcodeText, printedText } from './visibleText';

export { countryLabel, countryOf } from './countryNames';
export { postcodeNeeded, postcodeOf } from './postcodeRules';

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
	if ('problem' in code) return { ok: false, field: code.field ?? 'postcode', value: code.field ? country : postcode, reason: code.problem, fix: code.fix };
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

/**
 * Two recipients are one when name, lines, postcode and country agree once case, spacing, punctuation and Unicode
 * form are set aside: "Müller" typed with a combining diaeresis is the same name as with a precomposed "ü".
 */
export function sameRecipientKey(address: Address): string {
	const plain = (text: string) => text.normalize('NFC').toLowerCase().replace(/[.,'’]/g, '').replace(/\s+/g, ' ').trim();
	return [plain(address.name), plain(address.line), address.postcode, address.country].join('|');
}
