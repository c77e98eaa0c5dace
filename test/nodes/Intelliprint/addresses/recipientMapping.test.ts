import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Intelliprint } from '../../../../nodes/Intelliprint/Intelliprint.node';
import { useFakeApi } from '../../../helpers/context';

const api = useFakeApi();
const content = '<p>Dear {{first_name}}</p>';
/** Version 1.1's Print Job → Create from content, all items one job. */
const run = (items: Array<{ json: IDataObject }>, extra: Record<string, unknown> = {}, continueOnFail = false) =>
	api.run({
		typeVersion: 1.1,
		parameters: { resource: 'printJob', operation: 'create', source: 'content', content, testmode: true, variables: 'none', ...extra },
		items,
		continueOnFail,
	});
const sent = () => api.apiCalls()[0]?.body.recipients as Array<{ address: Record<string, string> }>;

describe('Recipient Fields (version 1.1, the resource mapper)', () => {
	it('maps automatically by field name: a spreadsheet export with its own column names', async () => {
		const { error } = await run([
			{ json: { 'Full Name': 'Ada Lovelace', 'Address Line 2': 'Flat 3', 'Address Line 1': '12 St James Square', City: 'London', 'Post Code': 'SW1Y 4JH', Country: 'uk', first_name: 'Ada' } },
			{ json: { name: 'Alan Turing', address: ['Bletchley Park', ''], town: 'Milton Keynes', postcode: 'MK3 6EB' } },
		]);
		expect(error).toBeUndefined();
		expect(sent().map((r) => r.address)).toEqual([
			{ name: 'Ada Lovelace', line: '12 St James Square\nFlat 3\nLondon', postcode: 'SW1Y 4JH', country: 'GB' },
			{ name: 'Alan Turing', line: 'Bletchley Park\nMilton Keynes', postcode: 'MK3 6EB', country: 'GB' },
		]);
	});

	it('maps each field as chosen: fields, fixed values and expressions', async () => {
		const recipientFields = {
			mappingMode: 'defineBelow',
			value: { name: '={{ $json.customer }}', address: `={{ [$json['line one'], $json.city] }}`, postcode: '={{ $json.zip.toUpperCase() }}', country: 'IE' },
		};
		const { error } = await run([{ json: { customer: 'Acme Ltd', 'line one': '1 Quay St', city: 'Galway', zip: 'h91 ac12', name: 'not this' } }], { recipientFields });
		expect(error).toBeUndefined();
		expect(sent().map((r) => r.address)).toEqual([{ name: 'Acme Ltd', line: '1 Quay St\nGalway', postcode: 'H91 AC12', country: 'IE' }]);
	});

	it('says which fields it looks for when an item has none of them, on that item', async () => {
		const { error } = await run([
			{ json: { name: 'Ada', address: '1 A St', postcode: 'A1 1AA' } },
			{ json: { customer: 'Bob', street_name: 'B St', zip_code: 'B2' } },
		]);
		expect(error?.message).toBe('Item 2 has no name, no address lines for its letter');
		expect(error?.context?.itemIndex).toBe(1);
		expect(error?.description).toContain('Name the item\'s fields name, address');
		expect(error?.description).toContain('it has: customer, street_name, zip_code');
		expect(api.apiCalls()).toHaveLength(0);
	});

	it('refuses a blank first address line on its row, whatever the later lines hold', async () => {
		const rows = [
			{ json: { name: 'Ann', address_1: '1 Quay St', town: 'Douglas', postcode: 'IM1 1AA' } },
			{ json: { name: 'Bea', address_1: '   ', town: 'Douglas', postcode: 'IM1 1AD' } },
			{ json: { name: 'Cal', address: ' \nDouglas', postcode: 'IM2 2BB' } },
			// Line 1 left out (Airtable leaves empty fields out): no first line either.
			{ json: { name: 'Dot', address_line_2: 'Flat 1', city: 'Ramsey', postcode: 'IM8 1AA' } },
		];
		const stopped = await run(rows);
		// Nothing is sent, and one error names every refused row.
		expect(stopped.error?.message).toBe('3 of 4 rows cannot be posted, so nothing was sent');
		expect(stopped.error?.context?.itemIndex).toBe(1);
		expect(stopped.error?.description).toMatch(/^Item 2's first address line is blank; Item 3's first address line is blank; Item 4/);
		expect(api.apiCalls()).toHaveLength(0);

		const { items } = await run(rows, {}, true);
		const errors = items.filter((item) => item.json.error).map((item) => [item.pairedItem, item.json.error]);
		expect(errors).toEqual([
			[{ item: 1 }, "Item 2's first address line is blank"],
			[{ item: 2 }, "Item 3's first address line is blank"],
			[{ item: 3 }, "Item 4's first address line is blank"],
		]);
		expect(sent().map((r) => r.address.line)).toEqual(['1 Quay St\nDouglas']);
	});

	it('fills mailing lists the same way', async () => {
		const { error } = await api.run({
			typeVersion: 1.1,
			parameters: { resource: 'mailingList', operation: 'create', name: 'Customers', addRecipients: true, variables: 'none' },
			items: [{ json: { Name: 'Ada', 'Address 1': '1 A St', Postcode: 'A1 1AA' } }],
		});
		expect(error).toBeUndefined();
		const recipients = api.apiCalls().find((call) => Array.isArray(call.body?.recipients))?.body.recipients as Array<{ address: Record<string, string> }>;
		expect(recipients.map((r) => r.address)).toEqual([{ name: 'Ada', line: '1 A St', postcode: 'A1 1AA', country: 'GB' }]);
	});

	it('offers name, address lines, postcode and country to map; version 1 keeps its four fields', async () => {
		const node = new Intelliprint();
		const { fields } = await node.methods.resourceMapping.getRecipientFields.call({} as never);
		expect(fields.map((f) => [f.id, f.required])).toEqual([['name', true], ['address', true], ['postcode', true], ['country', false]]);
		const mapper = node.description.properties.filter((p) => p.name === 'recipientFields');
		expect(mapper.length).toBeGreaterThan(0);
		for (const p of mapper) expect(p.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 1.1 } }]);
		const v1 = node.description.properties.filter((p) => p.name === 'recipientName' && !p.displayOptions?.show?.['@tool']);
		for (const p of v1) expect(p.displayOptions?.show?.['@version']).toEqual([1]);
	});
});
