import { describe, expect, it } from 'vitest';

import { checkAddress, sameRecipientKey } from '../../../../nodes/Intelliprint/addresses/addressRules';
import { distinctRecipients } from '../../../../nodes/Intelliprint/addresses/duplicates';
import type { Recipient } from '../../../../nodes/Intelliprint/addresses/recipients';
import { useFakeApi } from '../../../helpers/context';

describe('invisible characters on an envelope', () => {
	it('inside a postcode they are taken out: it is the same postcode', () => {
		for (const hidden of ['\u200B', '\u2060', '\uFEFF', '\u00AD', '\u202E', '\t', '\u0007']) {
			expect(checkAddress('Ada', '1 High Street', `LS1${hidden} 4AP`, 'GB')).toMatchObject({ ok: true, address: { postcode: 'LS1 4AP' } });
		}
	});

	it('a zero-width space or soft hyphen in a name or line is removed; tabs become spaces', () => {
		expect(checkAddress('A\u200Bda\u00AD Lovelace', '1\tHigh Street\u200B\r\nLeeds', 'LS1 4AP', 'GB')).toMatchObject({
			ok: true, address: { name: 'Ada Lovelace', line: '1 High Street\nLeeds' },
		});
	});

	it.each([
		['\u202E', 'U+202E, right-to-left override'],
		['\u202D', 'U+202D, left-to-right override'],
		['\u2066', 'U+2066, left-to-right isolate'],
		['\u0007', 'U+0007, a control character'],
		['\u2062', 'U+2062, an invisible format character'],
	])('%j in an address line is refused and named: %s', (hidden, shown) => {
		const verdict = checkAddress('Ada', `1 High Street\nLee${hidden}ds`, 'LS1 4AP', 'GB');
		expect(verdict).toMatchObject({ ok: false, field: 'address', reason: `Address line 2 holds an invisible character (${shown}) that would change what is printed` });
	});

	it('a right-to-left override in the name is refused on the name; joiners and direction marks of a script are kept', () => {
		expect(checkAddress('\u202EadA', '1 High Street', 'LS1 4AP', 'GB')).toMatchObject({ ok: false, field: 'name' });
		expect(checkAddress('\u0645\u200C\u200F\u0646', '1 High Street', 'LS1 4AP', 'GB')).toMatchObject({ ok: true });
	});
});

describe('line and paragraph separators, and composed characters', () => {
	// Before: U+2028 and U+2029 went to the envelope as they were, inside one line that the window limit did not count.
	it.each(['\u2028', '\u2029'])('%j in an address is a line break: sent as "\\n" and counted in the window', (separator) => {
		expect(checkAddress('Ada', `1 High Street${separator}Flat 2${separator}${separator}Leeds`, 'LS1 4AP', 'GB')).toMatchObject({ ok: true, address: { line: '1 High Street\nFlat 2\nLeeds' } });
		const seven = Array.from({ length: 7 }, (_, i) => `Line ${i + 1}`).join(separator);
		expect(checkAddress('Ada', seven, 'LS1 4AP', 'GB')).toMatchObject({ ok: false, field: 'address', reason: 'The address has 7 lines below the name' });
	});

	it('in a name, which is one line on the envelope, a separator is a space', () => {
		expect(checkAddress('Ada\u2028Lovelace\u2029Ltd', '1 High Street', 'LS1 4AP', 'GB')).toMatchObject({ ok: true, address: { name: 'Ada Lovelace Ltd' } });
	});

	// Before: sent as typed, and "Mu\u0308ller" and "Müller" were two recipients.
	it('names and lines are sent composed (NFC), and the two ways to write "ü" are one recipient', () => {
		const decomposed = checkAddress('Jürgen Mu\u0308ller', 'Hauptstrasse 1\nKo\u0308ln', '50667', 'DE');
		expect(decomposed).toMatchObject({ ok: true, address: { name: 'J\u00FCrgen M\u00FCller', line: 'Hauptstrasse 1\nK\u00F6ln' } });
		const precomposed: Recipient = { address: { name: 'J\u00FCrgen M\u00FCller', line: 'Hauptstrasse 1\nK\u00F6ln', postcode: '50667', country: 'DE' }, variables: {} };
		const typedApart: Recipient = { address: { ...precomposed.address, name: 'Ju\u0308rgen Mu\u0308ller', line: 'Hauptstrasse 1\nKo\u0308ln' }, variables: {} };
		expect(sameRecipientKey(typedApart.address)).toBe(sameRecipientKey(precomposed.address));
		expect(distinctRecipients([precomposed, typedApart], [0, 1], true)).toMatchObject({ rows: [0], repeats: 1 });
	});
});

describe('a UK postcode one slip away', () => {
	it.each([
		['SW1A lAA', undefined],
		['SWIA 1AA', 'SW1A 1AA'],
		['LS1 4AO', undefined],
		['B33 8TH', 'ok'],
		['M1 IAE', 'M1 1AE'],
		['EC1A IBB', 'EC1A 1BB'],
	])('%s', (given, meant) => {
		const verdict = checkAddress('Ada', '1 High Street', given, 'GB');
		if (meant === 'ok') return expect(verdict.ok).toBe(true);
		expect(verdict.ok).toBe(false);
		const reason = verdict.ok ? '' : verdict.reason;
		if (meant) expect(reason).toBe(`Postcode "${given}" is not a UK postcode (did you mean "${meant}"?)`);
		else expect(reason).not.toContain('did you mean');
	});
});

describe('a blank value names its field', () => {
	const api = useFakeApi();

	it.each([
		['postcode', { name: 'Ada', address: '1 High Street', postcode: '' }, 'The row has postcode but it is empty'],
		['name', { name: ' ', address: '1 High Street', postcode: 'LS1 4AP' }, 'The row has name but it is empty'],
	])('blank %s', async (field, json, fix) => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check' }, items: [{ json }] });
		expect(items[0].json).toMatchObject({ address_ok: false, address_field: field });
		expect(String(items[0].json.address_fix)).toContain(fix);
		expect(String(items[0].json.address_fix)).not.toMatch(/rename|map/i);
	});

	it('a field the row does not have at all still says how to map it', async () => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check' }, items: [{ json: { name: 'Ada', address: '1 High Street' } }] });
		expect(items[0].json).toMatchObject({ address_ok: false, address_field: 'postcode' });
		expect(String(items[0].json.address_fix)).toMatch(/Name the item's fields/);
	});
});

describe('repeated recipients in linear time', () => {
	it('40,000 rows to one recipient: each repeat listed once, in order', () => {
		const one: Recipient = { address: { name: 'Head Office', line: '1 High Street', postcode: 'LS1 4AP', country: 'GB' }, variables: {} };
		const rows = Array.from({ length: 40_000 }, (_, i) => i);
		const distinct = distinctRecipients(rows.map(() => one), rows, true);
		expect(distinct.rows).toEqual([0]);
		expect(distinct.repeatsOf.get(0)).toEqual(rows.slice(1));
		expect(distinct.repeats).toBe(39_999);
	});
});
