/**
 * Rows as sheets hold them, built from the published formats, each with the verdict the address checks must give:
 * every UK postcode shape (BS 7666 / the Government Data Standards Catalogue) in the spellings people type, the
 * letters each position may not hold, postcodes cut short, GIR 0AA, BFPO numbers, the Crown dependencies, Irish
 * Eircodes, other countries' codes, country names and aliases, addresses too long or too tall for the window.
 */

import { countryRow, countryTable } from '../../nodes/Intelliprint/addresses/countryTable';
export interface DatasetRow {
	kind: string;
	name: string;
	address: string;
	postcode: string;
	country: string;
	/** The postcode and country as they must be sent, or the start of the reason for refusing the row. */
	expected: { postcode: string; country: string } | { refused: string };
}

const OK_FIRST = 'ABCDEFGHIJKLMNOPRSTUWYZ'.split('');
const OK_SECOND = 'ABCDEFGHKLMNOPQRSTUVWXY'.split('');
const ANA_THIRD = 'ABCDEFGHJKPSTUW'.split('');
const AANA_FOURTH = 'ABEHMNPRVWXY'.split('');
const INWARD_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ'.split('');
const pick = <T>(list: T[], i: number) => list[i % list.length];
/** The ways a person types one postcode: as given, lower case, without the space, with spaces around and inside. */
const spellings = (outward: string, inward: string) => [`${outward} ${inward}`, `${outward}${inward}`.toLowerCase(), ` ${outward}  ${inward} `, `${outward.toLowerCase()} ${inward}`];

function row(kind: string, postcode: string, country: string, expected: DatasetRow['expected'], extra: Partial<DatasetRow> = {}): DatasetRow {
	return { kind, name: 'Sam Example', address: '1 High Street\nTown', postcode, country, expected, ...extra };
}

function ukShapes(): DatasetRow[] {
	const rows: DatasetRow[] = [];
	const shapes: Array<[string, (i: number) => string]> = [
		['A9 9AA', (i) => `${pick(OK_FIRST, i)}${i % 10}`],
		['A99 9AA', (i) => `${pick(OK_FIRST, i + 3)}${(i % 9) + 1}${i % 10}`],
		['AA9 9AA', (i) => `${pick(OK_FIRST, i + 5)}${pick(OK_SECOND, i)}${i % 10}`],
		['AA99 9AA', (i) => `${pick(OK_FIRST, i + 7)}${pick(OK_SECOND, i + 2)}${(i % 9) + 1}${(i * 7) % 10}`],
		['A9A 9AA', (i) => `${pick(OK_FIRST, i + 11)}${i % 10}${pick(ANA_THIRD, i)}`],
		['AA9A 9AA', (i) => `${pick(OK_FIRST, i + 13)}${pick(OK_SECOND, i + 4)}${i % 10}${pick(AANA_FOURTH, i)}`],
	];
	for (const [shape, outwardOf] of shapes) {
		for (let i = 0; i < 40; i++) {
			const outward = outwardOf(i);
			const inward = `${(i * 3) % 10}${pick(INWARD_LETTERS, i)}${pick(INWARD_LETTERS, i * 7 + 5)}`;
			const spelled = spellings(outward, inward)[i % 4];
			rows.push(row(`UK postcode ${shape}`, spelled, i % 3 === 0 ? 'United Kingdom' : 'GB', { postcode: `${outward} ${inward}`, country: 'GB' }));
		}
	}
	return rows;
}

function ukRefused(): DatasetRow[] {
	const notUk = { refused: 'Postcode' };
	return [
		...['Q', 'V', 'X'].flatMap((first) => [1, 2, 3].map((n) => row('UK: letter not used first', `${first}${n} 1AA`, 'GB', notUk))),
		...['I', 'J', 'Z'].flatMap((second) => [1, 2, 3].map((n) => row('UK: letter not used second', `A${second}${n} 1AA`, 'GB', notUk))),
		...['C', 'I', 'K', 'M', 'O', 'V'].flatMap((letter) => [`SW1A 1${letter}A`, `M1 1A${letter}`].map((code) => row('UK: letter not used in the inward code', code, 'GB', notUk))),
		...['W1L', 'EC1Q', 'SW1I'].map((code) => row('UK: letter not used in third or fourth place', `${code} 1AA`, 'GB', notUk)),
		...['SW1A', 'M1', 'B33', 'EC1A', 'W1A', 'LS1', 'sw1a', 'CR2', 'DN55', 'N1'].map((code) =>
			row('UK: district only (incomplete)', code, 'GB', { refused: `Postcode "${code}" is not a complete UK postcode` }),
		),
		...['12345', 'ABC 123', '1AA SW1', 'SW1A 1AAA', 'SW1A1A', 'S', '90210', 'SW1A-1AA', 'LS1 4A', 'LS14AP9'].map((code) => row('UK: not a postcode at all', code, 'GB', notUk)),
	];
}

function special(): DatasetRow[] {
	return [
		...['GIR 0AA', 'gir0aa', ' GIR  0AA '].map((code) => row('GIR 0AA', code, 'GB', { postcode: 'GIR 0AA', country: 'GB' })),
		...['BFPO 1', 'bfpo 57', 'BFPO801', 'BFPO 2000', 'Bfpo 12'].map((code) => row('BFPO number', code, 'GB', { postcode: `BFPO ${code.replace(/\D/g, '')}`, country: 'GB' })),
		...['BFPO 12345', 'BFPO', 'BFPO X1'].map((code) => row('BFPO: not a number of 1 to 4 digits', code, 'GB', { refused: 'Postcode' })),
		...[['GY1 1AA', 'GG'], ['GY9 3TD', 'Guernsey'], ['JE2 3XP', 'JE'], ['je4 8pp', 'Jersey'], ['IM1 1AD', 'IM'], ['IM8 1AA', 'Isle of Man']].map(([code, country]) =>
			row('Crown dependency', code, country, { postcode: code.toUpperCase().replace(/^(\w+?)(\d\w\w)$/, '$1 $2').replace(/\s+/g, ' '), country: { Guernsey: 'GG', Jersey: 'JE', 'Isle of Man': 'IM' }[country] ?? country }),
		),
		...[['GY1 1AA', 'JE'], ['JE2 3XP', 'IM'], ['SW1A 1AA', 'GG'], ['IM1 1AD', 'Jersey']].map(([code, country]) => row('Crown dependency: postcode of another', code, country, { refused: 'Postcode' })),
		...[['IM1 1AD', 'GB'], ['JE2 3XP', 'UK']].map(([code, country]) => row('Crown dependency postcode under GB', code, country, { postcode: code, country: 'GB' })),
	];
}

function eircodes(): DatasetRow[] {
	// An Post's routing keys (A65, of Eircode's illustration A65 F4E2, is none).
	const keys = ['A92', 'D02', 'D6W', 'T12', 'H91', 'V94', 'F92', 'R95', 'X91', 'Y35'];
	const ids = ['F4E2', 'X285', 'PV38', 'AC12', '2NT4', 'HE7K', 'YD5X', '0W6T', 'KR27', 'C9FN'];
	return [
		...keys.map((key, i) => row('Irish Eircode', i % 2 ? `${key}${ids[i]}`.toLowerCase() : `${key} ${ids[i]}`, i % 3 ? 'Ireland' : 'IE', { postcode: `${key} ${ids[i]}`, country: 'IE' })),
		// Of Google's looser pattern, but no routing key of An Post's, or a letter the unique identifier never uses.
		...['B12 F4E2', 'A65 F4E2', 'D6X PV38', 'O12 AC12', 'Q99 9999', 'D02 F4B2'].map((code) => row('Eircode: no routing key, or a letter not used', code, 'IE', { refused: `Postcode "${code}" is not a postcode of Ireland (IE)` })),
		...['Dublin 2', 'D6W', 'Co. Dublin'].map((code) => row('Eircode: a Dublin district or county typed as one', code, 'IE', { refused: `Postcode "${code}" is a` })),
		...['A6 F4E2', 'A65 F4E', '12345', 'A65F4E22'].map((code) => row('Eircode: not the format', code, 'IE', { refused: 'Postcode' })),
	];
}

function abroad(): DatasetRow[] {
	const good: Array<[string, string, string]> = [
		['US', '10001', '10001'], ['US', '94105-1234', '94105-1234'], ['United States', '941051234', '94105-1234'], ['CA', 'k1a0b1', 'K1A 0B1'],
		['DE', '10115', '10115'], ['Germany', '80331', '80331'], ['FR', '75008', '75008'], ['France', '13001', '13001'], ['ES', '28001', '28001'],
		['IT', '00184', '00184'], ['NL', '1012ab', '1012 AB'], ['Netherlands', '3011 CE', '3011 CE'], ['BE', '1000', '1000'], ['CH', '8001', '8001'],
		['AT', '1010', '1010'], ['DK', '1050', '1050'], ['NO', '0150', '0150'], ['SE', '11122', '111 22'], ['PL', '00950', '00-950'], ['PT', '1000001', '1000-001'],
		['AU', '2000', '2000'], ['NZ', '6011', '6011'], ['JP', '100-0001', '100-0001'], ['Japan', '1500001', '150-0001'],
		['DE', 'D-10115', '10115'], ['FR', 'F-75008', '75008'], ['NL', 'NL-1012 AB', '1012 AB'], ['SE', 'S-111 22', '111 22'], ['FI', 'FIN-00550', '00550'], ['DE', 'DE10115', '10115'],
	];
	const bad: Array<[string, string]> = [
		['US', '1000'], ['US', 'SW1A 1AA'], ['DE', '1011'], ['FR', 'D-10115'], ['FR', '7500'], ['NL', '1012 SA'], ['NL', '0123 AB'], ['CA', '123456'],
		['PL', '0095'], ['AU', '20000'], ['SE', '1122'], ['ES', '9900'], ['ES', '99000'], ['IN', '012345'], ['MT', 'NXR 01'],
	];
	return [
		...good.map(([country, code, sent]) => row(`abroad: ${country.length === 2 ? 'code' : 'name'} with a postcode of its format`, code, country, { postcode: sent, country: country.length === 2 ? country : { 'United States': 'US', Germany: 'DE', France: 'FR', Netherlands: 'NL', Japan: 'JP' }[country]! })),
		...bad.map(([country, code]) => row('abroad: postcode not of its country', code, country, { refused: 'Postcode' })),
		row('abroad: a UK postcode where there are none', 'SW1A 1AA', 'HK', { refused: 'Hong Kong (HK) has no postcodes; "SW1A 1AA" looks like a UK postcode' }),
		...['N/A', 'none', '-', '00000'].map((code) => row('abroad: a postcode that means none', code, 'IE', { postcode: '', country: 'IE' })),
		...['N/A', '0'].map((code) => row('abroad: none where one is needed', code, 'FR', { refused: `Postcode "${code}" stands for no postcode, but a letter to France (FR) needs one` })),
	];
}

function countries(): DatasetRow[] {
	const gb = ['UK', 'U.K.', 'uk', 'United Kingdom', 'united kingdom', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland', 'GB', 'gb', ' GB ', ''];
	const other: Array<[string, string]> = [['Ireland', 'IE'], ['Republic of Ireland', 'IE'], ['Eire', 'IE'], ['Éire', 'IE'], ['France', 'FR'], ['Germany', 'DE'], ['Deutschland', 'DE'], ['Spain', 'ES'], ['Italy', 'IT'], ['USA', 'US'], ['United States of America', 'US']];
	const unknown = ['Atlantis', 'Narnia', 'XX', 'Europe', 'EU', 'UKK', 'Englandshire', 'DD', 'YU'];
	return [
		...gb.map((country) => row('country: UK name or alias', 'SW1A 1AA', country, { postcode: 'SW1A 1AA', country: 'GB' })),
		...other.map(([country, code]) => row('country: another country by name', { IE: 'D02 X285', FR: '75008', DE: '10115', ES: '28001', IT: '00184', US: '10001' }[code]!, country, { postcode: { IE: 'D02 X285', FR: '75008', DE: '10115', ES: '28001', IT: '00184', US: '10001' }[code]!, country: code })),
		...unknown.map((country) => row('country: not a country', 'SW1A 1AA', country, { refused: `Country "${country}" is not a country Intelliprint knows` })),
	];
}

function windows(): DatasetRow[] {
	const long = (n: number) => `${'Flat 12, The Very Long Name Of A Building On A Street'.padEnd(n, ' x').slice(0, n)}`;
	return [
		...[55, 60].map((n) => row('window: longest line that fits', 'SW1A 1AA', 'GB', { postcode: 'SW1A 1AA', country: 'GB' }, { address: `${long(n)}\nLondon` })),
		...[61, 75, 120].map((n) => row('window: a line too long', 'SW1A 1AA', 'GB', { refused: 'Address line' }, { address: `1 High Street\n${long(n)}` })),
		row('window: a name too long', 'SW1A 1AA', 'GB', { refused: 'The name' }, { name: long(70) }),
		...[5, 6].map((n) => row('window: lines that fit', 'SW1A 1AA', 'GB', { postcode: 'SW1A 1AA', country: 'GB' }, { address: Array.from({ length: n }, (_, i) => `Line ${i + 1}`).join('\n') })),
		...[7, 9].map((n) => row('window: too many lines', 'SW1A 1AA', 'GB', { refused: `The address has ${n} lines below the name` }, { address: Array.from({ length: n }, (_, i) => `Line ${i + 1}`).join('\n') })),
	];
}

/** Every row, numbered in a name of its own so that none repeats another. */
/** Not countries to post to (the node refuses them or posts them as another): no rows of their own. */
const SKIPPED = new Set(['AC', 'TA', 'XK', 'AQ', 'BV', 'HM', 'UM', 'GB', 'GG', 'JE', 'IM']);

/**
 * The world, from the generated data (countryTable.ts): every country's first published postcode example, as
 * published and typed compact in lower case (both sent as published); a blank postcode where the country has none
 * or it is optional; names as sheets and systems write them; ambiguous names; invisible characters.
 */
function international(): DatasetRow[] {
	const rows: DatasetRow[] = [];
	for (const entry of countryTable().values()) {
		if (SKIPPED.has(entry.code)) continue;
		const example = entry.examples[0];
		if (example && entry.pattern) {
			rows.push(row('world: published example', example, entry.code, { postcode: example.toUpperCase(), country: entry.code }));
			rows.push(row('world: example typed compact, lower case', example.replace(/[\s-]/g, '').toLowerCase(), entry.alpha3, { postcode: example.toUpperCase(), country: entry.code }));
		}
		if (entry.postcode !== 'required') rows.push(row(`world: no postcode (${entry.postcode})`, '', entry.code, { postcode: '', country: entry.code }));
		if (entry.pattern && example) rows.push(row('world: postcode not of its country', 'ZZ-ZZ-ZZ-ZZ-ZZ', entry.code, { refused: 'Postcode' }));
	}
	const named: Array<[string, string]> = [
		['Nederland', 'NL'], ['Österreich', 'AT'], ['Schweiz', 'CH'], ['Suisse', 'CH'], ['Belgique', 'BE'], ['België', 'BE'], ['Polska', 'PL'], ['Sverige', 'SE'],
		['Danmark', 'DK'], ['Norge', 'NO'], ['Turkey', 'TR'], ['Türkiye', 'TR'], ['Swaziland', 'SZ'], ['Macedonia', 'MK'], ['Burma', 'MM'], ['Myanmar', 'MM'],
		['Hong Kong', 'HK'], ['Viet Nam', 'VN'], ['Republic of Korea', 'KR'], ['UAE', 'AE'], ['Great Britain & Northern Ireland', 'GB'], ['GBR', 'GB'], ['IRL', 'IE'],
		['DEU', 'DE'], ['España', 'ES'], ['Italia', 'IT'], ['Deutschland', 'DE'], ['Česko', 'CZ'], ['Suomi', 'FI'], ['Ísland', 'IS'], ['Éire', 'IE'], ['U.S.A.', 'US'],
		['Ivory Coast', 'CI'], ["Côte d'Ivoire", 'CI'], ['Czechia', 'CZ'], ['Czech Republic', 'CZ'], ['Holland', 'NL'], ['the Netherlands', 'NL'],
	];
	for (const [country, code] of named) {
		const sample = countryRow(code);
		const postcode = code === 'GB' ? 'SW1A 1AA' : (sample?.examples[0] ?? '');
		rows.push(row('world: country as sheets write it', postcode, country, { postcode: postcode.toUpperCase(), country: code }));
	}
	for (const country of ['Korea', 'Congo', 'Channel Islands']) rows.push(row('world: ambiguous country name', '', country, { refused: `Country "${country}" could be` }));
	const hidden: Array<[string, Partial<DatasetRow>, DatasetRow['expected']]> = [
		['postcode with a zero-width space', { postcode: 'SW1A\u200B 1AA' }, { postcode: 'SW1A 1AA', country: 'GB' }],
		['postcode with a right-to-left override', { postcode: '\u202ESW1A 1AA' }, { postcode: 'SW1A 1AA', country: 'GB' }],
		['name with a soft hyphen', { name: 'Sam\u00AD Example' }, { postcode: 'SW1A 1AA', country: 'GB' }],
		['line with a right-to-left override', { address: '1 High \u202EStreet\nTown' }, { refused: 'Address line 1 holds an invisible character (U+202E' }],
		['name with a control character', { name: 'Sam\u0007 Example' }, { refused: 'The name holds an invisible character (U+0007' }],
	];
	for (const [kind, extra, expected] of hidden) rows.push(row(`world: invisible character, ${kind}`, 'SW1A 1AA', 'GB', expected, extra));
	return rows;
}

export function addressDataset(): DatasetRow[] {
	const rows = [...ukShapes(), ...ukRefused(), ...special(), ...eircodes(), ...abroad(), ...countries(), ...windows(), ...international()];
	// Enough rows of the everyday kind (a full, well-typed UK address) to make a sheet of real size.
	for (let i = 0; rows.length < 520; i++) rows.push(row('UK: everyday row', `LS${(i % 28) + 1} ${i % 10}${pick(INWARD_LETTERS, i)}${pick(INWARD_LETTERS, i * 3)}`, 'GB', { postcode: `LS${(i % 28) + 1} ${i % 10}${pick(INWARD_LETTERS, i)}${pick(INWARD_LETTERS, i * 3)}`, country: 'GB' }));
	return rows.map((entry, i) => (entry.name === 'Sam Example' ? { ...entry, name: `Sam Example ${i + 1}` } : entry));
}
