/**
 * Country letters written before a postcode, as European sheets hold them ("D-10115", "NL-1012 AB", "FIN-00550"):
 * CEPT's recommendation of 1965 put the international vehicle registration code there, and posts since ask for the
 * ISO alpha-2 code ("DE-10115"). Either names a country and is not part of its postcode. Sources in docs/addresses.md.
 */

import { postableCodes } from './countryNames';
import { countryRow } from './countryTable';

/**
 * The vehicle registration codes that differ from the country's ISO codes (NL, DK, CZ, PL, CH… are the same).
 * Left out: FR, once the Faroe Islands' (now FO), and UK, Ukraine's (now UA), which name France and the UK as ISO
 * codes and as a sheet's shorthand; YU, withdrawn.
 */
const VEHICLE_CODES: Record<string, string> = {
	A: 'AT', B: 'BE', D: 'DE', E: 'ES', F: 'FR', H: 'HU', I: 'IT', L: 'LU', M: 'MT', N: 'NO', P: 'PT', S: 'SE', V: 'VA',
	AND: 'AD', BIH: 'BA', EST: 'EE', FIN: 'FI', SF: 'FI', FL: 'LI', GBA: 'GG', GBG: 'GG', GBJ: 'JE', GBM: 'IM', GBZ: 'GI',
	IRL: 'IE', MNE: 'ME', NMK: 'MK', RSM: 'SM', RUS: 'RU', SLO: 'SI', SRB: 'RS',
};

let byCode: Map<string, string> | undefined;
/** Every code that names a country before a postcode: vehicle codes, ISO alpha-2 and alpha-3, the data's prefixes. */
export function countryCodes(): ReadonlyMap<string, string> {
	if (byCode) return byCode;
	byCode = new Map(Object.entries(VEHICLE_CODES));
	for (const code of postableCodes()) {
		const row = countryRow(code)!;
		for (const name of [code, row.alpha3, row.prefix.replace(/[\s-]/g, '')]) if (name) byCode.set(name, code);
	}
	return byCode;
}

/**
 * The ways `typed` (upper case) reads as a country's letters and then the rest: "FIN-00550" as FI and "00550",
 * "DE10115" as DE and "10115". Whether the rest is a postcode of that country is the caller's to check.
 */
export function countryPrefixes(typed: string): Array<{ country: string; prefix: string; rest: string }> {
	const found: Array<{ country: string; prefix: string; rest: string }> = [];
	for (let length = 1; length <= 3 && /^[A-Z]$/.test(typed[length - 1] ?? ''); length++) {
		const prefix = typed.slice(0, length);
		const country = countryCodes().get(prefix);
		const rest = typed.slice(length).replace(/^[\s\-‐–—]+/, '');
		if (country && rest) found.push({ country, prefix, rest });
	}
	return found;
}
