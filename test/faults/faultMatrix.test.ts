import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { simplePdf } from '../helpers/pdfs';
import { ROWS, runRow } from './matrix';

let fake: FakeIntelliprint;
let pdf: Buffer;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	pdf = await simplePdf(1);
});
afterAll(async () => fake.stop());

describe('fault matrix: no duplicate, vanished, fake success or leaked key under any fault', () => {
	it.each(ROWS.map((row, index) => [row.name, row, index] as const))('%s', async (_, row, index) => {
		const tally = await runRow(fake, row, pdf, `row${index}`);
		const summary = JSON.stringify({ ...tally, errorItems: undefined });
		expect(tally.duplicates, summary).toBe(0);
		expect(tally.vanished, summary).toBe(0);
		expect(tally.fakeSuccesses, summary).toBe(0);
		expect(tally.keyLeaks, summary).toBe(0);
		expect(tally.successes, summary).toBe(row.expect.successes);
		if (row.expect.jobs !== undefined) expect(tally.jobsCreated, summary).toBe(row.expect.jobs);
		if (row.expect.requests !== undefined) expect(tally.requests, summary).toBe(row.expect.requests);
		if (row.operation !== 'getMany') expect(tally.successes + tally.errors, summary).toBe(tally.items);
		for (const item of tally.errorItems) {
			expect(String(item.json.error), summary).not.toMatch(/undefined|\[object Object\]/);
			if (row.expect.mayHaveActed) expect(String(item.json.description), summary).toMatch(/may (already )?have acted/);
			if (tally.jobsCreated && row.operation === 'createLetters') expect(item.json.created_ids, summary).toHaveLength(1);
		}
	});
});
