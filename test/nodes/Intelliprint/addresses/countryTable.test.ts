import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { countryRow, countryTable } from '../../../../nodes/Intelliprint/addresses/countryTable';
import { generate, OUTPUT } from '../../../../scripts/countries.mjs';

describe('the country table', () => {
	it('is what `npm run countries` makes of the pinned packages (run it after updating them)', () => {
		expect(fs.readFileSync(OUTPUT, 'utf8')).toBe(generate().text);
	});

	it('holds every country and territory with a code once, ~250 of them', () => {
		const table = countryTable();
		expect(table.size).toBeGreaterThanOrEqual(240);
		expect(table.size).toBeLessThanOrEqual(255);
		for (const [code, row] of table) {
			expect(row.code).toBe(code);
			expect(code).toMatch(/^[A-Z]{2}$/);
			expect(row.alpha3).toMatch(/^[A-Z]{3}$/);
			expect(['required', 'optional', 'none']).toContain(row.postcode);
		}
		expect(new Set([...table.values()].map((row) => row.alpha3)).size).toBe(table.size);
		for (const placeholder of ['EU', 'UN', 'ZZ', 'EZ', 'QO']) expect(countryRow(placeholder)).toBeUndefined();
	});

	it('gives no postcode to countries without one, and requires the UK and US ones', () => {
		for (const code of ['HK', 'AE', 'QA']) {
			expect(countryRow(code)?.postcode).toBe('none');
			expect(countryRow(code)?.pattern).toBeUndefined();
		}
		expect(countryRow('GB')?.postcode).toBe('required');
		expect(countryRow('US')?.postcode).toBe('required');
		for (const row of countryTable().values()) {
			// No country without a published pattern or a place for the postcode on the envelope requires one.
			if (row.postcode === 'none') expect([row.patternSource, row.examples.length]).toEqual(['', 0]);
		}
	});

	it('reads postcodes with their patterns, and every example matches its own', () => {
		const us = countryRow('US')!.pattern!;
		expect(['10001', '10001-1234'].filter((code) => us.test(code))).toEqual(['10001', '10001-1234']);
		expect(us.test('1000')).toBe(false);
		expect(us.test('X10001')).toBe(false);
		expect(countryRow('NL')!.pattern!.test('1012 AB')).toBe(true);
		expect(countryRow('CA')!.pattern!.test('K1A 0B1')).toBe(true);
		let examples = 0;
		for (const row of countryTable().values()) {
			for (const example of row.examples) {
				expect(row.pattern?.test(example), `${row.code} ${example}`).toBe(true);
				examples++;
			}
		}
		expect(examples).toBeGreaterThan(180);
	});

	it('names the languages and the names besides English that a sheet holds', () => {
		expect(countryRow('CH')?.languages).toEqual(expect.arrayContaining(['de', 'fr', 'it']));
		expect(countryRow('BE')?.languages).toEqual(expect.arrayContaining(['nl', 'fr', 'de']));
		expect(countryRow('HK')?.languages).toEqual(expect.arrayContaining(['zh-Hant']));
		const names = (code: string) => countryRow(code)?.names ?? [];
		expect(names('SZ')).toContain('Swaziland');
		expect(names('MK')).toContain('Macedonia');
		expect(names('MM')).toContain('Burma');
		expect(names('TR')).toEqual(expect.arrayContaining(['Turkey', 'Türkiye']));
		expect(names('VN')).toContain('Viet Nam');
		expect(names('KR')).toContain('Republic of Korea');
		expect(names('HK')).toContain('Hong Kong');
		expect(names('AE')).toContain('UAE');
		expect(names('CD')).toContain('Zaire');
		expect(countryRow('DE')?.alpha3).toBe('DEU');
		expect(countryRow('IE')?.alpha3).toBe('IRL');
		expect(countryRow('GB')?.alpha3).toBe('GBR');
	});
});
