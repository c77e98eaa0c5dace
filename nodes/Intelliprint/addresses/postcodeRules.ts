/**
 * The postcode in its standard form for its country, or why it cannot be one: Royal Mail's format for the UK and
 * the Crown dependencies (ukPostcodes.ts), each other country's published rule (countryTable.ts, nationalRules.ts),
 * values that mean "none", and country letters written before the postcode (postcodePrefixes.ts).
 */

import { countryLabel, countryName, countryOf, type Problem } from './countryNames';
import { countryRow, type CountryRow } from './countryTable';
import { NATIONAL_RULES } from './nationalRules';
import { countryPrefixes } from './postcodePrefixes';
import { looksBritish, otherTerritory, postsWithRoyalMail, royalMailExample, royalMailPostcode } from './ukPostcodes';

/** Whether a letter to this country needs a postcode: the UK's always; elsewhere as its post publishes. */
export function postcodeNeeded(country: string): boolean {
	const place = countryOf(country);
	// A country that cannot be read is the row's problem to report, before any postcode.
	if ('problem' in place) return false;
	return postsWithRoyalMail(place.code) || countryRow(place.code)?.postcode === 'required';
}

/**
 * What sheets put in a postcode column for "none": words, dashes, dots, a question mark or zeros only. No country's
 * post assigns any of them (no published pattern takes the words), and printing one would send the letter with a
 * postcode that is not there.
 */
const NONE_WORDS = new Set(['NA', 'N/A', 'NONE', 'NIL', 'NULL']);
const meansNone = (typed: string) => NONE_WORDS.has(typed.replace(/[\s.]/g, '')) || /^[\s0\-‐–—.?]+$/.test(typed);

const compactOf = (text: string) => text.replace(/[\s-]/g, '');
/** Royal Mail's postcodes never hold a hyphen: "SW1A-1AA" is not taken as one. */
const ukCompact = (text: string) => text.replace(/\s+/g, '');
const atStart = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;
const shape = (text: string) => text.replace(/[A-Z]/g, 'A').replace(/[0-9]/g, '9');

/** What a message says a country's postcodes are: "postcodes of the Netherlands (NL) are like 1234 AB or 2490 AA". */
function postcodesOf(country: string): string {
	const row = countryRow(country);
	if (postsWithRoyalMail(country)) return `postcodes of ${countryLabel(country)} are like ${royalMailExample(country)}`;
	if (row?.postcode === 'none') return `${countryLabel(country)} has no postcodes: leave it empty`;
	if (!row?.examples.length) return `${countryLabel(country)} publishes no example of its postcodes`;
	return `postcodes of ${countryLabel(country)} are like ${row.examples.slice(0, 2).join(' or ')}`;
}

/**
 * The ways to write the postcode, most standard first: as the country's examples of its shape write it (Japan's
 * "150-0001", Sweden's "111 22"), then, for a shape no example has, with the space or hyphen its pattern names where
 * the pattern takes it, then without one.
 */
function writings(compact: string, row: CountryRow): string[] {
	const fromExamples = row.examples.flatMap((example) => {
		if (shape(compactOf(example)) !== shape(compact)) return [];
		let at = 0;
		return [example.replace(/[^\s-]/g, () => compact[at++])];
	});
	const separated = [' ', '-']
		.filter((separator) => row.patternSource.includes(separator))
		.flatMap((separator) => Array.from({ length: compact.length - 1 }, (_, at) => `${compact.slice(0, at + 1)}${separator}${compact.slice(at + 1)}`));
	return [...fromExamples, ...separated, compact];
}

/** `typed` written as a postcode of the row's pattern, if it is one; national rules are not checked here. */
const formOf = (typed: string, row: CountryRow) => writings(compactOf(typed), row).find((form) => row.pattern!.test(form)) ?? (row.pattern!.test(typed) ? typed : undefined);

/** Whether `typed` is a postcode of `country`, by every rule this module checks. */
function isPostcodeOf(typed: string, country: string): boolean {
	if (postsWithRoyalMail(country)) return 'postcode' in royalMailPostcode(ukCompact(typed), country, '');
	const row = countryRow(country);
	const form = row?.pattern ? formOf(typed, row) : undefined;
	return form !== undefined && !NATIONAL_RULES[country]?.refuse?.(compactOf(form));
}

/** "D-10115" under France: letters naming another country, then a postcode of that country. */
function writtenForAnother(typed: string, country: string, shown: string): Problem | undefined {
	const other = countryPrefixes(typed).find((prefix) => prefix.country !== country && isPostcodeOf(prefix.rest, prefix.country));
	if (!other) return undefined;
	const letters = typed.slice(0, typed.length - other.rest.length).trim();
	return {
		problem: `${shown} is written as a postcode of ${countryName(other.country)}, but the country is ${countryLabel(country)}`,
		fix: `"${letters}" before a postcode names ${countryLabel(other.country)}: check the country, or the postcode (${postcodesOf(country)}).`,
	};
}

/** A postcode of a country other than the UK, checked against its published rule. */
function postcodeAbroad(typed: string, country: string, shown: string, asGiven: string): { postcode: string } | Problem {
	const row = countryRow(country);
	const national = NATIONAL_RULES[country];
	const place = national?.place?.(typed);
	if (place) {
		const empty = row?.postcode === 'required' ? '' : ` and leave the postcode empty (a letter to ${countryName(country)} may go without one)`;
		return { problem: `${shown} is ${place.is}`, fix: `Put "${place.line}" on the last address line${empty}, or give the postcode: ${postcodesOf(country)}.` };
	}
	// A country without a published pattern: what the sheet has goes on the envelope as typed (a district, a box
	// number), unless it is plainly another country's postcode.
	if (!row?.pattern) {
		if (!looksBritish(compactOf(typed))) return writtenForAnother(typed, country, shown) ?? { postcode: asGiven };
		const none = row?.postcode === 'none' ? 'has no postcodes' : 'publishes no postcode format';
		return {
			problem: `${atStart(countryLabel(country))} ${none}; ${shown.slice('Postcode '.length)} looks like a UK postcode`,
			fix: `Check the country: for an address in the UK, give GB (or leave the country empty); for one in ${countryName(country)}, leave the postcode empty.`,
		};
	}
	// The country's letters before its postcode ("D-10115" in Germany) only name the country: taken off.
	const form = formOf(typed, row) ?? countryPrefixes(typed).flatMap((prefix) => (prefix.country === country ? [formOf(prefix.rest, row)] : [])).find(Boolean);
	if (form !== undefined) {
		const why = national?.refuse?.(compactOf(form));
		if (!why) return { postcode: form };
		return { problem: `${shown} is not a postcode of ${countryLabel(country)}: ${why}`, fix: notOfFix(typed, country) };
	}
	return writtenForAnother(typed, country, shown) ?? { problem: `${shown} is not a postcode of ${countryLabel(country)}`, fix: notOfFix(typed, country) };
}

function notOfFix(typed: string, country: string): string {
	const british = looksBritish(compactOf(typed)) ? ' It looks like a UK postcode: for an address in the UK, give GB as the country.' : '';
	const optional = countryRow(country)?.postcode === 'required' ? '' : ` A letter to ${countryName(country)} may go without one: leave it empty if it is not known.`;
	return `${atStart(postcodesOf(country))}: check the postcode or the country.${british}${optional}`;
}

/** The postcode in its standard form for the country (an alpha-2 code), or why it cannot be one. */
export function postcodeOf(given: string, country: string): { postcode: string } | Problem {
	// Full-width digits (１５０－０００２, as Japanese sheets type them) and the dashes a word processor makes are the ASCII ones.
	const asGiven = given.normalize('NFKC').replace(/[\u2010-\u2015\u2212]/g, '-').trim().replace(/\s+/g, ' ');
	const typed = asGiven.toUpperCase();
	const shown = `Postcode "${given.trim()}"`;
	if (!typed || meansNone(typed)) {
		if (!postsWithRoyalMail(country) && countryRow(country)?.postcode !== 'required') return { postcode: '' };
		return {
			problem: typed ? `${shown} stands for no postcode, but a letter to ${countryLabel(country)} needs one` : `A letter to ${countryLabel(country)} needs a postcode`,
			fix: `${atStart(postcodesOf(country))}: fill in the address's postcode.`,
		};
	}
	const elsewhere = otherTerritory(typed, country, shown);
	if (elsewhere) return elsewhere;
	if (!postsWithRoyalMail(country)) return postcodeAbroad(typed, country, shown, asGiven);
	const verdict = royalMailPostcode(ukCompact(typed), country, shown);
	return 'problem' in verdict ? (writtenForAnother(typed, country, shown) ?? verdict) : verdict;
}
