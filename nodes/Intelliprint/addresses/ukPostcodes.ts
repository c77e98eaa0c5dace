/**
 * Royal Mail's postcodes, for the UK and the Crown dependencies that post with its format: written by hand from
 * BS 7666 rather than taken from the generated data, which is looser. Sources in docs/addresses.md.
 */

import { POSTED_AS } from './countryIndex';
import { countryLabel, countryName, type Problem } from './countryNames';
import { countryTable } from './countryTable';

// Royal Mail's format (BS 7666): outward code A9, A99, AA9, AA99, A9A or AA9A, inward code 9AA; letters are not used
// in every position (Q, V, X never first; I, J, Z never second; C, I, K, M, O, V never in the inward code).
const OUTWARD = '(?:[A-PR-UWYZ](?:[0-9]{1,2}|[0-9][A-HJKPS-UW])|[A-PR-UWYZ][A-HK-Y](?:[0-9]{1,2}|[0-9][ABEHMNPRV-Y]))';
const INWARD = '[0-9][ABD-HJLNP-UW-Z]{2}';
const UK_POSTCODE = new RegExp(`^(${OUTWARD})(${INWARD})$`);
const UK_OUTWARD_ONLY = new RegExp(`^${OUTWARD}$`);
/** The Crown dependencies post with Royal Mail's format, each under its own area. */
const CROWN_AREAS: Record<string, string> = { GG: 'GY', JE: 'JE', IM: 'IM' };

/** A postcode of the country's own form, for a message: SW1A 1AA, GY1 1AA… */
export const royalMailExample = (country: string) => (CROWN_AREAS[country] ? `${CROWN_AREAS[country]}1 1AA` : 'SW1A 1AA');

/** Whether the country's postcodes are Royal Mail's: the UK's and the Crown dependencies'. */
export const postsWithRoyalMail = (country: string) => country === 'GB' || Boolean(CROWN_AREAS[country]);

/** Whether `compact` (upper case, no spaces) is a complete UK postcode, for telling one typed under another country. */
export const looksBritish = (compact: string) => UK_POSTCODE.test(compact);

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

/** A postcode of the UK or a Crown dependency in its standard form (one space, upper case), or why it is not one. */
export function royalMailPostcode(compact: string, country: string, shown: string): { postcode: string } | Problem {
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
	if (area && !compact.startsWith(area)) {
		return { problem: `${shown} is not a postcode of ${countryLabel(country)}`, fix: `Postcodes of ${countryLabel(country)} start with ${area}: check the postcode or the country.` };
	}
	return { postcode: `${match[1]} ${match[2]}` };
}

let fixed: Array<{ country: string; pattern: RegExp }> | undefined;
/**
 * Territories whose post assigns one postcode, or a few, with letters in it, most of them in the UK's form (a
 * published pattern with no character class): Gibraltar's GX11 1AA, the Falklands' FIQQ 1ZZ, South Georgia's
 * SIQQ 1ZZ, St Helena's STHL 1ZZ, ASCN 1ZZ and TDCU 1ZZ, the British Indian Ocean Territory's BBND 1ZZ, Pitcairn's
 * PCRN 1ZZ, the Turks and Caicos Islands' TKCA 1ZZ, Anguilla's AI-2640. Each has its own post: Royal Mail sends
 * letters there abroad. (BFPO is the UK's, and the Crown dependencies' postcodes are theirs.)
 */
function territoryPostcodes(): Array<{ country: string; pattern: RegExp }> {
	fixed ??= [...countryTable().values()]
		.filter((row) => !POSTED_AS[row.code] && /[A-Z]/.test(row.patternSource) && !/[[\\]/.test(row.patternSource))
		.map((row) => ({ country: row.code, pattern: new RegExp(`^(?:${row.patternSource.replace(/[\s-]/g, '')})$`) }));
	return fixed;
}

/**
 * A postcode (upper case) of one of those territories, under another country: refused on the country, which is the
 * field to change. GX11 1AA fits the UK's format, and under GB would go as a UK letter on inland postage.
 */
export function otherTerritory(typed: string, country: string, shown: string): Problem | undefined {
	const compact = typed.replace(/[\s-]/g, '');
	const territory = /[A-Z]/.test(compact) ? territoryPostcodes().find(({ pattern }) => pattern.test(compact))?.country : undefined;
	if (!territory || territory === country) return undefined;
	return {
		problem: `${shown} is a postcode of ${countryLabel(territory)}, but the country is ${countryLabel(country)}`,
		fix: `Give ${territory} as the country: a letter to ${countryName(territory)} goes abroad (International) to its own post${postsWithRoyalMail(country) ? ', not as a letter within the UK' : ''}.`,
		field: 'country',
	};
}
