import { beforeAll, describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { simplePdf } from '../../../../helpers/pdfs';

const api = useFakeApi();
let pdf: Buffer;
beforeAll(async () => {
	pdf = await simplePdf(1);
});

const items = (count: number, from = 1) =>
	Array.from({ length: count }, (_, i) => ({ json: { invoice: `INV-${from + i}` }, files: { data: { data: pdf, fileName: `inv-${from + i}.pdf` } } }));
const create = (extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => ({
	resource: 'printJob', operation: 'create', binaryPropertyName: 'data', testmode: true,
	options: { reference: '={{ $json.invoice }}', ...options }, ...extra,
});
const created = () => [...api.fake.prints.jobs.values()];
const listCalls = () => api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints');

describe('Print Job → Create: exactly once', () => {
	it('sends items in parallel and keeps input order and pairedItem', async () => {
		const before = created().length;
		const { items: out, error } = await api.run({ parameters: create(), items: items(25) });
		expect(error).toBeUndefined();
		expect(out.map((item) => item.json.reference)).toEqual(items(25).map((item) => item.json.invoice));
		expect(out.map((item) => item.pairedItem)).toEqual(out.map((_, i) => ({ item: i })));
		expect(created().length).toBe(before + 25);
	});

	it('with Skip Items Already Sent, a rerun posts nothing twice and reads the list once per run', async () => {
		const parameters = create({}, { sentKey: '={{ $json.invoice }}' });
		const first = await api.run({ parameters, items: items(6, 100) });
		expect(first.error).toBeUndefined();
		expect(first.items.every((item) => item.json.already_sent === undefined)).toBe(true);
		const jobs = created().filter((job) => job.metadata.n8n_sent_key);
		expect(jobs.map((job) => job.metadata.n8n_sent_key).sort()).toEqual(['INV-100', 'INV-101', 'INV-102', 'INV-103', 'INV-104', 'INV-105']);
		api.fake.resetRecording();

		const before = created().length;
		const rerun = await api.run({ parameters, items: items(8, 100) });
		expect(rerun.error).toBeUndefined();
		expect(created().length).toBe(before + 2);
		expect(rerun.items.map((item) => item.json.already_sent ?? false)).toEqual([true, true, true, true, true, true, false, false]);
		expect(rerun.items[0].json.id).toBe(first.items[0].json.id);
		expect(listCalls()).toHaveLength(1);
		expect(listCalls()[0].query).toMatchObject({ testmode: 'true', sort_field: 'created', sort_order: 'desc' });
	});

	it('two items with the same key in one run make one print job', async () => {
		const before = created().length;
		const twice = [...items(1, 200), ...items(1, 200)];
		const { items: out } = await api.run({ parameters: create({}, { sentKey: '={{ $json.invoice }}' }), items: twice });
		expect(created().length).toBe(before + 1);
		expect(out[1].json).toMatchObject({ id: out[0].json.id, already_sent: true });
	});

	it('a run that stops names every print job already created, so none is sent twice by a rerun', async () => {
		const batch = items(6, 300);
		batch[3] = { json: { invoice: 'INV-bad' }, files: { data: { data: Buffer.from('not a pdf'), fileName: 'x.txt' } } };
		const { error } = await api.run({ parameters: create({}, { parallelItems: 1 }), items: batch });
		expect(error?.message).toBe('The file in "data" is not a PDF');
		const ids = created().filter((job) => ['INV-300', 'INV-301', 'INV-302'].includes(String(job.reference))).map((job) => job.id);
		expect(ids).toHaveLength(3);
		for (const id of ids) expect(error?.description).toContain(id);
		expect(error?.description).toContain('The run stopped at item 4 of 6');
		expect(error?.context?.createdByItem).toMatchObject({ 0: [expect.stringMatching(/^print_/)] });
	});

	it('a created job whose letter PDF cannot be downloaded is reported with its ID', async () => {
		api.fake.faults.push({ host: 'files', status: 500, times: Number.POSITIVE_INFINITY });
		const before = created().length;
		const { items: out } = await api.run({
			parameters: create({ output: 'letters', downloadLetterPdfs: true }),
			items: items(1, 400),
			continueOnFail: true,
		});
		expect(created().length).toBe(before + 1);
		const job = created().find((entry) => entry.reference === 'INV-400')!;
		expect(out).toHaveLength(1);
		expect(out[0].json.created_ids).toEqual([job.id]);
		expect(String(out[0].json.description)).toContain(`${job.id} was created for this item`);
	});

	it('a job left with no letters still comes out as an item', async () => {
		const { items: out, error } = await api.run({
			parameters: create({ output: 'letters' }, { removeLettersWithPhrase: 'Page' }),
			items: items(1, 500),
		});
		expect(error).toBeUndefined();
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({ letter_count: 0, reference: 'INV-500' });
	});
});
