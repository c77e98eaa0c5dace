import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cost } from './letters';
import { readPages } from './pdf';
import { SANDBOX, seedSandbox } from './sandbox';
import { startFakeIntelliprint, type FakeIntelliprint } from './server';
import { api } from './wire';

/** Templates (made in the dashboard, named by ID in `template`) filled in per recipient, with the sandbox's two. */
let fake: FakeIntelliprint;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	await seedSandbox(fake);
});
afterAll(async () => fake.stop());

const ann = { address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP' }, variables: { first_name: 'Ann', amount_due: '12.50' } };
const bob = { address: { name: 'Bob Jones', line: '10 Park Avenue\nYork', postcode: 'YO1 7HH' }, variables: { first_name: 'Bob', amount_due: '40.00' } };
const textOf = async (url: string) => (await readPages(Buffer.from(await (await fetch(url)).arrayBuffer()))).map((page) => page.text).join(' ');
const refusal = async (body: object) => (await api(fake, 'POST', '/prints', body)).body.error;

describe('the template store', () => {
	it('makes tmpl_ IDs unless given one, and refuses a second template under the same ID', () => {
		const made = fake.templates.add({ name: 'Notice', content: 'Dear {{first_name}}' });
		expect(made).toEqual({ id: expect.stringMatching(/^tmpl_[a-f0-9]{16}$/), name: 'Notice', content: 'Dear {{first_name}}' });
		expect(() => fake.templates.add({ id: SANDBOX.templates.welcome, name: 'Again', content: 'Hi' })).toThrow(/exists/);
	});

	it('has no endpoint: templates are made in the dashboard', async () => {
		expect((await api(fake, 'GET', '/templates')).status).toBe(404);
	});
});

describe('a template to recipients', () => {
	it('prints each letter from the template, filled in from the recipient, addressed in the window (JSON)', async () => {
		const { status, body } = await api(fake, 'POST', '/prints', { template: SANDBOX.templates.reminder, recipients: [ann, bob] });
		expect(status).toBe(200);
		expect(body).toMatchObject({ type: 'letter', reference: null, file: null, pages: 2, cost: cost(170) });
		expect(body.letters.map((letter) => letter.address)).toEqual([
			{ name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB' },
			{ name: 'Bob Jones', line: '10 Park Avenue\nYork', postcode: 'YO1 7HH', country: 'GB' },
		]);
		const text = await textOf(body.letters[1].pdf);
		for (const expected of ['Bob Jones', 'YO1 7HH', 'Dear Bob,', '£40.00 still due']) expect(text).toContain(expected);
		expect(text).not.toContain('{{');
	});

	it('takes the multipart form the SDK sends', async () => {
		const form = new FormData();
		const fields = {
			template: SANDBOX.templates.welcome, 'recipients[0][address][name]': 'Ann Smith', 'recipients[0][address][line]': '1 High Street, Leeds',
			'recipients[0][address][postcode]': 'LS1 4AP', 'recipients[0][address][country]': 'GB', 'recipients[0][variables][first_name]': 'Ann',
		};
		for (const [key, value] of Object.entries(fields)) form.append(key, value);
		const { body } = await api(fake, 'POST', '/prints', form);
		expect(body.letters.map((letter) => letter.address.name)).toEqual(['Ann Smith']);
		expect(await textOf(body.letters[0].pdf)).toContain('Dear Ann,');
	});

	it('goes to a mailing list, and as postcards', async () => {
		const { body } = await api(fake, 'POST', '/prints', { template: SANDBOX.templates.welcome, mailing_list: SANDBOX.mailingList, type: 'postcard' });
		expect(body).toMatchObject({ type: 'postcard', postage: { ideal_envelope: 'postcard_a6' }, pages: 50, sheets: 25, cost: cost(25 * 55) });
		expect(body.letters[1]).toMatchObject({ pages: 2, envelope: 'postcard_a6', address: { name: 'Bob Member 2' } });
		expect(await textOf(body.letters[1].pdf)).toContain('Dear Bob,');
	});

	it('keeps the content it was made from when the template changes later', async () => {
		const template = fake.templates.add({ name: 'Changing', content: 'First wording for {{first_name}}' });
		const { body } = await api(fake, 'POST', '/prints', { template: template.id, recipients: [ann] });
		template.content = 'Second wording';
		const { body: updated } = await api(fake, 'POST', `/prints/${body.id}`, { recipients: [bob] });
		expect(await textOf(updated.letters[0].pdf)).toContain('First wording for Bob');
	});

	it('refuses an unknown or empty template, a template without recipients, and a template with other content', async () => {
		expect(await refusal({ template: 'tmpl_nope', recipients: [ann] })).toEqual({
			type: 'invalid_request_error', code: 'parameter_invalid', param: 'template', message: 'Invalid value for template: no such template: tmpl_nope.',
		});
		expect(await refusal({ template: ' ', recipients: [ann] })).toMatchObject({ code: 'parameter_invalid', param: 'template', message: 'Invalid value for template: the template ID is empty.' });
		expect(await refusal({ template: SANDBOX.templates.welcome })).toMatchObject({
			code: 'parameter_missing', param: 'recipients', message: "Missing required param: recipients (or 'mailing_list'), to go with 'template'.",
		});
		expect(await refusal({ template: SANDBOX.templates.welcome, content: 'Hi', recipients: [ann] })).toMatchObject({
			code: 'parameter_invalid', param: 'template', message: "Invalid value for template: give only one of 'file', 'content' or 'template', not 'content' and 'template'.",
		});
		const withFile = await refusal({ template: SANDBOX.templates.welcome, file: { content: 'JVBERi0=', name: 'a.pdf' }, recipients: [ann] });
		expect(withFile).toMatchObject({ code: 'parameter_invalid', param: 'template', message: expect.stringContaining("not 'file' and 'template'") });
		expect(await refusal({ template: SANDBOX.templates.welcome, recipients: [ann], splitting: { method: 'split_on_pages', pages: 1 } })).toMatchObject({ param: 'splitting.method' });
	});

	it('lets a draft change its recipients or mailing list, but not its content', async () => {
		const { body } = await api(fake, 'POST', '/prints', { template: SANDBOX.templates.reminder, recipients: [ann] });
		const changed = await api(fake, 'POST', `/prints/${body.id}`, { recipients: [bob, ann] });
		expect(changed.body.letters.map((letter) => letter.address.name)).toEqual(['Bob Jones', 'Ann Smith']);
		expect(await textOf(changed.body.letters[0].pdf)).toContain('£40.00 still due');
		expect((await api(fake, 'POST', `/prints/${body.id}`, { mailing_list: SANDBOX.mailingList })).body.letters).toHaveLength(25);
		expect((await api(fake, 'POST', `/prints/${body.id}`, { content: 'Hi' })).body.error).toMatchObject({
			code: 'parameter_invalid', param: 'content', message: 'Invalid value for content: this print job was made from a template, so it has no content to change.',
		});
	});
});
