import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';

// A small body limit, so that a part of ten large rows is refused (413) and a part of three is not.
const api = useFakeApi({ rateLimit: false, maxBodyBytes: 60_000 });

const rows = (tag: string, count: number, big: number[] = []) =>
	Array.from({ length: count }, (_, i) => ({
		json: { name: `${tag} ${i + 1}`, address: `${i + 1} High Street`, postcode: 'LS1 4AP', ...(big.includes(i + 1) ? { notes: 'x'.repeat(12_000) } : {}) } as IDataObject,
	}));
const mailRun = (options: INodeParameters) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello {{name}}</p>', testmode: true, variables: 'all', options,
});
const jobsOf = (tag: string) => api.fake.createdPrintJobs().filter((job) => job.letters.some((letter) => letter.address.name?.startsWith(`${tag} `)));
const lettersByName = (tag: string) => {
	const count = new Map<string, number>();
	for (const job of jobsOf(tag)) for (const letter of job.letters) count.set(letter.address.name!, (count.get(letter.address.name!) ?? 0) + 1);
	return count;
};

describe('Print Job → Create from content: a mail run split into print jobs', () => {
	it('makes one print job per "Letters per Print Job" rows, each paired with its rows, each row recorded by its address', async () => {
		const { items, error } = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 10, sentKey: 'split-A' }), items: rows('A', 25) });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.letter_count)).toEqual([10, 10, 5]);
		expect(items[2].pairedItem).toEqual([20, 21, 22, 23, 24].map((item) => ({ item })));
		// One run key for every row: each row is known by it and its address, not by its place in the run.
		expect(jobsOf('A').map((job) => [job.reference, job.metadata.n8n_run_key, job.metadata.n8n_rows, job.metadata.n8n_addr.length])).toEqual([
			['n8n mail run', 'split-A', '1-10', 60],
			['n8n mail run', 'split-A', '11-20', 60],
			['n8n mail run', 'split-A', '21-25', 30],
		]);
	});

	it('a part too large for the API says what to change; the rerun with smaller parts sends every other row once', async () => {
		const input = rows('B', 25, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
		const first = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 10, sentKey: 'split-B' }), items: input });
		expect(first.error?.message).toContain('larger than Intelliprint accepts');
		expect(first.error?.description).toContain('Print job 2 of 3 of this mail run had 10 letters');
		expect(first.error?.description).toContain('"Letters per Print Job" lower (e.g. 5)');
		expect(first.error?.description).toContain('run it again and Skip Items Already Sent sends only the rows they do not hold');
		expect(first.error?.description).toContain(jobsOf('B')[0].id);
		expect(jobsOf('B')).toHaveLength(1);

		const rerun = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 3, sentKey: 'split-B' }), items: input });
		expect(rerun.error).toBeUndefined();
		expect(rerun.items[0].json).toMatchObject({ already_sent: true, letter_count: 10 });
		expect(rerun.items.slice(1).map((item) => item.json.letter_count)).toEqual([3, 3, 3, 3, 3]);
		expect([...lettersByName('B').values()]).toEqual(Array(25).fill(1));

		const again = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 7, sentKey: 'split-B' }), items: input });
		expect(again.error).toBeUndefined();
		expect(again.items.every((item) => item.json.already_sent === true)).toBe(true);
		expect(jobsOf('B')).toHaveLength(6);
	});

	it('under a run key, rows left out, added or moved change nothing for the others: only new addresses are sent', async () => {
		const input = rows('C', 10);
		await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 5, sentKey: 'split-C' }), items: input });
		// One row left out, one added on top: every other row stands somewhere else now.
		const changed = [...rows('C', 11).slice(10), ...input.slice(0, 2), ...input.slice(3)];
		const { items, error } = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 5, sentKey: 'split-C' }), items: changed });
		expect(error).toBeUndefined();
		expect(items.filter((item) => item.json.already_sent !== true).map((item) => item.json.letter_count)).toEqual([1]);
		expect([...lettersByName('C').values()]).toEqual(Array(11).fill(1));
	});

	it('with Continue On Fail a part that fails gives its rows the error and the parts after it still go', async () => {
		const { items } = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 5 }), items: rows('D', 15, [6, 7, 8, 9, 10]), continueOnFail: true });
		// The jobs first, then an error item for each row of the part that failed, paired with it.
		expect(items.map((item) => item.json.letter_count ?? 'error')).toEqual([5, 5, 'error', 'error', 'error', 'error', 'error']);
		expect(items.slice(2).map((item) => item.pairedItem)).toEqual([5, 6, 7, 8, 9].map((item) => ({ item })));
		expect(jobsOf('D')).toHaveLength(2);
	});

	describe('without keys or a daily limit, two parts at a time (values/inTurns.ts)', () => {
		it('the items come out in the order of the parts, each paired with its rows', async () => {
			const { items, error } = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 4 }), items: rows('E', 18) });
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.letter_count)).toEqual([4, 4, 4, 4, 2]);
			expect(items.map((item) => (item.pairedItem as Array<{ item: number }>)[0].item)).toEqual([0, 4, 8, 12, 16]);
			expect([...lettersByName('E').values()]).toEqual(Array(18).fill(1));
		});

		it('a part refused stops the run once the part beside it has finished, and the error names every job made', async () => {
			const { error } = await api.run({ typeVersion: 1.1, parameters: mailRun({ lettersPerJob: 10 }), items: rows('F', 25, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]) });
			expect(error?.message).toContain('larger than Intelliprint accepts');
			expect(error?.description).toContain('Print job 2 of 3 of this mail run had 10 letters');
			// Part 1 was made; part 3 only if it started before part 2 was refused. Whatever was made is named.
			const made = jobsOf('F');
			expect(made.length === 1 || made.length === 2).toBe(true);
			for (const job of made) expect(error?.description).toContain(job.id);
			expect(made.flatMap((job) => job.letters.map((letter) => letter.address.name))).not.toContain('F 11');
		});
	});
});
