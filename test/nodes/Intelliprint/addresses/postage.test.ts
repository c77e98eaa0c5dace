import { describe, expect, it } from 'vitest';

import { fitsService, postageFor, type PostageChoice } from '../../../../nodes/Intelliprint/addresses/postage';

/** The postage rule of docs/letters-abroad.md, on its own: which service a letter to a country goes by. */
const letter = (extra: Partial<PostageChoice> = {}): PostageChoice => ({ type: 'letter', service: 'uk_second_class', abroad: 'international', ...extra });

describe('postage by destination', () => {
	it('the UK and the Crown dependencies go by the chosen UK service, whatever it is', () => {
		for (const country of ['GB', 'JE', 'GG', 'IM']) {
			for (const service of ['uk_second_class', 'uk_first_class', 'uk_special_delivery_9am', 'tracked_24']) expect(postageFor(country, letter({ service }))).toEqual({ service });
		}
	});

	it('everywhere else goes International, Gibraltar and the Falklands too (UK-style postcodes, but abroad)', () => {
		for (const country of ['FR', 'IE', 'US', 'HK', 'GI', 'FK', 'AU']) expect(postageFor(country, letter({ service: 'uk_first_class' }))).toEqual({ service: 'international' });
	});

	it('refuses, with the reason and the fix: abroad under Refuse the Row, a postcard abroad, International for the UK', () => {
		expect(postageFor('FR', letter({ abroad: 'refuse' }))).toMatchObject({ problem: 'The address is in France (FR), and Postage Abroad is set to refuse letters abroad', fix: expect.stringContaining('International') });
		expect(postageFor('DE', letter({ type: 'postcard' }))).toMatchObject({ problem: expect.stringContaining('A postcard to Germany (DE) cannot be sent'), fix: expect.stringContaining('as a letter') });
		expect(postageFor('JE', letter({ type: 'postcard' }))).toEqual({ service: 'uk_second_class' });
		expect(postageFor('GB', letter({ service: 'international' }))).toMatchObject({ problem: expect.stringContaining('International, which is for letters abroad') });
	});

	it("holds the API's answer to it: a letter fits its job's service only where that service goes", () => {
		expect(fitsService('GB', 'uk_second_class')).toBe(true);
		expect(fitsService('je', 'uk_first_class')).toBe(true);
		expect(fitsService('FR', 'uk_second_class')).toBe(false);
		expect(fitsService('FR', 'international')).toBe(true);
		expect(fitsService('GB', 'international')).toBe(false);
		// No country is the API's default, GB.
		expect(fitsService(null, 'uk_second_class')).toBe(true);
		expect(fitsService(undefined, 'international')).toBe(false);
	});
});
