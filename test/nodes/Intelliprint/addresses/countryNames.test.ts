import { describe, expect, it } from 'vitest';

import { countryOf } from '../../../../nodes/Intelliprint/addresses/addressRules';
import { countryLabel, countryName } from '../../../../nodes/Intelliprint/addresses/countryNames';

describe('country names as sheets write them', () => {
	// Before: each was refused as "not a country Intelliprint knows".
	it.each([
		['Scotland, United Kingdom', 'GB'], ['Northern Ireland, United Kingdom', 'GB'], ['London, United Kingdom', 'GB'], ['Edinburgh, Scotland, UK', 'GB'],
		['Paris, France', 'FR'], ['Jersey, Channel Islands', 'JE'], ['Sark, Channel Islands', 'GG'],
		['Macau', 'MO'], ['Macao SAR', 'MO'], ['Macau SAR', 'MO'], ['China, Macao SAR', 'MO'],
		['Hong Kong SAR', 'HK'], ['Hong Kong SAR China', 'HK'], ['Hong Kong SAR, China', 'HK'], ['HKSAR', 'HK'], ['Hong Kong, China', 'HK'],
		['Korea, Rep.', 'KR'], ['Korea, South', 'KR'], ['Korea, Dem. Rep.', 'KP'], ["Korea, Dem. People's Rep.", 'KP'], ['Korea, DPR', 'KP'], ['DPRK', 'KP'],
		['DR Congo', 'CD'], ['DRC', 'CD'], ['Congo, Dem. Rep.', 'CD'], ['Congo-Kinshasa', 'CD'], ['Congo, Rep.', 'CG'], ['Congo-Brazzaville', 'CG'],
		['Egypt, Arab Rep.', 'EG'], ['Iran, Islamic Rep.', 'IR'], ['Yemen, Rep.', 'YE'], ['Gambia, The', 'GM'], ['Bahamas, The', 'BS'], ['Venezuela, RB', 'VE'],
		['Micronesia, Fed. Sts.', 'FM'], ['Lao PDR', 'LA'], ['Lao P.D.R.', 'LA'], ['Kyrgyz Republic', 'KG'], ['Slovak Republic', 'SK'], ['Turkiye', 'TR'],
		['Cabo Verde', 'CV'], ['Czechia', 'CZ'], ['Vatican', 'VA'], ['Holy See', 'VA'], ['St. Vincent and the Grenadines', 'VC'], ['St. Martin (French part)', 'MF'],
		['West Bank and Gaza', 'PS'], ['Macedonia, FYR', 'MK'], ['Somalia, Fed. Rep.', 'SO'], ['Bolivia (Plurinational State of)', 'BO'],
	])('%s is %s', (given, code) => {
		expect(countryOf(given)).toEqual({ code });
	});

	it.each([
		['Channel Islands', 'Guernsey (GG) or Jersey (JE)'],
		['Korea', 'North Korea (KP) or South Korea (KR)'],
		['Congo', 'the Democratic Republic of the Congo (CD) or the Republic of the Congo (CG)'],
	])('%s is refused with its candidates', (given, candidates) => {
		expect(countryOf(given)).toEqual({ problem: `Country "${given}" could be ${candidates}`, fix: 'Give the two-letter code of the one meant.' });
	});

	it('a place and a country that disagree is refused with both, not guessed', () => {
		expect(countryOf('Georgia, USA')).toEqual({
			problem: 'Country "Georgia, USA" names more than one country: Georgia (GE) and the United States (US)',
			fix: 'Give only the country the letter goes to (its name or two-letter code): a town or region goes on an address line.',
		});
		expect(countryOf('France, Paris')).toMatchObject({ problem: 'Country "France, Paris" is not a country Intelliprint knows' });
	});
});

describe('a country as a message names it', () => {
	it.each([
		['NL', 'the Netherlands (NL)'], ['GB', 'the United Kingdom (GB)'], ['IM', 'the Isle of Man (IM)'], ['KY', 'the Cayman Islands (KY)'],
		['FR', 'France (FR)'], ['HK', 'Hong Kong (HK)'], ['CD', 'the Democratic Republic of the Congo (CD)'],
	])('%s is %s', (code, label) => {
		expect(countryLabel(code)).toBe(label);
		expect(countryName(code)).toBe(label.replace(` (${code})`, ''));
	});
});
