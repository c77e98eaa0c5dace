import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { simplePdf } from '../../../../helpers/pdfs';

const api = useFakeApi();

const rows = (count: number, from = 1) =>
	Array.from({ length: count }, (_, i) => ({
		json: { name: `Customer ${from + i}`, address: `${from + i} High Street\nLeeds`, postcode: 'LS1 4AP', first_name: `C${from + i}`, amount_due: 10 + i, notes: { nested: true } },
	}));
const content = '<p>Dear {{first_name}},</p><p>You owe £{{amount_due}}.</p>';
const fromContent = (extra: Record<string, unknown> = {}) => ({
	resource: 'printJob', operation: 'create', source: 'content', content, testmode: true, ...extra,
});
const postedJobs = () => api.fake.createdPrintJobs();

describe('Print Job → Create from content', () => {
	it('turns all input items into one print job with a letter each, paired with its row', async () => {
		const before = postedJobs().length;
		const { items, error } = await api.run({ parameters: fromContent({ output: 'letters' }), items: rows(5) });
		expect(error).toBeUndefined();
		expect(postedJobs()).toHaveLength(before + 1);
		expect(items).toHaveLength(5);
		expect(items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(items.map((item) => item.json.name)).toEqual(rows(5).map((row) => row.json.name));
		const [call] = api.apiCalls();
		expect(call.body).toMatchObject({
			content,
			recipients: expect.arrayContaining([
				{ address: { name: 'Customer 1', line: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB' }, variables: { name: 'Customer 1', address: '1 High Street\nLeeds', postcode: 'LS1 4AP', first_name: 'C1', amount_due: '10' } },
			]),
		});
	});

	it('sends a mail run as JSON (no file part): a fifth of its multipart size', async () => {
		await api.run({ parameters: fromContent(), items: rows(3) });
		const [call] = api.apiCalls();
		expect(call.contentType).toBe('application/json');
		expect(call.body).toMatchObject({ testmode: true, recipients: [{ variables: { amount_due: '10' } }, {}, {}] });
	});

	it('the job item of a mail run pairs with every row', async () => {
		const { items } = await api.run({ parameters: fromContent(), items: rows(3) });
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ letter_count: 3, testmode: true });
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('makes one print job per item when asked', async () => {
		const before = postedJobs().length;
		const { items } = await api.run({ parameters: fromContent({ recipientsFrom: 'eachItem' }), items: rows(3) });
		expect(postedJobs()).toHaveLength(before + 3);
		expect(items.map((item) => item.json.letter_count)).toEqual([1, 1, 1]);
	});

	it('maps separate address fields, a UK country and chosen variables', async () => {
		const { error } = await api.run({
			parameters: fromContent({
				recipientName: '={{ $json.full_name }}', recipientAddress: '={{ [$json.street, $json.flat, $json.town] }}', recipientPostcode: '={{ $json.zip }}',
				recipientCountry: '={{ $json.nation }}', variables: 'chosen', variableFields: 'first_name',
			}),
			items: [{ json: { full_name: 'Ada Lovelace', street: '12 St James Square', flat: '', town: 'London', zip: 'SW1Y 4JH', nation: 'uk', first_name: 'Ada', secret: 'x' } }],
		});
		expect(error).toBeUndefined();
		expect(api.apiCalls()[0].body.recipients).toEqual([
			{ address: { name: 'Ada Lovelace', line: '12 St James Square\nLondon', postcode: 'SW1Y 4JH', country: 'GB' }, variables: { first_name: 'Ada' } },
		]);
	});

	it('refuses a row without a postcode on that item before anything is sent', async () => {
		const batch = rows(3);
		delete (batch[1].json as Record<string, unknown>).postcode;
		const { error } = await api.run({ parameters: fromContent(), items: batch });
		expect(error?.message).toBe('Item 2 has no postcode for its letter');
		expect(error?.context?.itemIndex).toBe(1);
		expect(error?.description).toContain('it has: name, address');
		expect(api.apiCalls()).toHaveLength(0);
	});

	it('with Continue On Fail the good rows still go out in one job and the bad ones come out as errors', async () => {
		const batch = rows(4);
		(batch[2].json as Record<string, unknown>).name = '';
		const { items } = await api.run({ parameters: fromContent({ output: 'letters' }), items: batch, continueOnFail: true });
		expect(api.apiCalls()).toHaveLength(1);
		expect(items.filter((item) => !item.json.error).map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 3 }]);
		expect(items.find((item) => item.json.error)).toMatchObject({ json: { error: 'Item 3 has no name for its letter' }, pairedItem: { item: 2 } });
	});

	describe('every row of a mail run gets its outcome (100 rows, 3 of them unpostable)', () => {
		const awkward = () => {
			const batch = rows(100);
			(batch[4].json as Record<string, unknown>).postcode = '';
			(batch[41].json as Record<string, unknown>).address = '   \nDouglas';
			(batch[87].json as Record<string, unknown>).country = 'Atlantis';
			return batch;
		};
		const pairedRow = (item: { pairedItem?: unknown }) => (item.pairedItem as { item: number }).item;

		it('with the run refused by the API: 3 row errors and 97 rows paired with the run\'s error, in row order', async () => {
			api.fake.faults.push({ method: 'POST', path: /\/prints$/, status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Invalid value for content.', param: 'content' } });
			const before = postedJobs().length;
			const { items, error } = await api.run({ parameters: fromContent(), items: awkward(), continueOnFail: true });
			expect(error).toBeUndefined();
			expect(items).toHaveLength(100);
			expect(items.map(pairedRow)).toEqual(Array.from({ length: 100 }, (_, row) => row));
			const rowErrors = items.filter((item) => !String(item.json.error).startsWith('Intelliprint refused'));
			expect(rowErrors.map((item) => [pairedRow(item), item.json.error])).toEqual([
				[4, 'Item 5 has no postcode for its letter'],
				[41, "Item 42's first address line is blank"],
				[87, 'Country "Atlantis" is not a country Intelliprint knows (row 88)'],
			]);
			expect(postedJobs()).toHaveLength(before);
		});

		it('with the run going out: 97 letters in one job and the 3 row errors', async () => {
			const { items } = await api.run({ parameters: fromContent({ output: 'letters' }), items: awkward(), continueOnFail: true });
			expect(items.filter((item) => !item.json.error)).toHaveLength(97);
			expect(items.filter((item) => item.json.error).map(pairedRow)).toEqual([4, 41, 87]);
			expect(postedJobs().at(-1)?.letters).toHaveLength(97);
		});

		it('without Continue On Fail, a refused run names the rows it concerns', async () => {
			api.fake.faults.push({ method: 'POST', path: /\/prints$/, status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Invalid value for content.', param: 'content' } });
			const { error } = await api.run({ parameters: fromContent(), items: rows(100) });
			expect(error?.description).toContain('This concerns the letters of items 1 to 100.');
		});
	});

	it('makes a print job from a PDF at a URL', async () => {
		const url = api.fake.publish('from-url.pdf', await simplePdf(2));
		const { items, error } = await api.run({ parameters: { resource: 'printJob', operation: 'create', source: 'url', fileUrl: url, testmode: true, simplify: false } });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ pages: 2 });
		expect(api.apiCalls()[0].body).toMatchObject({ file: { url } });
	});

	it('refuses a URL that is not http(s) on the item', async () => {
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'create', source: 'url', fileUrl: 'ftp://example.com/a.pdf' } });
		expect(error?.message).toBe('"ftp://example.com/a.pdf" is not a link Intelliprint can fetch');
		expect(api.apiCalls()).toHaveLength(0);
	});

	it('makes postcards without letter-only settings', async () => {
		const { items, error } = await api.run({
			parameters: fromContent({ type: 'postcard', simplify: false, options: { postcardSize: 'postcard_a5', mattFinish: true, printing: { values: { doubleSided: 'no', premiumQuality: false } }, postage: { values: { service: 'uk_first_class', idealEnvelope: 'c5' } } } }),
			items: rows(1),
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ type: 'postcard' });
		const body = api.apiCalls()[0].body;
		expect(body).toMatchObject({ type: 'postcard', postage: { service: 'uk_first_class', ideal_envelope: 'postcard_a5' }, printing: { matt_finish: true } });
		expect((body.printing as Record<string, unknown>).double_sided).toBeUndefined();
	});
});
