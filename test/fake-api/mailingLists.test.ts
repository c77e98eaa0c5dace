import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { Receiver } from './receiver';
import { newSigningSecret, startFakeIntelliprint, type FakeIntelliprint } from './server';
import { api, eventually, type Answer } from './wire';

let fake: FakeIntelliprint;
let receiver: Receiver;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	receiver = await new Receiver().start();
});
afterAll(async () => {
	await fake.stop();
	await receiver.stop();
});
afterEach(() => {
	receiver.received.length = 0;
	receiver.status = 200;
});

const ann = { address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP' }, variables: { first_name: 'Ann', plan: 'gold' } };
const bob = { address: { name: 'Bob Jones', line: '10 Park Avenue, York', postcode: 'YO1 7HH' }, variables: { first_name: 'Bob', visits: 3 } };
const nowhere = { address: { name: 'Cy Nowhere', line: 'Somewhere', postcode: 'NOPE' }, variables: {} };
const recipientsOf = async (id: string, query = '') => (await api(fake, 'GET', `/mailing_lists/${id}/recipients?${query}`)).body.data;

describe('mailing lists', () => {
	it('creates, gets, renames and deletes a list; counts and names come from its recipients', async () => {
		const { body: list } = await api(fake, 'POST', '/mailing_lists', { name: 'Winter customers', recipients: [ann, bob] });
		expect(list).toEqual({
			id: expect.stringMatching(/^mal_/), object: 'mailing_list', account: 'acc_fake', name: 'Winter customers', recipients: 2,
			variables: ['first_name', 'plan', 'visits'], longest_address_line: '10 Park Avenue'.length,
			address_validation: { requested: false, completed: false, recipients: { passed: 0, failed: 0 } }, created: expect.any(Number),
		});
		expect((await api(fake, 'GET', `/mailing_lists/${list.id}`)).body).toEqual(list);
		expect((await api(fake, 'POST', `/mailing_lists/${list.id}`, { name: 'Spring customers' })).body).toMatchObject({ name: 'Spring customers', recipients: 2 });
		const [first] = await recipientsOf(list.id, 'sort_order=asc');
		expect(first).toEqual({
			id: expect.stringMatching(/^mlr_/), object: 'mailing_list_recipient', mailing_list: list.id, account: 'acc_fake',
			address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB' }, variables: { first_name: 'Ann', plan: 'gold' },
			address_validation_status: 'not_requested', created: expect.any(Number),
		});
		expect((await api(fake, 'DELETE', `/mailing_lists/${list.id}`)).body).toEqual({ id: list.id, object: 'mailing_list', deleted: true });
		expect((await api(fake, 'GET', `/mailing_lists/${list.id}`)).status).toBe(404);
		expect((await api(fake, 'GET', `/mailing_lists/${list.id}/recipients/${first.id}`)).body.error).toMatchObject({ code: 'not_found' });
	});

	it('reads form bodies with bracket keys, and refuses bad ones strictly', async () => {
		const form = new URLSearchParams({ name: 'Form list', 'recipients[0][address][name]': 'Ann', 'recipients[0][address][line]': '1 High Street', 'recipients[0][address][postcode]': 'LS1 4AP', 'recipients[0][variables][n]': '7', 'address_validation[requested]': 'false' });
		expect((await api(fake, 'POST', '/mailing_lists', form)).body).toMatchObject({ name: 'Form list', recipients: 1, variables: ['n'] });
		const refused = async (body: unknown) => (await api(fake, 'POST', '/mailing_lists', body)).body.error;
		expect(await refused({ recipients: [ann] })).toMatchObject({ code: 'parameter_missing', param: 'name' });
		expect(await refused({ name: 'x', recipient: [ann] })).toMatchObject({ code: 'parameter_unknown', message: 'Received unknown parameter: recipient (Did you mean recipients?)' });
		expect(await refused({ name: 'x', recipients: [ann, { address: { name: 'B', line: 'x' } }] })).toMatchObject({ code: 'parameter_missing', param: 'recipients.1.address.postcode' });
		expect(await refused({ name: 'x', address_validation: { requested: 'maybe' } })).toMatchObject({ code: 'parameter_invalid', param: 'address_validation.requested' });
		const { body: list } = await api(fake, 'POST', '/mailing_lists', { name: 'x' });
		expect((await api(fake, 'POST', `/mailing_lists/${list.id}`, { delete_old_recipient: true })).body.error).toMatchObject({ message: expect.stringContaining('Did you mean delete_old_recipients?') });
	});

	it('appends recipients on update, or replaces them with delete_old_recipients', async () => {
		const { body: list } = await api(fake, 'POST', '/mailing_lists', { name: 'Grows', recipients: [ann] });
		expect((await api(fake, 'POST', `/mailing_lists/${list.id}`, { recipients: [bob] })).body.recipients).toBe(2);
		const { body: replaced } = await api(fake, 'POST', `/mailing_lists/${list.id}`, { recipients: [nowhere], delete_old_recipients: true });
		expect(replaced).toMatchObject({ recipients: 1, variables: [] });
		expect((await recipientsOf(list.id)).map((recipient) => recipient.address)).toEqual([{ ...nowhere.address, country: 'GB' }]);
	});

	it('adds, gets, partly updates and deletes recipients', async () => {
		const { body: list } = await api(fake, 'POST', '/mailing_lists', { name: 'People' });
		const { body: added } = await api(fake, 'POST', `/mailing_lists/${list.id}/recipients`, ann);
		expect(added).toMatchObject({ object: 'mailing_list_recipient', mailing_list: list.id, address: { name: 'Ann Smith', country: 'GB' } });
		const path = `/mailing_lists/${list.id}/recipients/${added.id}`;
		const { body: moved } = await api(fake, 'POST', path, { address: { postcode: 'BS1 5TR' } });
		expect(moved).toMatchObject({ address: { name: 'Ann Smith', line: '1 High Street\nLeeds', postcode: 'BS1 5TR', country: 'GB' }, variables: ann.variables });
		expect((await api(fake, 'POST', path, { variables: { first_name: 'Annie' } })).body).toMatchObject({ address: { postcode: 'BS1 5TR' }, variables: { first_name: 'Annie' } });
		expect((await api(fake, 'POST', path, { address: { line: '' } })).body.error).toMatchObject({ code: 'parameter_missing', param: 'address.line' });
		expect((await api(fake, 'POST', path, { adress: {} })).body.error).toMatchObject({ code: 'parameter_unknown', param: 'adress' });
		expect((await api(fake, 'GET', path)).body).toMatchObject({ address: { postcode: 'BS1 5TR' }, variables: { first_name: 'Annie' } });
		expect((await api(fake, 'POST', `/mailing_lists/${list.id}/recipients`, { variables: {} })).body.error).toMatchObject({ code: 'parameter_missing', param: 'address' });
		const { body: other } = await api(fake, 'POST', '/mailing_lists', { name: 'Other' });
		expect((await api(fake, 'GET', `/mailing_lists/${other.id}/recipients/${added.id}`)).status).toBe(404);
		expect((await api(fake, 'DELETE', path)).body).toEqual({ id: added.id, object: 'mailing_list_recipient', deleted: true });
		expect((await api(fake, 'GET', path)).status).toBe(404);
		expect((await api(fake, 'GET', `/mailing_lists/${list.id}`)).body.recipients).toBe(0);
	});

	it('lists lists and recipients with limit, skip, sort fields and fields', async () => {
		const lister = await startFakeIntelliprint({ rateLimit: false });
		try {
			for (const [name, recipients] of [['B list', [ann]], ['A list', [ann, bob, nowhere]], ['C list', [ann, bob]]] as const) {
				await api(lister, 'POST', '/mailing_lists', { name, recipients });
			}
			const names = async (query: string) => (await api(lister, 'GET', `/mailing_lists?${query}`)).body.data.map((list) => list.name);
			expect(await names('')).toEqual(['C list', 'A list', 'B list']);
			expect(await names('sort_field=name&sort_order=asc')).toEqual(['A list', 'B list', 'C list']);
			expect(await names('sort_field=recipients')).toEqual(['A list', 'C list', 'B list']);
			expect(await names('limit=1&skip=1')).toEqual(['A list']);
			const page = (await api(lister, 'GET', '/mailing_lists?fields=name')).body;
			expect(page).toMatchObject({ object: 'list', total_available: 3, has_more: false });
			expect(page.data[0]).toEqual({ id: expect.any(String), object: 'mailing_list', name: 'C list' });
			expect((await api(lister, 'GET', '/mailing_lists?sort_field=variables')).body.error).toMatchObject({ param: 'sort_field' });
			const a = (await api(lister, 'GET', '/mailing_lists?sort_field=name&sort_order=asc&limit=1')).body.data[0];
			const people = (await api(lister, 'GET', `/mailing_lists/${a.id}/recipients?sort_field=name&sort_order=desc&fields=address.name`)).body;
			expect(people.data.map((recipient) => recipient.address)).toEqual([{ name: 'Cy Nowhere' }, { name: 'Bob Jones' }, { name: 'Ann Smith' }]);
			expect((await api(lister, 'GET', `/mailing_lists/${a.id}/recipients?sort_field=recipients`)).body.error).toMatchObject({ param: 'sort_field' });
			expect((await api(lister, 'GET', '/mailing_lists/mal_nope/recipients')).status).toBe(404);
		} finally {
			await lister.stop();
		}
	});

	it('prints one letter per recipient of a stored list, with its variables', async () => {
		const { body: list } = await api(fake, 'POST', '/mailing_lists', { name: 'Letters', recipients: [ann, bob] });
		const { body: job } = await api(fake, 'POST', '/prints', { content: 'Dear {{first_name}}', mailing_list: list.id });
		expect(job.letters.map((letter) => letter.address.name)).toEqual(['Ann Smith', 'Bob Jones']);
		const form = new FormData();
		form.append('content', 'Hi');
		form.append('mailing_list', (await api(fake, 'POST', '/mailing_lists', { name: 'Empty' })).body.id);
		expect((await api(fake, 'POST', '/prints', form)).body.error).toMatchObject({ code: 'parameter_invalid', param: 'mailing_list' });
	});
});

describe('address validation and its webhook', () => {
	const verified = (secret: string, delivery: { headers: Record<string, string>; body: string }) => new Webhook(secret).verify(delivery.body, delivery.headers) as Answer;

	it('stays pending until completed, then marks each address and sends a signed event', async () => {
		const secret = newSigningSecret();
		fake.addWebhook(receiver.url, secret);
		try {
			const { body: list } = await api(fake, 'POST', '/mailing_lists', { name: 'Checked', recipients: [ann, nowhere], address_validation: { requested: true } });
			expect(list.address_validation).toEqual({ requested: true, completed: false, recipients: { passed: 0, failed: 0 } });
			expect((await recipientsOf(list.id)).map((recipient) => recipient.address_validation_status)).toEqual(['pending', 'pending']);
			const done = await fake.completeValidation(list.id);
			expect(done?.address_validation).toEqual({ requested: true, completed: true, recipients: { passed: 1, failed: 1 } });
			const statuses = Object.fromEntries((await recipientsOf(list.id)).map((recipient) => [(recipient.address as { name: string }).name, recipient.address_validation_status]));
			expect(statuses).toEqual({ 'Ann Smith': 'passed', 'Cy Nowhere': 'failed' });
			expect(receiver.received).toHaveLength(1);
			const event = verified(secret, receiver.received[0]);
			expect(event).toMatchObject({ type: 'mailing_list.addresses_validated', id: list.id, object: 'mailing_list', address_validation: { completed: true, recipients: { passed: 1, failed: 1 } } });
			expect(receiver.received[0].headers).toMatchObject({ 'webhook-id': expect.stringMatching(/^msg_/), 'webhook-timestamp': expect.stringMatching(/^\d+$/), 'webhook-signature': expect.stringMatching(/^v1,/) });
			expect(() => new Webhook(newSigningSecret()).verify(receiver.received[0].body, receiver.received[0].headers)).toThrow();
			expect(fake.deliveries.at(-1)).toMatchObject({ url: receiver.url, type: 'mailing_list.addresses_validated', status: 200 });
			// Nothing pending: no second event. A recipient added later is pending, and validated on its own.
			expect(await fake.completeValidation(list.id)).toBeUndefined();
			await api(fake, 'POST', `/mailing_lists/${list.id}/recipients`, bob);
			expect((await api(fake, 'GET', `/mailing_lists/${list.id}`)).body.address_validation).toMatchObject({ completed: false });
			await fake.completeValidation(list.id);
			expect(verified(secret, receiver.received[1])).toMatchObject({ address_validation: { completed: true, recipients: { passed: 2, failed: 1 } } });
		} finally {
			fake.webhookTargets.length = 0;
		}
	});

	it('is requested on update too; an address changed later is checked again', async () => {
		const { body: list } = await api(fake, 'POST', '/mailing_lists', { name: 'Later', recipients: [nowhere] });
		await fake.completeValidation(list.id);
		expect((await recipientsOf(list.id))[0].address_validation_status).toBe('not_requested');
		await api(fake, 'POST', `/mailing_lists/${list.id}`, { address_validation: { requested: true } });
		await fake.completeValidation(list.id);
		const [recipient] = await recipientsOf(list.id);
		expect(recipient.address_validation_status).toBe('failed');
		const { body: fixed } = await api(fake, 'POST', `/mailing_lists/${list.id}/recipients/${recipient.id}`, { address: { postcode: 'ls1 4ap' } });
		expect(fixed.address_validation_status).toBe('pending');
		expect((await fake.completeValidation(list.id))?.address_validation.recipients).toEqual({ passed: 1, failed: 0 });
	});

	it('completes by itself after validationDelayMs, and records what each endpoint answered', async () => {
		const auto = await startFakeIntelliprint({ rateLimit: false, validationDelayMs: 50, webhooks: [{ url: receiver.url, secret: newSigningSecret() }] });
		try {
			auto.addWebhook('http://127.0.0.1:9/unreachable', newSigningSecret());
			auto.addWebhook(receiver.url, newSigningSecret(), ['letter.updated']);
			receiver.status = 500;
			const { body: list } = await api(auto, 'POST', '/mailing_lists', { name: 'Auto', recipients: [ann], address_validation: { requested: true } });
			expect(await eventually(auto, () => auto.deliveries.length === 2 && auto.deliveries.every((delivery) => delivery.status !== 0))).toBe(true);
			await auto.settled();
			expect(auto.deliveries.map((delivery) => [delivery.url, delivery.status])).toEqual([[receiver.url, 500], ['http://127.0.0.1:9/unreachable', -1]]);
			expect((await api(auto, 'GET', `/mailing_lists/${list.id}`)).body.address_validation).toMatchObject({ completed: true, recipients: { passed: 1, failed: 0 } });
			expect(auto.backgroundFailures).toEqual([]);
		} finally {
			await auto.stop();
		}
	});

	it('sends letter.updated and mail.failed in their flat shape, signed alike', async () => {
		const secret = newSigningSecret();
		fake.addWebhook(receiver.url, secret);
		try {
			const { body: job } = await api(fake, 'POST', '/prints', { content: 'Hi', recipients: [ann], confirmed: true, reference: 'INV-1' });
			const letter = fake.prints.setLetterStatus(job.letters[0].id, 'returned', { returned: { date: 1_700_000_000, reason: 'moved away', acknowledged: false } });
			await fake.sendLetterEvent(letter.id);
			await fake.sendLetterEvent(letter.id, 'mail.failed');
			expect(receiver.received.map((delivery) => verified(secret, delivery))).toEqual([
				{ type: 'letter.updated', id: letter.id, print_id: job.id, account: 'acc_fake', reference: 'INV-1', status: 'returned', envelope: 'c5', postage_service: 'uk_second_class', shipped_date: null, returned: { date: 1_700_000_000, reason: 'moved away' }, testmode: false },
				expect.objectContaining({ type: 'mail.failed', id: letter.id }),
			]);
			await fake.sendEvent({ type: 'custom.event', id: 'x_1' });
			expect(verified(secret, receiver.received[2])).toEqual({ type: 'custom.event', id: 'x_1' });
		} finally {
			fake.webhookTargets.length = 0;
		}
	});
});
