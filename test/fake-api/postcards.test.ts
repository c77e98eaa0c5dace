import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { simplePdf } from '../helpers/pdfs';
import { cost } from './letters';
import { MM } from './pdf';
import { startFakeIntelliprint, type FakeIntelliprint } from './server';
import { api } from './wire';

let fake: FakeIntelliprint;
let twoPages: Buffer;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	twoPages = await simplePdf(2);
});
afterAll(async () => fake.stop());

const ann = { address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP' }, variables: { first_name: 'Ann' } };
const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
function form(fields: Record<string, string>, file: Buffer = twoPages) {
	const data = new FormData();
	data.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), 'card.pdf');
	for (const [key, value] of Object.entries(fields)) data.append(key, value);
	return data;
}

describe('postcards', () => {
	it('makes A6 postcards from content by default: two sides on one card, priced as postcards', async () => {
		const { body } = await api(fake, 'POST', '/prints', { type: 'postcard', content: 'Greetings {{first_name}}!', recipients: [ann, ann] });
		expect(body).toMatchObject({ type: 'postcard', postage: { ideal_envelope: 'postcard_a6' }, printing: { matt_finish: false }, pages: 4, sheets: 2, cost: cost(110) });
		expect(body.printing).not.toHaveProperty('black_and_white');
		expect(body.letters[0]).toMatchObject({ pages: 2, sheets: 1, envelope: 'postcard_a6', cost: cost(55), address: { name: 'Ann Smith' } });
		const card = await PDFDocument.load(await download(body.letters[0].pdf));
		expect(card.getPageCount()).toBe(2);
		expect(card.getPage(0).getWidth() / MM).toBeCloseTo(148, 0);
		expect(card.getPage(0).getHeight() / MM).toBeCloseTo(105, 0);
	});

	it('prices A5, first class and a matt finish, and refuses content too long for the card', async () => {
		const { body } = await api(fake, 'POST', '/prints', {
			type: 'postcard', content: 'Hi', recipients: [ann], printing: { matt_finish: true }, postage: { ideal_envelope: 'postcard_a5', service: 'uk_first_class' },
		});
		expect(body.letters[0]).toMatchObject({ envelope: 'postcard_a5', cost: cost(70 + 20 + 5) });
		const long = `<p>${'A long message that will not fit. '.repeat(200)}</p>`;
		expect((await api(fake, 'POST', '/prints', { type: 'postcard', content: long, recipients: [ann] })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'content' });
	});

	it('takes postcards from a file, one or two pages each', async () => {
		const { body } = await api(fake, 'POST', '/prints', form({ type: 'postcard', 'splitting[method]': 'split_on_pages', 'splitting[pages]': '2' }, await simplePdf(4)));
		expect(body.letters.map((letter) => [letter.pages, letter.sheets, letter.envelope])).toEqual([[2, 1, 'postcard_a6'], [2, 1, 'postcard_a6']]);
		expect((await api(fake, 'POST', '/prints', form({ type: 'postcard' }, await simplePdf(3)))).body.error).toMatchObject({ code: 'parameter_invalid', param: 'file' });
	});

	it('refuses letter-only settings on a postcard, naming each', async () => {
		const cases: Array<[Record<string, string>, string]> = [
			[{ 'printing[double_sided]': 'yes' }, 'printing.double_sided'],
			[{ 'printing[double_sided_specific_pages][0]': '1' }, 'printing.double_sided_specific_pages'],
			[{ 'printing[black_and_white]': 'true' }, 'printing.black_and_white'],
			[{ 'background[first_page]': 'bg_x' }, 'background.first_page'],
			[{ 'background[other_pages]': 'bg_x' }, 'background.other_pages'],
			[{ 'postage[ideal_envelope]': 'c4' }, 'postage.ideal_envelope'],
		];
		for (const [fields, param] of cases) {
			expect((await api(fake, 'POST', '/prints', form({ type: 'postcard', ...fields }))).body.error, param).toMatchObject({ code: 'parameter_invalid', param });
		}
		const extra = form({ type: 'postcard' });
		extra.append('extra_documents[0][document]', new Blob([new Uint8Array(twoPages)], { type: 'application/pdf' }), 'terms.pdf');
		expect((await api(fake, 'POST', '/prints', extra)).body.error).toMatchObject({ code: 'parameter_invalid', param: 'extra_documents' });
	});

	it('refuses postcard settings on a letter, and unknown types', async () => {
		expect((await api(fake, 'POST', '/prints', form({ 'postage[ideal_envelope]': 'postcard_a5' }))).body.error).toMatchObject({ code: 'parameter_invalid', param: 'postage.ideal_envelope' });
		expect((await api(fake, 'POST', '/prints', form({ 'printing[matt_finish]': 'true' }))).body.error).toMatchObject({ code: 'parameter_invalid', param: 'printing.matt_finish' });
		expect((await api(fake, 'POST', '/prints', form({ type: 'card' }))).body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
		expect((await api(fake, 'POST', '/prints', form({ 'printing[matt_finsh]': 'true' }))).body.error).toMatchObject({ code: 'parameter_unknown', message: expect.stringContaining('Did you mean printing.matt_finish?') });
	});

	it('shows letter settings on letters: black and white, address window', async () => {
		const { body: plain } = await api(fake, 'POST', '/prints', form({}));
		expect(plain).toMatchObject({ type: 'letter', address_window: 'left', printing: { black_and_white: false }, postage: { ideal_envelope: 'c5' } });
		const { body } = await api(fake, 'POST', '/prints', form({ 'printing[black_and_white]': 'true', address_window: 'right' }));
		expect(body).toMatchObject({ address_window: 'right', printing: { black_and_white: true } });
		expect((await api(fake, 'POST', '/prints', form({ address_window: 'middle' }))).body.error).toMatchObject({ code: 'parameter_invalid', param: 'address_window' });
	});

	it('turns a draft letter into a postcard on update; a setting that does not fit refuses it and keeps the job', async () => {
		const { body: job } = await api(fake, 'POST', '/prints', form({}));
		const { body: card } = await api(fake, 'POST', `/prints/${job.id}`, { type: 'postcard' });
		expect(card).toMatchObject({ type: 'postcard', postage: { ideal_envelope: 'postcard_a6' }, pages: 2, sheets: 1, printing: { matt_finish: false } });
		const { body: back } = await api(fake, 'POST', `/prints/${job.id}`, { type: 'letter' });
		expect(back).toMatchObject({ type: 'letter', postage: { ideal_envelope: 'c5' }, printing: { black_and_white: false }, pages: 2, sheets: 2 });
		await api(fake, 'POST', `/prints/${job.id}`, { printing: { double_sided: 'yes' } });
		const refused = await api(fake, 'POST', `/prints/${job.id}`, { type: 'postcard' });
		expect(refused.body.error).toMatchObject({ param: 'printing.double_sided' });
		expect((await api(fake, 'GET', `/prints/${job.id}`)).body).toMatchObject({ type: 'letter', printing: { double_sided: 'yes' }, postage: { ideal_envelope: 'c5' } });
		expect((await api(fake, 'POST', `/prints/${job.id}`, { type: 'postcard', printing: { double_sided: 'no' } })).body.type).toBe('postcard');
	});
});

describe('/prints list filters', () => {
	it('filters on type and on letters.returned.acknowledged, and refuses other values', async () => {
		const lister = await startFakeIntelliprint({ rateLimit: false });
		try {
			const [letter] = lister.prints.seed(1, { reference: 'letter' });
			lister.prints.seed(1, { reference: 'card', type: 'postcard' });
			const [acknowledged, open] = lister.prints.seed(2, { type: 'letter', confirmed: true });
			lister.prints.setLetterStatus(acknowledged.letters[0].id, 'returned', { returned: { date: 1_700_000_000, reason: 'moved away', acknowledged: true } });
			lister.prints.setLetterStatus(open.letters[0].id, 'returned', { returned: { date: 1_700_000_100, reason: 'addressee unknown', acknowledged: false } });
			const ids = async (query: string) => (await api(lister, 'GET', `/prints?${query}`)).body.data.map((job) => job.id);
			expect(await ids('type=postcard')).toHaveLength(1);
			expect(await ids('type=letter')).toEqual(expect.arrayContaining([letter.id, acknowledged.id, open.id]));
			expect(await ids('type=letter')).toHaveLength(3);
			expect(await ids('letters.returned.acknowledged=true')).toEqual([acknowledged.id]);
			expect(await ids('letters.returned.acknowledged=false')).toEqual([open.id]);
			expect(await ids('letters.returned.acknowledged=false&type=postcard')).toEqual([]);
			expect(await ids('reference=card&type=postcard')).toHaveLength(1);
			expect((await api(lister, 'GET', '/prints?type=letters')).body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
			expect((await api(lister, 'GET', '/prints?letters.returned.acknowledged=yes')).body.error).toMatchObject({ code: 'parameter_invalid', param: 'letters.returned.acknowledged' });
		} finally {
			await lister.stop();
		}
	});
});
