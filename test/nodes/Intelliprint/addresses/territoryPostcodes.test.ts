import { describe, expect, it } from 'vitest';

import { checkAddress } from '../../../../nodes/Intelliprint/addresses/addressRules';
import { postageFor } from '../../../../nodes/Intelliprint/addresses/postage';

const check = (postcode: string, country: string) => checkAddress('Ada Example', '1 Main Street', postcode, country);

describe("postcodes of the UK's form that belong to other postal territories", () => {
	// Before: GX11 1AA under the United Kingdom went out as a UK letter on inland postage; the others were refused as
	// "not a UK postcode", which named no country.
	it.each([
		['GX11 1AA', 'GI', 'Gibraltar (GI)', 'Gibraltar'], ['FIQQ 1ZZ', 'FK', 'the Falkland Islands (FK)', 'the Falkland Islands'],
		['SIQQ 1ZZ', 'GS', 'the South Georgia & South Sandwich Islands (GS)', 'the South Georgia & South Sandwich Islands'], ['STHL 1ZZ', 'SH', 'St. Helena (SH)', 'St. Helena'],
		['ASCN 1ZZ', 'SH', 'St. Helena (SH)', 'St. Helena'], ['TDCU 1ZZ', 'SH', 'St. Helena (SH)', 'St. Helena'],
		['BBND 1ZZ', 'IO', 'the British Indian Ocean Territory (IO)', 'the British Indian Ocean Territory'], ['PCRN 1ZZ', 'PN', 'the Pitcairn Islands (PN)', 'the Pitcairn Islands'],
		['TKCA 1ZZ', 'TC', 'the Turks & Caicos Islands (TC)', 'the Turks & Caicos Islands'], ['AI-2640', 'AI', 'Anguilla (AI)', 'Anguilla'],
	])('%s under the United Kingdom is refused on the country, which names %s', (postcode, code, label, name) => {
		for (const country of ['United Kingdom', 'GB', '', 'England']) {
			expect(check(postcode, country)).toEqual({
				ok: false,
				field: 'country',
				value: country,
				reason: `Postcode "${postcode}" is a postcode of ${label}, but the country is the United Kingdom (GB)`,
				fix: `Give ${code} as the country: a letter to ${name} goes abroad (International) to its own post, not as a letter within the UK.`,
			});
		}
		// Under its own country it is sent, and goes International.
		expect(check(postcode.toLowerCase().replace(/[\s-]/g, ''), code)).toMatchObject({ ok: true, address: { country: code } });
		expect(postageFor(code, { type: 'letter', service: 'uk_second_class', abroad: 'international' })).toEqual({ service: 'international' });
	});

	it('under another territory it names both, without the UK', () => {
		expect(check('SIQQ 1ZZ', 'Falkland Islands')).toMatchObject({
			ok: false,
			field: 'country',
			reason: 'Postcode "SIQQ 1ZZ" is a postcode of the South Georgia & South Sandwich Islands (GS), but the country is the Falkland Islands (FK)',
			fix: 'Give GS as the country: a letter to the South Georgia & South Sandwich Islands goes abroad (International) to its own post.',
		});
		expect(check('GX11 1AA', 'Jersey')).toMatchObject({ ok: false, field: 'country', reason: 'Postcode "GX11 1AA" is a postcode of Gibraltar (GI), but the country is Jersey (JE)' });
	});

	it("Tristan da Cunha's TDCU 1ZZ is St Helena's (SH), as are ASCN 1ZZ and STHL 1ZZ", () => {
		// Before: TDCU 1ZZ was refused (St Helena's rule took ASCN and STHL only).
		for (const country of ['SH', 'St Helena', 'Tristan da Cunha', 'Saint Helena, Ascension and Tristan da Cunha', 'SHN']) {
			expect(check('TDCU 1ZZ', country)).toEqual({ ok: true, address: { name: 'Ada Example', line: '1 Main Street', postcode: 'TDCU 1ZZ', country: 'SH' } });
		}
		for (const postcode of ['tdcu1zz', 'ASCN 1ZZ', 'STHL 1ZZ']) expect(check(postcode, 'Ascension')).toMatchObject({ ok: true, address: { country: 'SH' } });
		expect(check('SW1A 1AA', 'SH')).toMatchObject({ ok: false, field: 'postcode', reason: 'Postcode "SW1A 1AA" is not a postcode of St. Helena (SH)' });
	});

	it('BFPO and the Crown dependencies stay the UK postal system', () => {
		expect(check('BFPO 123', 'GB')).toMatchObject({ ok: true, address: { postcode: 'BFPO 123', country: 'GB' } });
		expect(check('GY1 1AA', 'GG')).toMatchObject({ ok: true, address: { postcode: 'GY1 1AA', country: 'GG' } });
		expect(check('JE2 3AB', 'United Kingdom')).toMatchObject({ ok: true, address: { country: 'GB' } });
		expect(check('SW1A 1AA', 'N. Ireland')).toMatchObject({ ok: true, address: { postcode: 'SW1A 1AA', country: 'GB' } });
	});
});
