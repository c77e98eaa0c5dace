import { describe, expect, it } from 'vitest';

import { checkAddress, type Verdict } from '../../../../nodes/Intelliprint/addresses/addressRules';
import { countryTable } from '../../../../nodes/Intelliprint/addresses/countryTable';
import { NATIONAL_RULES } from '../../../../nodes/Intelliprint/addresses/nationalRules';
import { countryCodes } from '../../../../nodes/Intelliprint/addresses/postcodePrefixes';

/** The postcode as it would be sent, or the reason the row is refused. */
const posted = (postcode: string, country: string) => outcome(checkAddress('Ada Example', '1 High Street', postcode, country));
const outcome = (verdict: Verdict) => (verdict.ok ? verdict.address.postcode : `refused: ${verdict.reason}`);
const fixOf = (postcode: string, country: string) => {
	const verdict = checkAddress('Ada Example', '1 High Street', postcode, country);
	return verdict.ok ? '' : verdict.fix;
};

describe('written as the national post writes it', () => {
	// Before: "11122" was sent as Google's examples write it.
	it.each([['11122', '111 22'], ['111 22', '111 22'], ['SE-11122', '111 22']])('Sweden %s is sent as PostNord writes it, %s', (given, sent) => {
		expect(posted(given, 'SE')).toBe(sent);
	});

	it.each([['CZ', '10000', '100 00'], ['SK', '01001', '010 01'], ['GR', '15124', '151 24']])('%s %s keeps the space its post writes: %s', (country, given, sent) => {
		expect(posted(given, country)).toBe(sent);
	});
});

describe("Ireland's Eircodes against An Post's routing keys and the identifier's letters", () => {
	// Before: every one of these passed Google's pattern (three and four letters or digits) and was sent.
	it.each([
		['Q99 9999', 'no Eircode starts with Q99'],
		['B12 3456', 'no Eircode starts with B12'],
		['A65 F4E2', 'no Eircode starts with A65'],
		['D02 F4B2', 'never B'],
		['T12 OI12', 'never O or I'],
	])('%s is refused: %s', (given, why) => {
		expect(posted(given, 'IE').startsWith(`refused: Postcode "${given}" is not a postcode of Ireland (IE): `)).toBe(true);
		expect(posted(given, 'IE')).toContain(why);
		expect(fixOf(given, 'IE')).toContain('A letter to Ireland may go without one');
	});

	it.each([['D02 X285', 'D02 X285'], ['d6wpv38', 'D6W PV38'], ['a92f4e2', 'A92 F4E2'], ['', '']])('%j is sent as %j', (given, sent) => {
		expect(posted(given, 'IE')).toBe(sent);
	});

	// Before: "Dublin 2" was re-spaced to "DUB LIN2" and sent.
	const district = 'a Dublin postal district';
	it.each([
		['Dublin 2', district, 'Dublin 2'], ['Dublin 6W', district, 'Dublin 6W'], ['D2', district, 'Dublin 2'], ['D02', district, 'Dublin 2'],
		['Co. Dublin', 'a place', 'Co. Dublin'], ['county cork', 'a place', 'Co. Cork'],
	])('%s is refused as %s, with the line to write it on', (given, is, line) => {
		expect(posted(given, 'IE')).toBe(`refused: Postcode "${given}" is ${is}, not an Eircode`);
		expect(fixOf(given, 'IE')).toBe(`Put "${line}" on the last address line and leave the postcode empty (a letter to Ireland may go without one), or give the postcode: postcodes of Ireland (IE) are like D02 X285 or D6W PV38.`);
	});
});

describe('country letters before a postcode, as European sheets write them', () => {
	// Before: refused as "not a postcode of DE" though the letters only name the country.
	it.each([
		['D-10115', 'DE', '10115'], ['F-75008', 'FR', '75008'], ['NL-1012 AB', 'NL', '1012 AB'], ['A-1010', 'AT', '1010'], ['I-00184', 'IT', '00184'],
		['B-1000', 'BE', '1000'], ['E-28039', 'ES', '28039'], ['P-1250-096', 'PT', '1250-096'], ['S-111 22', 'SE', '111 22'], ['DK-1566', 'DK', '1566'],
		['N-0025', 'NO', '0025'], ['FIN-00550', 'FI', '00550'], ['SF-00550', 'FI', '00550'], ['GR-151 24', 'GR', '151 24'], ['PL-00-950', 'PL', '00-950'],
		['CZ-100 00', 'CZ', '100 00'], ['H-1037', 'HU', '1037'], ['IRL-D02 X285', 'IE', 'D02 X285'], ['DE-10115', 'DE', '10115'], ['FR-75008', 'FR', '75008'],
		['DEU-10115', 'DE', '10115'], ['D10115', 'DE', '10115'], ['D 10115', 'DE', '10115'], ['CH-8001', 'CH', '8001'], ['L-4750', 'LU', '4750'], ['LV-1073', 'LV', 'LV-1073'],
	])("%s in %s: the country's letters taken off, %s sent", (given, country, sent) => {
		expect(posted(given, country)).toBe(sent);
	});

	it.each([
		['D-10115', 'FR', 'Germany', 'France (FR)', '"D-" before a postcode names Germany (DE)'], ['NL-1012 AB', 'BE', 'the Netherlands', 'Belgium (BE)', '"NL-" before a postcode names the Netherlands (NL)'],
		['CH-8001', 'AT', 'Switzerland', 'Austria (AT)', '"CH-" before a postcode names Switzerland (CH)'], ['D-10115', 'GB', 'Germany', 'the United Kingdom (GB)', 'postcodes of the United Kingdom (GB) are like SW1A 1AA'],
		['F-75008', 'HK', 'France', 'Hong Kong (HK)', 'Hong Kong (HK) has no postcodes: leave it empty'],
	])('%s in %s names another country: refused with both', (given, country, written, row, fix) => {
		expect(posted(given, country)).toBe(`refused: Postcode "${given}" is written as a postcode of ${written}, but the country is ${row}`);
		expect(fixOf(given, country)).toContain(fix);
	});

	it('every vehicle code names the country its ISO codes name, once', () => {
		const byIso = new Map([...countryTable().values()].flatMap((row) => [[row.code, row.code], [row.alpha3, row.code]]));
		for (const [code, country] of countryCodes()) if (byIso.has(code)) expect(`${code} ${country}`).toBe(`${code} ${byIso.get(code)}`);
		expect([countryCodes().get('FR'), countryCodes().get('UK'), countryCodes().get('FIN'), countryCodes().get('D')]).toEqual(['FR', undefined, 'FI', 'DE']);
	});
});

describe('values that mean "none"', () => {
	const none = ['N/A', 'n/a', 'NA', 'N.A.', 'none', 'None', 'nil', 'NULL', '-', '—', '–', '.', '0', '00000', '000 00'];

	// Before: printed as the postcode ("N/A" on the envelope), or refused as not a postcode of the country.
	it.each(none)('%j where a postcode is optional or absent prints nothing', (given) => {
		expect([posted(given, 'IE'), posted(given, 'HK')]).toEqual(['', '']);
	});

	it.each(none)('%j where one is required is refused as missing, with the value', (given) => {
		expect(posted(given, 'FR')).toBe(`refused: Postcode "${given}" stands for no postcode, but a letter to France (FR) needs one`);
		expect(fixOf(given, 'FR')).toBe("Postcodes of France (FR) are like 33380 or 34092: fill in the address's postcode.");
		expect(posted(given, 'GB')).toBe(`refused: Postcode "${given}" stands for no postcode, but a letter to the United Kingdom (GB) needs one`);
	});

	it('no published pattern takes one of the words', () => {
		for (const row of countryTable().values()) for (const word of ['NA', 'N/A', 'NIL']) expect(row.pattern?.test(word) ?? false, `${row.code} ${word}`).toBe(false);
	});
});

describe('countries without postcodes', () => {
	// Before: "SW1A 1AA" was printed on a letter to Hong Kong.
	it('a UK postcode under one is refused: the country is the likelier slip', () => {
		expect(posted('SW1A 1AA', 'HK')).toBe('refused: Hong Kong (HK) has no postcodes; "SW1A 1AA" looks like a UK postcode');
		expect(fixOf('sw1a1aa', 'HK')).toBe('Check the country: for an address in the UK, give GB (or leave the country empty); for one in Hong Kong, leave the postcode empty.');
	});

	it('a district or a box number is printed as typed', () => {
		// As typed, case too (the held-out world data set's Jamaica "Kingston 5" was once printed "KINGSTON 5").
		expect([posted('Kowloon', 'HK'), posted('12345', 'AE'), posted('', 'QA'), posted('Kingston 5', 'JM')]).toEqual(['Kowloon', '12345', '', 'Kingston 5']);
	});

	it('full-width digits and word-processor dashes are the plain ones (before: "not a postcode of Japan")', () => {
		expect([posted('１５０－０００２', 'JP'), posted('00\u2013950', 'PL'), posted('1250\u2014096', 'PT')]).toEqual(['150-0002', '00-950', '1250-096']);
	});
});

describe("national posts' stricter rules", () => {
	// Before: each fitted Google's pattern and was sent.
	const maltese = "it has fewer than four digits (MaltaPost's postcodes have been three letters and four digits since 2007)";
	const province = (digits: string) => `its first two digits, ${digits}, are no province (Correos numbers them 01 to 52)`;
	it.each([
		['012345', 'IN', "no PIN starts with 0 (India Post's first digit is the region, 1 to 9)"], ['NXR 01', 'MT', maltese], ['VLT 117', 'MT', maltese],
		['99000', 'ES', province('99')], ['00123', 'ES', province('00')],
	])('%s in %s is refused: %s', (given, country, why) => {
		expect(posted(given, country)).toMatch(new RegExp(`^refused: Postcode "${given}" is not a postcode of \\w+ \\(${country}\\): `));
		expect(posted(given, country).endsWith(why)).toBe(true);
	});

	it.each([['110001', 'IN', '110001'], ['vlt1117', 'MT', 'VLT 1117'], ['01001', 'ES', '01001'], ['52001', 'ES', '52001']])('%s in %s is sent as %s', (given, country, sent) => {
		expect(posted(given, country)).toBe(sent);
	});

	it("no national rule refuses one of the examples its country's messages show", () => {
		for (const [code, rule] of Object.entries(NATIONAL_RULES)) {
			const examples = countryTable().get(code)!.examples;
			expect(examples.length, code).toBeGreaterThan(0);
			for (const example of examples) expect(rule.refuse?.(example.replace(/[\s-]/g, '')), `${code} ${example}`).toBeUndefined();
		}
		expect(countryTable().get('MT')!.examples).not.toContain('NXR 01');
	});
});

describe('messages name the country by name, with its code', () => {
	// Before: "is not a postcode of NL", "Postcodes of JE start with JE".
	it.each([
		['1012 SA', 'NL', 'Postcode "1012 SA" is not a postcode of the Netherlands (NL)', 'Postcodes of the Netherlands (NL) are like 1234 AB or 2490 AA: check the postcode or the country.'],
		['GY1 1AA', 'JE', 'Postcode "GY1 1AA" is not a postcode of Jersey (JE)', 'Postcodes of Jersey (JE) start with JE: check the postcode or the country.'],
		['', 'US', 'A letter to the United States (US) needs a postcode', "Postcodes of the United States (US) are like 95014 or 22162-1010: fill in the address's postcode."],
	])('%s in %s', (given, country, reason, fix) => {
		expect(posted(given, country)).toBe(`refused: ${reason}`);
		expect(fixOf(given, country)).toBe(fix);
	});

	it('a UK postcode under another country says so', () => {
		expect(fixOf('SW1A 1AA', 'US')).toContain('It looks like a UK postcode: for an address in the UK, give GB as the country.');
	});
});
