import { beforeAll, describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { useBinaryMode } from '../../../../helpers/n8n';
import { backgroundById, createBackground } from '../../../../helpers/printJobs';
import { largePdf, mailMergePdf, recipients, simplePdf, type TestRecipient } from '../../../../helpers/pdfs';

const api = useFakeApi();
const create = (extra: Record<string, unknown> = {}) => ({ resource: 'printJob', operation: 'create', binaryPropertyName: 'data', ...extra });
const pdfItem = (data: Buffer, fileName = 'letters.pdf') => ({ files: { data: { data, fileName } } });
/** A mail date a week from now (UTC), so the tests do not age into the past. */
const IN_A_WEEK = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

let people: TestRecipient[];
let mailMerge: Buffer;
let onePage: Buffer;
beforeAll(async () => {
	people = recipients(100);
	mailMerge = await mailMergePdf(people);
	onePage = await simplePdf(1);
});

describe('Print Job → Create', () => {
	it('turns a 100-letter mail-merge PDF into letters, split on "Dear", EMAIL ONLY letters removed', async () => {
		const { items, error } = await api.run({
			parameters: create({
				output: 'letters',
				options: {
					splitting: { values: { method: 'split_on_phrase', phrase: 'Dear' } },
					removeLettersWithPhrase: 'EMAIL ONLY',
				},
			}),
			items: [pdfItem(mailMerge, 'november-statements.pdf')],
		});
		expect(error).toBeUndefined();
		const posted = people.filter((p) => !p.emailOnly);
		expect(items).toHaveLength(posted.length);
		expect(items.map((i) => i.json.name)).toEqual(posted.map((p) => p.name));
		expect(items.map((i) => i.json.postcode)).toEqual(posted.map((p) => p.postcode));
		expect(items.map((i) => i.json.pages)).toEqual(posted.map((p) => p.pages));
		expect(items[0].json).toMatchObject({ status: 'draft', reference: 'november-statements.pdf', country: 'GB', cost_gbp: 0.85, cost_after_tax_gbp: 1.02 });
		expect(items[0].json.address).toBe(`${posted[0].lines.join('\n')}\n${posted[0].postcode}`);
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('sends the PDF as a file part and every option as the bracketed keys the API reads', async () => {
		const terms = await simplePdf(2, 'Terms');
		const { items, error } = await api.run({
			parameters: create({
				confirmed: false,
				testmode: true,
				simplify: false,
				options: {
					fileName: 'renamed.pdf',
					reference: 'Batch 7',
					splitting: { values: { method: 'split_on_pages', pages: 1 } },
					printing: { values: { doubleSided: 'mixed', doubleSidedSpecificPages: '1, 3-4', premiumQuality: true } },
					postage: { values: { service: 'uk_first_class_signed_for', idealEnvelope: 'c4', mailDate: `${IN_A_WEEK}T15:45:00` } },
					confidential: true,
					extraDocuments: { document: [{ binaryPropertyName: 'terms', order: 'custom', orderingNumber: 2, applyBackground: true }] },
					removeLettersWithPhrase: 'EMAIL ONLY',
					nudge: { values: { x: 2.5, y: -1 } },
					confirmationEmail: false,
					metadata: { entry: [{ key: 'batch', value: '7' }, { key: 'customer_id', value: 'C-1' }] },
				},
			}),
			items: [{ files: { data: { data: await simplePdf(3), fileName: 'original.pdf' }, terms: { data: terms, fileName: 'terms.pdf' } } }],
		});
		expect(error).toBeUndefined();
		const [call] = api.apiCalls();
		expect(call.method).toBe('POST');
		expect(call.path).toBe('/v1/prints');
		expect(call.contentType).toMatch(/^multipart\/form-data; boundary=/);
		expect(call.headers.authorization).toBe(`Bearer ${api.fake.apiKey}`);
		expect(call.body).toEqual({
			file: { fileName: 'renamed.pdf', contentType: 'application/pdf', size: expect.any(Number) },
			testmode: 'true',
			confirmed: 'false',
			reference: 'Batch 7',
			splitting: { method: 'split_on_pages', pages: '1' },
			printing: { double_sided: 'mixed', premium_quality: 'true', double_sided_specific_pages: ['1', '3', '4'] },
			postage: { service: 'uk_first_class_signed_for', ideal_envelope: 'c4', mail_date: String(Date.parse(`${IN_A_WEEK}T00:00:00Z`) / 1000) },
			confidential: 'true',
			confirmation_email: 'false',
			remove_letters: { with_phrase: 'EMAIL ONLY' },
			nudge: { x: '2.5', y: '-1' },
			extra_documents: [{ document: { fileName: 'terms.pdf', contentType: 'application/pdf', size: terms.length }, order: 'custom', ordering_number: '2', apply_background: 'true' }],
			// The row the letter came from is stored with the user's own (rowMetadata.ts).
			metadata: { batch: '7', customer_id: 'C-1', n8n_rows: '1' },
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ object: 'print', testmode: true, reference: 'Batch 7', confidential: true, metadata: { batch: '7', customer_id: 'C-1' } });
		// 3 pages, one letter each, with the 2-page extra document added to each: 3 pages, sheets per "mixed" rule.
		expect((items[0].json.letters as Array<{ pages: number }>).map((l) => l.pages)).toEqual([3, 3, 3]);
	});

	it('prints backgrounds chosen from the list or by ID behind the letters', async () => {
		const letterhead = await createBackground(api, 'Letterhead');
		const plain = await createBackground(api, 'Plain');
		const { items, error } = await api.run({
			parameters: create({
				simplify: false,
				options: { background: { values: { firstPage: { __rl: true, mode: 'list', value: letterhead }, otherPages: backgroundById(plain) } } },
			}),
			items: [pdfItem(onePage)],
		});
		expect(error).toBeUndefined();
		expect(items[0].json.background).toEqual({ first_page: letterhead, other_pages: plain });
		expect(api.apiCalls()[0].body.background).toEqual({ first_page: letterhead, other_pages: plain });
	});

	it('confirms on create when asked, and simplifies with costs in GBP', async () => {
		const { items } = await api.run({ parameters: create({ confirmed: true }), items: [pdfItem(onePage)] });
		expect(items[0].json).toMatchObject({ confirmed: true, letter_count: 1, letter_statuses: { waiting_to_print: 1 }, cost_gbp: 0.85, cost_after_tax_gbp: 1.02, cost_pence: 85, cost_after_tax_pence: 102, currency: 'GBP' });
		// One request a letter: confirmed on create, its answer then held to its postage (a misfit is cancelled at once).
		expect(api.apiCalls()).toHaveLength(1);
		expect(api.apiCalls()[0].body).toMatchObject({ confirmed: 'true', testmode: 'false' });
	});

	it('sends no option the user did not set, so the API keeps its defaults (only the row the letter came from)', async () => {
		await api.run({ parameters: create(), items: [pdfItem(onePage)] });
		expect(Object.keys(api.apiCalls()[0].body).sort()).toEqual(['confirmed', 'file', 'metadata', 'testmode']);
		expect(api.apiCalls()[0].body.metadata).toEqual({ n8n_rows: '1' });
	});

	it('reads binary data stored on disk (filesystem binary mode)', async () => {
		await useBinaryMode('filesystem');
		try {
			const { items, error, run } = await api.run({ parameters: create({ output: 'letters' }), items: [pdfItem(await mailMergePdf(people.slice(0, 1)))] });
			expect(error).toBeUndefined();
			// The input binary is a reference to a file n8n stored on disk, not inline data.
			const input = run.data.resultData.runData.Source[0].data!.main[0]![0].binary!.data;
			expect(input.id).toMatch(/^filesystem/);
			expect(input.data).not.toMatch(/^JVBER/);
			expect(items[0].json.name).toBe(people[0].name);
		} finally {
			await useBinaryMode('default');
		}
	});

	it('streams a large PDF from disk to the API, whole on every attempt, instead of loading it', async () => {
		const big = await largePdf(6 * 1024 * 1024);
		await useBinaryMode('filesystem');
		try {
			// The first attempt is refused with 429: the retry must send the whole file again.
			api.fake.faults.push({ method: 'POST', status: 429, headers: { 'retry-after': '0' }, times: 1 });
			const { items, error } = await api.run({ parameters: create({ output: 'letters' }), items: [pdfItem(big, 'big.pdf')] });
			expect(error).toBeUndefined();
			expect(items[0].json.name).toBe('Customer 001');
			const [refused, accepted] = api.apiCalls();
			expect(refused.status).toBe(429);
			expect(accepted.headers['content-length']).toBe(String(Number(accepted.headers['content-length'])));
			expect(accepted.body.file).toEqual({ fileName: 'big.pdf', contentType: 'application/pdf', size: big.length });
			expect(accepted.headers['transfer-encoding']).toBeUndefined();
		} finally {
			await useBinaryMode('default');
		}
	});

	it('refuses a large file on disk that is not a PDF without reading it whole', async () => {
		await useBinaryMode('filesystem');
		try {
			const { error } = await api.run({ parameters: create(), items: [{ files: { data: { data: Buffer.alloc(5 * 1024 * 1024, 0x41), fileName: 'a.txt', mimeType: 'text/plain' } } }] });
			expect(error?.message).toBe('The file in "data" is not a PDF');
			expect(api.apiCalls()).toHaveLength(0);
		} finally {
			await useBinaryMode('default');
		}
	});

	describe('bad input', () => {
		it('names the missing binary property and the ones the item has, on the right item', async () => {
			const { error } = await api.run({
				parameters: create(),
				items: [pdfItem(onePage), { files: { attachment: { data: onePage, fileName: 'a.pdf' } } }],
			});
			expect(error?.message).toBe('Item 2 has no binary property "data"');
			expect(error?.description).toContain('attachment');
			expect(error?.context?.itemIndex).toBe(1);
		});

		it('refuses a file that is not a PDF before anything is sent', async () => {
			const { error } = await api.run({ parameters: create(), items: [{ files: { data: { data: Buffer.from('hello'), fileName: 'note.txt', mimeType: 'text/plain' } } }] });
			expect(error?.message).toBe('The file in "data" is not a PDF');
			expect(error?.description).toContain('note.txt');
			expect(api.apiCalls()).toHaveLength(0);
		});

		it.each([
			[{ splitting: { values: { method: 'split_on_phrase', phrase: ' ' } } }, 'Splitting on a phrase needs the phrase'],
			[{ printing: { values: { doubleSided: 'mixed', doubleSidedSpecificPages: '1,x' } } }, 'Mixed double sided printing needs the pages to print double sided'],
			[{ postage: { values: { service: 'uk_first_class', mailDate: 'next tuesday' } } }, '"next tuesday" is not a date'],
			[{ postage: { values: { service: 'uk_first_class', mailDate: '2025-01-15' } } }, 'Mail date 2025-01-15 is in the past'],
			[{ metadata: { entry: [{ key: 'customer', value: '={{ $json.missing }}' }] } }, 'Metadata "customer" has no value'],
			[{ metadata: { entry: [{ key: 'customer', value: '={{ [1, 2] }}' }] } }, '"Metadata → customer" must be text, but got a list ([1,2])'],
			[{ extraDocuments: { document: [{ binaryPropertyName: 'terms', order: 'last' }] } }, 'Item 1 has no binary property "terms"'],
			[{ metadata: { entry: [{ key: 'batch[1]', value: 'x' }] } }, 'Metadata key "batch[1]" has characters Intelliprint cannot store'],
		])('explains a bad setting (%#)', async (options, message) => {
			const { error } = await api.run({ parameters: create({ options }), items: [pdfItem(onePage)] });
			expect(error?.message).toBe(message);
			expect(api.apiCalls()).toHaveLength(0);
		});

		it('refuses a PDF cut short, and names the main PDF first for an item with no files at all; nothing is sent', async () => {
			const cut = await api.run({ parameters: create({}), items: [pdfItem(Buffer.from('%PDF-'), 'cut.pdf')] });
			expect(cut.error?.message).toBe('The PDF in "data" is not complete');
			expect(cut.error?.description).toMatch(/^"cut\.pdf" is 5 bytes and has no end-of-file marker/);
			const none = await api.run({ parameters: create({ options: { extraDocuments: { document: [{ binaryPropertyName: 'terms', order: 'last' }] } } }), items: [{ json: {} }] });
			expect(none.error?.message).toBe('Item 1 has no binary property "data"');
			expect(api.apiCalls()).toHaveLength(0);
		});

		it('gives an error item per failed item with Continue On Fail and carries on', async () => {
			const { items, error } = await api.run({
				parameters: create(),
				continueOnFail: true,
				items: [pdfItem(onePage), { json: { n: 2 } }, pdfItem(onePage)],
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(3);
			expect(items[0].json.id).toMatch(/^print_/);
			expect(items[1].json.error).toBe('Item 2 has no binary property "data"');
			expect(items[1].pairedItem).toEqual({ item: 1 });
			expect(items[2].json.id).toMatch(/^print_/);
			expect(items[2].pairedItem).toEqual({ item: 2 });
		});
	});
});
