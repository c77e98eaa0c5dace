import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';

const api = useFakeApi();
const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });
const people = (count: number, from = 1) =>
	Array.from({ length: count }, (_, i) => ({ json: { name: `Guest ${from + i}`, address: `${from + i} Mill Lane, Bath`, postcode: 'BA1 1AA', seat: from + i } }));
const recipient = (operation: string, extra: Record<string, unknown> = {}) => ({ resource: 'mailingListRecipient', operation, ...extra });

async function emptyList(): Promise<string> {
	const { items, error } = await api.run({ parameters: { resource: 'mailingList', operation: 'create', name: 'Guests', addRecipients: false } });
	if (error) throw new Error(error.message);
	api.fake.resetRecording();
	return items[0].json.id as string;
}

describe('Mailing List Recipient', () => {
	it('adds all items in one request and gives each item its recipient with ID', async () => {
		const list = await emptyList();
		const { items, error } = await api.run({ parameters: recipient('create', { mailingList: byId(list) }), items: people(3) });
		expect(error).toBeUndefined();
		expect(api.apiCalls().filter((call) => call.method === 'POST')).toHaveLength(1);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items.map((item) => (item.json.address as { name: string }).name)).toEqual(['Guest 1', 'Guest 2', 'Guest 3']);
		expect(items.every((item) => typeof item.json.id === 'string' && item.json.object === 'mailing_list_recipient')).toBe(true);
	});

	it('gets, lists, updates only what is given, and deletes', async () => {
		const list = await emptyList();
		const added = await api.run({ parameters: recipient('create', { mailingList: byId(list) }), items: people(2) });
		const id = added.items[0].json.id as string;
		const got = await api.run({ parameters: recipient('get', { mailingList: byId(list), recipientId: id }) });
		expect(got.items[0].json).toMatchObject({ id, address: { name: 'Guest 1' } });
		const many = await api.run({ parameters: recipient('getMany', { mailingList: byId(list), returnAll: true }) });
		expect(many.items).toHaveLength(2);
		api.fake.resetRecording();
		const updated = await api.run({ parameters: recipient('update', { mailingList: byId(list), recipientId: id, updateFields: { postcode: 'BA2 2BB' } }) });
		expect(api.apiCalls()[0].body).toEqual({ address: { postcode: 'BA2 2BB' } });
		expect(updated.items[0].json).toMatchObject({ address: { name: 'Guest 1', postcode: 'BA2 2BB' } });
		const deleted = await api.run({ parameters: recipient('delete', { mailingList: byId(list), recipientId: id }) });
		expect(deleted.items[0].json).toMatchObject({ id, deleted: true });
	});

	it('refuses an item without an address before anything is sent, or sets it aside with Continue On Fail', async () => {
		const list = await emptyList();
		const batch = people(3);
		(batch[0].json as Record<string, unknown>).address = '';
		const stopped = await api.run({ parameters: recipient('create', { mailingList: byId(list) }), items: batch });
		expect(stopped.error?.message).toBe('Item 1 has no address lines for the mailing list');
		expect(api.apiCalls()).toHaveLength(0);
		const kept = await api.run({ parameters: recipient('create', { mailingList: byId(list) }), items: batch, continueOnFail: true });
		expect(kept.items.map((item) => Boolean(item.json.error))).toEqual([true, false, false]);
	});
});
