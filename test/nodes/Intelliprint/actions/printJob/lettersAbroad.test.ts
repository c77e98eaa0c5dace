import { beforeAll, describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { simplePdf } from '../../../../helpers/pdfs';

/**
 * Postage by destination (docs/letters-abroad.md): UK rows (Crown dependencies and BFPO too) go by the chosen service,
 * rows abroad International, one print job per service; Postage Abroad can refuse them instead; postcards go by UK
 * services only. The fake refuses a service that cannot carry a letter where it goes, so a wrong pair would fail here.
 */
const api = useFakeApi();
const pdfItem = (data: Buffer) => ({ files: { data: { data, fileName: 'letters.pdf' } } });
let onePage: Buffer;
beforeAll(async () => {
	onePage = await simplePdf(1);
});

const rows = [
	{ name: 'Ann Leeds', address: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB' },
	{ name: 'Bea Paris', address: '5 Rue de la Paix\nParis', postcode: '75002', country: 'France' },
	{ name: 'Cy Jersey', address: '2 Quay Street\nSt Helier', postcode: 'JE2 3AB', country: 'Jersey' },
	{ name: 'Di Forces', address: 'Sgt D Smith\nHQ Company', postcode: 'BFPO 61', country: 'GB' },
	{ name: 'Ed Boston', address: '1 Main Street\nBoston MA', postcode: '02110', country: 'US' },
	{ name: 'Flo Kowloon', address: '8 Nathan Road\nKowloon', postcode: '', country: 'Hong Kong' },
];
const items = rows.map((json) => ({ json }));
const mapping = { recipientFields: { mappingMode: 'autoMapInputData', value: null } };
const mailRun = (extra: Record<string, unknown> = {}) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', ...mapping, variables: 'none', testmode: true, confirmed: false, ...extra,
});
const UK = [0, 2, 3];
const ABROAD = [1, 4, 5];
const jobsMade = () => api.fake.createdPrintJobs();
const namesOf = (job: { letters: Array<{ address: { name: string | null } }> }) => job.letters.map((letter) => letter.address.name);

describe('letters abroad: postage by destination', () => {
	it('a mixed mail run becomes one print job per service, each paired with its rows and priced for its service', async () => {
		const before = jobsMade().length;
		const { items: out, error } = await api.run({ typeVersion: 1.2, parameters: mailRun({ options: { postage: { values: { service: 'uk_first_class' } } } }), items });
		expect(error).toBeUndefined();
		const jobs = jobsMade().slice(before);
		expect(jobs.map((job) => job.postage?.service)).toEqual(['uk_first_class', 'international']);
		expect(jobs.map(namesOf)).toEqual([UK.map((i) => rows[i].name), ABROAD.map((i) => rows[i].name)]);
		expect(jobs[1].letters.map((letter) => letter.address.country)).toEqual(['FR', 'US', 'HK']);
		// The fake's prices (ours): first class 105p a letter, international 220p.
		expect(out.map((item) => item.json.cost_pence)).toEqual([315, 660]);
		expect(out.map((item) => (Array.isArray(item.pairedItem) ? item.pairedItem.map((paired) => paired.item) : []))).toEqual([UK, ABROAD]);
	});

	it('under Skip Items Already Sent each service\'s job is sent once: a rerun sends nothing, and a new row abroad only itself', async () => {
		const parameters = mailRun({ options: { sentKey: 'abroad-run-1' } });
		const before = jobsMade().length;
		await api.run({ typeVersion: 1.2, parameters, items });
		expect(jobsMade().length - before).toBe(2);
		const again = await api.run({ typeVersion: 1.2, parameters, items });
		expect(jobsMade().length - before).toBe(2);
		expect(again.items.every((item) => item.json.already_sent === true)).toBe(true);
		const more = [...items, { json: { name: 'Gus Berlin', address: 'Unter den Linden 1\nBerlin', postcode: '10117', country: 'DE' } }];
		await api.run({ typeVersion: 1.2, parameters, items: more });
		const made = jobsMade().slice(before + 2);
		expect(made.map((job) => [job.postage?.service, namesOf(job)])).toEqual([['international', ['Gus Berlin']]]);
	});

	it('both jobs go through the spending gate: live, under a daily limit, each confirmed within it', async () => {
		const before = jobsMade().length;
		const { error } = await api.run({ typeVersion: 1.2, parameters: mailRun({ testmode: false, confirmed: true }), items, credentials: { dailySpendingLimit: 100 } });
		expect(error).toBeUndefined();
		const jobs = jobsMade().slice(before);
		expect(jobs.map((job) => [job.postage?.service, job.confirmed])).toEqual([['uk_second_class', true], ['international', true]]);
	});

	it('Postage Abroad: Refuse the Row puts each row abroad on the error output, naming its country, and sends the UK rows', async () => {
		const before = jobsMade().length;
		const { items: out, errorOutput } = await api.run({ typeVersion: 1.2, onError: 'continueErrorOutput', parameters: mailRun({ options: { postage: { values: { postageAbroad: 'refuse' } } } }), items });
		expect(jobsMade().slice(before).map(namesOf)).toEqual([UK.map((i) => rows[i].name)]);
		expect(out).toHaveLength(1);
		expect(errorOutput.map((item) => item.json.error)).toEqual([
			'The address is in France (FR), and Postage Abroad is set to refuse letters abroad (row 2)',
			'The address is in the United States (US), and Postage Abroad is set to refuse letters abroad (row 5)',
			'The address is in Hong Kong (HK), and Postage Abroad is set to refuse letters abroad (row 6)',
		]);
	});

	it('a postcard abroad is refused before anything is sent; the UK ones go', async () => {
		const before = jobsMade().length;
		const { errorOutput } = await api.run({ typeVersion: 1.2, onError: 'continueErrorOutput', parameters: mailRun({ type: 'postcard' }), items });
		expect(jobsMade().slice(before).map((job) => [job.type, namesOf(job)])).toEqual([['postcard', UK.map((i) => rows[i].name)]]);
		expect(String(errorOutput[0].json.error)).toBe("A postcard to France (FR) cannot be sent: Intelliprint's postcards go by UK services only (row 2)");
		expect(JSON.stringify(errorOutput[0].json)).toContain('Send it as a letter');
	});

	it('International chosen as the service refuses a row in the UK, with the fix', async () => {
		const { error } = await api.run({ typeVersion: 1.2, parameters: mailRun({ options: { postage: { values: { service: 'international' } } } }), items: items.slice(0, 2) });
		expect(error?.message).toBe('The address is in the United Kingdom (GB), and the service chosen is International, which is for letters abroad (row 1)');
		expect(error?.description).toContain('Choose a UK service');
		expect(api.apiCalls()).toEqual([]);
	});

	it('one print job per item: each item goes by the service its own country needs', async () => {
		const before = jobsMade().length;
		const { error } = await api.run({ typeVersion: 1.2, parameters: mailRun({ recipientsFrom: 'eachItem' }), items: items.slice(0, 3) });
		expect(error).toBeUndefined();
		expect(jobsMade().slice(before).map((job) => job.postage?.service)).toEqual(['uk_second_class', 'international', 'uk_second_class']);
	});

	it('a mailing list abroad goes International; one that mixes the UK and abroad is refused before anything is made', async () => {
		const member = (i: number) => ({ address: { name: rows[i].name, line: rows[i].address, postcode: rows[i].postcode, country: { France: 'FR', Jersey: 'JE', 'Hong Kong': 'HK' }[rows[i].country] ?? rows[i].country }, variables: {} });
		const abroad = api.fake.mailingLists.create({ name: 'Abroad', recipients: ABROAD.map(member) }).id;
		const mixed = api.fake.mailingLists.create({ name: 'Mixed', recipients: [0, 1, 2].map(member) }).id;
		const toList = (id: string) => mailRun({ recipientsFrom: 'mailingList', mailingList: { __rl: true, mode: 'id', value: id } });
		const before = jobsMade().length;
		expect((await api.run({ typeVersion: 1.2, parameters: toList(abroad), items: items.slice(0, 1) })).error).toBeUndefined();
		expect(jobsMade().slice(before).map((job) => job.postage?.service)).toEqual(['international']);
		const posted = api.apiCalls().filter((call) => call.method === 'POST').length;
		const { error } = await api.run({ typeVersion: 1.2, parameters: toList(mixed), items: items.slice(0, 1) });
		expect(error?.message).toBe(`Mailing list ${mixed} holds recipients in the UK and 1 abroad (France (FR))`);
		expect(error?.description).toContain('Recipients: All Input Items makes one print job per service');
		expect(api.apiCalls().filter((call) => call.method === 'POST')).toHaveLength(posted);
	});

	it('a PDF that carries its own addresses is confirmed on create, one request: its answer is held to the service after', async () => {
		const pdf = (extra: Record<string, unknown>) => ({ resource: 'printJob', operation: 'create', binaryPropertyName: 'data', testmode: true, confirmed: true, ...extra });
		const good = await api.run({ parameters: pdf({}), items: [pdfItem(onePage)] });
		expect(good.items[0].json.confirmed).toBe(true);
		expect(api.apiCalls().map((call) => `${call.method} ${call.body?.confirmed ?? ''}`)).toEqual(['POST true']);
		// The fake reads these letters as in the UK: International cannot carry them, and the draft is not confirmed.
		const wrong = await api.run({ parameters: pdf({ options: { postage: { values: { service: 'international' } } } }), items: [pdfItem(onePage)] });
		expect(wrong.error).toBeDefined();
	});
});

describe('an answer whose letters its service cannot carry: a draft never confirmed, a confirmed job cancelled at once', () => {
	const pdf = (extra: Record<string, unknown>) => ({ resource: 'printJob', operation: 'create', binaryPropertyName: 'data', testmode: true, confirmed: true, ...extra });
	const keyed = (service: string) => pdf({ options: { sentKey: 'pdf-misfit-1', postage: { values: { service } } } });
	const jobsOfKey = () => jobsMade().filter((job) => job.metadata.n8n_sent_key === 'pdf-misfit-1');

	it('a PDF confirmed on create whose letter misfits is cancelled at once and refunded; the advice followed (send again with the right service) sends it once', async () => {
		// An API that takes any service: the PDF's letters (read as in the UK) are made on International.
		api.fake.anyService = true;
		try {
			api.fake.resetRecording();
			const first = await api.run({ parameters: keyed('international'), items: [pdfItem(onePage)] });
			const [made] = jobsOfKey();
			expect(first.error?.message).toBe(`Print job ${made.id} has 1 letter(s) on a service that cannot carry them: ${made.letters[0].id} to the United Kingdom (GB) goes by international`);
			expect(first.error?.description).toContain('It was cancelled at once, and its letters refunded: none goes out.');
			expect(made.letters.map((letter) => letter.status)).toEqual(['cancelled']);
			expect(api.apiCalls().filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.body?.confirmed ?? ''}`)).toEqual(['POST true', 'DELETE ']);
			// "Send it again with the service that carries them": the cancelled job no longer counts under the key.
			const sent = await api.run({ parameters: keyed('uk_second_class'), items: [pdfItem(onePage)] });
			expect(sent.error).toBeUndefined();
			const live = jobsOfKey().filter((job) => job.letters.some((letter) => letter.status !== 'cancelled'));
			expect(live.map((job) => [job.postage?.service, job.confirmed])).toEqual([['uk_second_class', true]]);
		} finally {
			api.fake.anyService = false;
		}
	});

	it('a draft (Confirm off) whose letter misfits stays a draft, and a rerun with Confirm on does not confirm it', async () => {
		api.fake.anyService = true;
		try {
			const draftOf = (confirmed: boolean) => ({ ...keyed('international'), confirmed, options: { sentKey: 'pdf-misfit-2', postage: { values: { service: 'international' } } } });
			const first = await api.run({ parameters: draftOf(false), items: [pdfItem(onePage)] });
			expect(first.error?.description).toContain('It was kept as a draft and not confirmed');
			const again = await api.run({ parameters: draftOf(true), items: [pdfItem(onePage)] });
			expect(again.error?.message).toBe(first.error?.message);
			expect(jobsMade().filter((job) => job.metadata.n8n_sent_key === 'pdf-misfit-2').map((job) => job.confirmed)).toEqual([false]);
		} finally {
			api.fake.anyService = false;
		}
	});

	it('a Postage Abroad that is not a choice (from an expression) refuses its own item, and the others go', async () => {
		const mixed = [{ json: { ...rows[1], abroad: 'international' } }, { json: { ...rows[4], abroad: 'Refuse please' } }];
		const parameters = mailRun({ recipientsFrom: 'eachItem', options: { postage: { values: { postageAbroad: '={{ $json.abroad }}' } } } });
		const { items: out, errorOutput } = await api.run({ typeVersion: 1.2, onError: 'continueErrorOutput', parameters, items: mixed });
		expect(out).toHaveLength(1);
		expect(errorOutput.map((item) => [item.json.error, item.pairedItem])).toEqual([['"Refuse please" is not a choice of Postage Abroad', { item: 1 }]]);
	});
});

describe('Print Job → Update holds a new service to the draft\'s letters', () => {
	it('refuses a UK service for a draft abroad before anything is changed, and takes another service that fits', async () => {
		const before = jobsMade().length;
		await api.run({ typeVersion: 1.2, parameters: mailRun(), items: items.slice(1, 2) });
		const [draft] = jobsMade().slice(before);
		const update = (service: string) => api.run({ parameters: { resource: 'printJob', operation: 'update', printJob: { __rl: true, mode: 'id', value: draft.id }, updateFields: { postageService: service } }, items: [{ json: {} }] });
		const refused = await update('uk_first_class');
		expect(refused.error?.message).toBe(`Service uk_first_class cannot carry 1 of print job ${draft.id}'s letters (to France (FR))`);
		expect(refused.error?.description).toContain('Nothing was changed');
		expect(api.fake.createdPrintJobs().find((job) => job.id === draft.id)?.postage?.service).toBe('international');
		expect((await update('international')).error).toBeUndefined();
	});
});

describe('Address → Check says which service each row goes by', () => {
	it('uk service for the UK, Jersey and BFPO; international abroad; refused under Refuse the Row or as a postcard', async () => {
		const check = (extra: Record<string, unknown> = {}) => api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check', ...mapping, ...extra }, items });
		expect((await check({ options: { postage: { values: { service: 'uk_first_class' } } } })).items.map((item) => item.json.postage_service)).toEqual([
			'uk_first_class', 'international', 'uk_first_class', 'uk_first_class', 'international', 'international',
		]);
		const refused = (await check({ options: { postage: { values: { postageAbroad: 'refuse' } } } })).items;
		expect(refused.map((item) => [item.json.address_ok, item.json.postage_service, item.json.address_field])).toEqual([
			[true, 'uk_second_class', ''], [false, '', 'country'], [true, 'uk_second_class', ''], [true, 'uk_second_class', ''], [false, '', 'country'], [false, '', 'country'],
		]);
		// A row abroad without the postcode its country requires is told so in that country's terms (was "Item 2 has no postcode").
		const noPostcode = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check', ...mapping }, items: [{ json: { ...rows[1], postcode: '' } }] });
		expect(noPostcode.items[0].json).toMatchObject({ address_ok: false, address_field: 'postcode', address_problem: 'A letter to France (FR) needs a postcode' });
		expect(String(noPostcode.items[0].json.address_fix)).toContain('Postcodes of France (FR) are like 33380');
		const postcards = (await check({ type: 'postcard' })).items;
		expect(postcards.map((item) => item.json.address_ok)).toEqual([true, false, true, true, false, false]);
		expect(api.apiCalls()).toEqual([]);
	});
});
