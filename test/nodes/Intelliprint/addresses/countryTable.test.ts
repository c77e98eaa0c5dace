import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { countryRow, countryTable, nameLanguages } from '../../../../nodes/Intelliprint/addresses/countryTable';
import { nameKey } from '../../../../nodes/Intelliprint/addresses/nameKey';
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

	it('names the languages read, and stores names as keys', () => {
		expect(countryRow('CH')?.languages).toEqual(expect.arrayContaining(['de', 'fr', 'it']));
		expect(countryRow('BE')?.languages).toEqual(expect.arrayContaining(['nl', 'fr', 'de']));
		expect(countryRow('HK')?.languages).toEqual(expect.arrayContaining(['zh-Hant']));
		expect(nameLanguages().length).toBeGreaterThanOrEqual(150);
		expect(nameLanguages()).toEqual(expect.arrayContaining(['en', 'fr', 'de', 'es', 'nl', 'pt', 'it', 'pl', 'cy', 'ga', 'gd', 'zh', 'zh-Hant', 'ja', 'ko', 'th', 'ar', 'ru']));
		let stored = 0;
		for (const row of countryTable().values()) {
			for (const key of row.names) expect(nameKey(key), `${row.code} ${key}`).toBe(key);
			stored += row.names.length;
		}
		expect(stored).toBeGreaterThan(100);
		expect(countryRow('TH')?.names).toContain('ประเทศไทย');
		expect(countryRow('TW')?.names).toContain('臺灣');
		expect(countryRow('CD')?.names).toContain('zaire');
		expect(countryRow('DE')?.alpha3).toBe('DEU');
		expect(countryRow('IE')?.alpha3).toBe('IRL');
		expect(countryRow('GB')?.alpha3).toBe('GBR');
	});

	it("this runtime's Intl gives the names the data counts on it for (CLDR's, which the generator reads)", () => {
		const dir = new URL('../../../../node_modules/cldr-localenames-full/main/', import.meta.url);
		let same = 0;
		let all = 0;
		for (const language of nameLanguages()) {
			const file = new URL(`${language}/territories.json`, dir);
			if (!fs.existsSync(file)) continue;
			const names = (fs.readJsonSync(file) as { main: Record<string, { localeDisplayNames: { territories: Record<string, string> } }> }).main[language].localeDisplayNames.territories;
			const display = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
			for (const code of countryTable().keys()) {
				if (!names[code]) continue;
				all++;
				if (nameKey(display.of(code) ?? '') === nameKey(names[code])) same++;
			}
		}
		expect(all).toBeGreaterThan(30_000);
		// A Node whose ICU is of an older CLDR gives a few names otherwise: the node then reads those of its own.
		expect(same / all).toBeGreaterThan(0.97);
	});
});
