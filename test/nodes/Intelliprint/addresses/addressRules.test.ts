import { describe, expect, it } from 'vitest';

import { checkAddress } from '../../../../nodes/Intelliprint/addresses/addressRules';
import { addressDataset } from '../../../helpers/addressDataset';

describe('the address rules, row by row over the data set built from the published formats', () => {
	const rows = addressDataset();

	it('holds at least 500 rows, every kind with its expected verdict', () => {
		expect(rows.length).toBeGreaterThanOrEqual(500);
		expect(new Set(rows.map((row) => row.kind)).size).toBeGreaterThanOrEqual(25);
	});

	it('gives every row its expected verdict: the postcode and country as sent, or the reason', () => {
		const wrong = rows.flatMap((row, i) => {
			const verdict = checkAddress(row.name, row.address, row.postcode, row.country);
			const got = verdict.ok ? { postcode: verdict.address.postcode, country: verdict.address.country } : { refused: verdict.reason };
			const right = 'refused' in row.expected ? 'refused' in got && String(got.refused).startsWith(row.expected.refused) : JSON.stringify(got) === JSON.stringify(row.expected);
			return right ? [] : [`row ${i + 1} (${row.kind}) ${JSON.stringify([row.postcode, row.country])}: expected ${JSON.stringify(row.expected)}, got ${JSON.stringify(got)}`];
		});
		expect(wrong).toEqual([]);
	});
});
