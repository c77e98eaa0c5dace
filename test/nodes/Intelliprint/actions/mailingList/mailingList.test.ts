import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';

const api = useFakeApi();
const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });
const people = (count: number, from = 1) =>
	Array.from({ length: count }, (_, i) => ({ json: { name: `Member ${from + i}`, address: `${from + i} Park Road, York`, postcode: 'YO1 7HH', tier: 'gold' } }));
const list = (operation: string, extra: Record<string, unknown> = {}) => ({ resource: 'mailingList', operation, ...extra });

async function createList(count: number, name = 'Members'): Promise<string> {
	const { items, error } = await api.run({ parameters: list('create', { name }), items: people(count) });
	if (error) throw new Error(error.message);
	api.fake.resetRecording();
	return items[0].json.id as string;
}

describe('Mailing List', () => {
	it('creates one list from all input items, in as few requests as the API allows', async () => {
		const { items, error } = await api.run({ parameters: list('create', { name: 'Big list' }), items: people(2300) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ object: 'mailing_list', name: 'Big list', recipients: 2300, variables: ['address', 'name', 'postcode', 'tier'] });
		expect((items[0].pairedItem as unknown[]).length).toBe(2300);
		expect(api.apiCalls().map((call) => `${call.method} ${call.path}`)).toEqual([
			'POST /v1/mailing_lists',
			`POST /v1/mailing_lists/${items[0].json.id as string}`,
			`POST /v1/mailing_lists/${items[0].json.id as string}`,
		]);
	});

	it('asks for address validation only when turned on', async () => {
		await api.run({ parameters: list('create', { name: 'Checked', validateAddresses: true }), items: people(2) });
		expect(api.apiCalls()[0].body).toMatchObject({ address_validation: { requested: true } });
	});

	it('gets, lists sorted by name, renames and deletes', async () => {
		const id = await createList(2, 'Zebra list');
		await createList(1, 'Aardvark list');
		const got = await api.run({ parameters: list('get', { mailingList: byId(id) }) });
		expect(got.items[0].json).toMatchObject({ id, recipients: 2 });
		const many = await api.run({ parameters: list('getMany', { returnAll: true, listOptions: { sortField: 'name', sortOrder: 'asc', fields: 'name' } }) });
		const names = many.items.map((item) => item.json.name);
		expect(names.indexOf('Aardvark list')).toBeLessThan(names.indexOf('Zebra list'));
		expect(api.apiCalls().at(-1)?.query).toMatchObject({ sort_field: 'name', sort_order: 'asc', 'fields[]': 'name' });
		const renamed = await api.run({ parameters: list('update', { mailingList: byId(id), newName: 'Renamed' }) });
		expect(renamed.items[0].json).toMatchObject({ name: 'Renamed', recipients: 2 });
		const deleted = await api.run({ parameters: list('delete', { mailingList: byId(id) }) });
		expect(deleted.items[0].json).toMatchObject({ id, deleted: true });
	});

	it('adds the input items to a list, or replaces its recipients with them', async () => {
		const id = await createList(3);
		const appended = await api.run({ parameters: list('update', { mailingList: byId(id), recipientsAction: 'append' }), items: people(2, 10) });
		expect(appended.items[0].json.recipients).toBe(5);
		const replaced = await api.run({ parameters: list('update', { mailingList: byId(id), recipientsAction: 'replace' }), items: people(1, 20) });
		expect(replaced.items[0].json.recipients).toBe(1);
		expect(api.apiCalls().at(-1)?.body).toMatchObject({ delete_old_recipients: true });
	});

	it('refuses an empty update and a bad list ID on the item', async () => {
		const id = await createList(1);
		const empty = await api.run({ parameters: list('update', { mailingList: byId(id) }) });
		expect(empty.error?.message).toBe('Nothing to update');
		const bad = await api.run({ parameters: list('get', { mailingList: byId('={{ $json.id }}') }), items: [{ json: { id: 'print_123' } }] });
		expect(bad.error?.message).toBe('"print_123" is not a valid mailing list ID');
		expect(api.apiCalls()).toHaveLength(0);
	});

	it('sends a print job to a stored mailing list', async () => {
		const id = await createList(4);
		const { items, error } = await api.run({
			parameters: { resource: 'printJob', operation: 'create', source: 'mailingList', mailingList: byId(id), content: '<p>Dear {{name}}, gold tier news.</p>', testmode: true },
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ letter_count: 4 });
		// The list's recipients are read first: their countries decide the service (docs/letters-abroad.md).
		expect(api.apiCalls().map((call) => call.method)).toEqual(['GET', 'POST']);
		expect(api.apiCalls()[1].body).toMatchObject({ mailing_list: id, postage: { service: 'uk_second_class' } });
	});
});
