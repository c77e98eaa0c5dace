import { beforeAll, describe, expect, it } from 'vitest';

import { pageCount } from '../../../../fake-api/pdf';
import { useFakeApi } from '../../../../helpers/context';
import { useBinaryMode } from '../../../../helpers/n8n';
import { simplePdf } from '../../../../helpers/pdfs';

const api = useFakeApi();
const merge = (extra: Record<string, unknown> = {}) => ({ resource: 'merge', operation: 'merge', ...extra });
let one: Buffer;
let two: Buffer;
let three: Buffer;
beforeAll(async () => {
	[one, two, three] = await Promise.all([simplePdf(1, 'One'), simplePdf(2, 'Two'), simplePdf(3, 'Three')]);
});
const file = (data: Buffer, fileName: string) => ({ data, fileName });

describe('Merge → Merge Files', () => {
	it("merges all of an item's PDFs, in order, and hands on the merged file", async () => {
		const { items, error } = await api.run({
			parameters: merge(),
			items: [{ files: { a: file(one, 'one.pdf'), b: file(two, 'two.pdf'), c: file(three, 'three.pdf') } }],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: expect.stringMatching(/^merge_/), object: 'merge', download_link: expect.any(String) });
		const merged = items[0].binary!.data;
		expect(merged).toMatchObject({ fileName: 'merged.pdf', mimeType: 'application/pdf' });
		expect(await pageCount(Buffer.from(merged.data, 'base64'))).toBe(6);
		const [call] = api.apiCalls();
		expect(call).toMatchObject({ method: 'POST', path: '/v1/tools/merge' });
		expect((call.body.files as Array<{ fileName: string }>).map((f) => f.fileName)).toEqual(['one.pdf', 'two.pdf', 'three.pdf']);
	});

	it('merges only the named fields, in the order named', async () => {
		const { items } = await api.run({
			parameters: merge({ binaryPropertyNames: 'c, a', options: { outputBinaryProperty: 'pack', fileName: 'pack.pdf' } }),
			items: [{ files: { a: file(one, 'one.pdf'), b: file(two, 'two.pdf'), c: file(three, 'three.pdf') } }],
		});
		expect(await pageCount(Buffer.from(items[0].binary!.pack.data, 'base64'))).toBe(4);
		expect(items[0].binary!.pack.fileName).toBe('pack.pdf');
		expect((api.apiCalls()[0].body.files as Array<{ fileName: string }>).map((f) => f.fileName)).toEqual(['three.pdf', 'one.pdf']);
	});

	it('merges across all input items into one file, paired with every item (files on disk)', async () => {
		await useBinaryMode('filesystem');
		try {
			const { items } = await api.run({
				parameters: merge({ options: { combineAllItems: true } }),
				items: [{ files: { data: file(one, 'one.pdf') } }, { files: { data: file(two, 'two.pdf') } }, { files: { data: file(three, 'three.pdf') } }],
			});
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(api.apiCalls()).toHaveLength(1);
			expect(items[0].binary!.data.id).toMatch(/^filesystem/);
		} finally {
			await useBinaryMode('default');
		}
	});

	it('can leave the merged file on Intelliprint and return only the link', async () => {
		const { items } = await api.run({ parameters: merge({ options: { download: false } }), items: [{ files: { a: file(one, 'a.pdf'), b: file(two, 'b.pdf') } }] });
		expect(items[0].binary).toBeUndefined();
		expect(api.fake.requests.some((r) => r.path.startsWith('files:'))).toBe(false);
	});

	describe('bad input', () => {
		it('refuses a merge of one file before sending anything', async () => {
			const { error } = await api.run({ parameters: merge(), items: [{ files: { a: file(one, 'a.pdf') } }] });
			expect(error?.message).toBe('Merging needs at least two PDFs, but found 1');
			expect(error?.description).toContain('Merge Across All Items');
			expect(api.apiCalls()).toHaveLength(0);
		});

		it('names a missing field and a file that is not a PDF, on the right item', async () => {
			const missing = await api.run({ parameters: merge({ binaryPropertyNames: 'a, terms' }), items: [{ files: { a: file(one, 'a.pdf') } }] });
			expect(missing.error?.message).toBe('Item 1 has no binary property "terms"');
			expect(missing.error?.description).toContain('"Input Binary Fields"');
			const notPdf = await api.run({
				parameters: merge(),
				continueOnFail: true,
				items: [{ files: { a: file(one, 'a.pdf'), b: file(two, 'b.pdf') } }, { files: { a: file(one, 'a.pdf'), b: { data: Buffer.from('text'), fileName: 'notes.txt' } } }],
			});
			expect(notPdf.items[0].json.object).toBe('merge');
			expect(notPdf.items[1]).toMatchObject({ json: { error: 'The file in "b" is not a PDF' }, pairedItem: { item: 1 } });
		});
	});
});

describe('Merge Across All Items, one file refused', () => {
	it('all or nothing: the refused item has its own reason, the others one that names it, and nothing is sent', async () => {
		const pdf = await simplePdf(1);
		api.fake.resetRecording();
		const { items } = await api.run({
			parameters: merge({ options: { combineAllItems: true } }),
			items: [
				{ files: { a: file(pdf, 'one.pdf') } },
				{ files: { a: { data: Buffer.from('minutes of the meeting'), fileName: 'minutes.txt', mimeType: 'text/plain' } } },
				{ files: { a: file(pdf, 'three.pdf') } },
			],
			continueOnFail: true,
		});
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(String(items[1].json.error)).toMatch(/is not a PDF/);
		for (const row of [0, 2]) expect(items[row].json.error).toBe('Not merged: the files of item 2 could not be read, and Merge Across All Items merges all files or none');
		expect(api.apiCalls()).toEqual([]);
	});
});
