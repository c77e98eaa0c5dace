import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { placesOf, placesText, ROW_IDS_MAX_CHARS, rowMetadata } from '../../../../nodes/Intelliprint/building/rowMetadata';

/** What a print job stores to lead its letters back to their rows (docs/webhook-trigger.md), and what that costs. */
const withRowIds = (ids: string[]) => ({ getNodeParameter: (_: string, row: number) => ids[row] }) as unknown as IExecuteFunctions;
const invoices = (count: number) => Array.from({ length: count }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`);
const bytes = (metadata: Record<string, string>) => Object.entries(metadata).reduce((sum, [key, value]) => sum + key.length + Buffer.byteLength(value), 0);

describe('the rows a print job stores', () => {
	it('places as ranges, read back in the same order', () => {
		expect(placesText([1, 2, 3, 7, 9, 10])).toBe('1-3,7,9-10');
		expect(placesOf('1-3,7,9-10')).toEqual([1, 2, 3, 7, 9, 10]);
		expect(placesOf('1-3,x')).toBeUndefined();
		expect(placesOf(undefined)).toBeUndefined();
	});

	it('1, 100 and 10,000 rows with Row IDs such as INV-000123: what each job stores, and where the IDs stop', () => {
		const one = rowMetadata(withRowIds(invoices(1)), [0]);
		const hundred = rowMetadata(withRowIds(invoices(100)), [...Array(100).keys()]);
		const tenThousand = rowMetadata(withRowIds(invoices(10_000)), [...Array(10_000).keys()]);
		expect(one).toEqual({ n8n_rows: '1', n8n_row_ids: '["INV-000001"]' });
		expect(bytes(one)).toBe(34);
		expect(hundred.n8n_rows).toBe('1-100');
		expect(JSON.parse(hundred.n8n_row_ids)).toEqual(invoices(100));
		expect(bytes(hundred)).toBe(1_325);
		// 13 characters a row: past ROW_IDS_MAX_CHARS only the places are kept (Letters per Print Job 1,500 keeps them).
		expect(tenThousand).toEqual({ n8n_rows: '1-10000' });
		expect(JSON.stringify(invoices(1_538)).length).toBeLessThanOrEqual(ROW_IDS_MAX_CHARS);
		expect(JSON.stringify(invoices(1_539)).length).toBeGreaterThan(ROW_IDS_MAX_CHARS);
	});

	it('no Row ID set: only the places', () => {
		expect(rowMetadata(withRowIds([]), [4, 5, 6])).toEqual({ n8n_rows: '5-7' });
	});
});
