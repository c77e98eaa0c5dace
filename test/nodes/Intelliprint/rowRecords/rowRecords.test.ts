import { describe, expect, it } from 'vitest';

import { addressDigest, decodeRows, encodeRows, fromPieces, inPieces, METADATA_BUDGET, overBudget, placesOf, placesText, runRowKey, UNKNOWN_DIGEST } from '../../../../nodes/Intelliprint/rowRecords';

describe('the rows behind a print job, kept in its metadata', () => {
	it('places as ranges, and back', () => {
		expect(placesText([1, 2, 3, 7, 9, 10])).toBe('1-3,7,9-10');
		expect(placesOf('1-3,7,9-10')).toEqual([1, 2, 3, 7, 9, 10]);
		expect(placesOf('1-3,x')).toBeUndefined();
	});

	it('a long text in pieces of at most 500 characters, read back whole', () => {
		const text = 'x'.repeat(1234);
		const pieces = inPieces('n8n_keys', text);
		expect(Object.keys(pieces)).toEqual(['n8n_keys', 'n8n_keys_1', 'n8n_keys_2']);
		expect(Object.values(pieces).every((piece) => piece.length <= METADATA_BUDGET.valueChars)).toBe(true);
		expect(fromPieces(pieces, 'n8n_keys')).toBe(text);
		expect(overBudget(pieces)).toBeUndefined();
		expect(overBudget({ n8n_keys: 'x'.repeat(501) })).toContain('501 characters');
	});

	it("an address's digest ignores how it is written (capitals, commas or line breaks, a postcode's space), not what it says", () => {
		const sent = { name: 'Jane Smith', line: '1 Mill Lane\nLeeds', postcode: 'LS1 4AP', country: 'GB' };
		expect(addressDigest({ name: 'JANE SMITH', line: '1 Mill Lane, Leeds', postcode: 'ls14ap' })).toBe(addressDigest(sent));
		expect(addressDigest({ ...sent, line: '2 Mill Lane\nLeeds' })).not.toBe(addressDigest(sent));
		expect(addressDigest(sent)).toMatch(/^[\w-]{6}$/);
	});

	it('keys and Row IDs round-trip; an ID equal to its key is stored once; rows without keys store none', () => {
		const records = [
			{ place: 3, digest: 'aaaaaa', key: 'INV-3', id: 'INV-3' },
			{ place: 4, digest: 'bbbbbb', key: 'INV-4', id: 'INV-4' },
		];
		const stored = encodeRows(records, false);
		expect(stored).toEqual({ n8n_rows: '3-4', n8n_addr: 'aaaaaabbbbbb', n8n_keys: '["INV-3","INV-4"]', n8n_ids: '=' });
		expect(decodeRows(stored)).toEqual(records);
		expect(encodeRows([{ place: 1, digest: UNKNOWN_DIGEST }], false)).toEqual({ n8n_rows: '1' });
		expect(decodeRows({ n8n_rows: '1' })).toEqual([{ place: 1, digest: UNKNOWN_DIGEST }]);
	});

	it("under a run key each row's key is the run key and its address; the second row to one address counts apart", () => {
		const records = [
			{ place: 1, digest: 'aaaaaa', key: runRowKey('overdue-7', 'aaaaaa') },
			{ place: 2, digest: 'aaaaaa', key: runRowKey('overdue-7', 'aaaaaa', 2), nth: 2 },
		];
		const stored: Record<string, string> = { ...encodeRows(records, true), n8n_run_key: 'overdue-7' };
		expect(stored.n8n_keys).toBeUndefined();
		expect(decodeRows(stored)?.map((record) => record.key)).toEqual(['overdue-7#aaaaaa', 'overdue-7#aaaaaa.2']);
	});

	it('a job made elsewhere, or metadata cut short, gives no records rather than wrong ones', () => {
		expect(decodeRows({})).toBeUndefined();
		expect(decodeRows({ n8n_rows: '1-2', n8n_addr: 'aaaaaa' })).toBeUndefined();
	});
});
