import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { fieldPaths } from '../../../../nodes/Intelliprint/values/itemFields';
import { useFakeApi } from '../../../helpers/context';

describe('fieldPaths: expressions that only name fields of the item', () => {
	it.each([
		['={{ $json.name }}', { paths: [['name']], list: false }],
		['={{$json.customer.name}}', { paths: [['customer', 'name']], list: false }],
		[`={{ $json["Post Code"] }}`, { paths: [['Post Code']], list: false }],
		[`={{ $json['Address Line 1'] }}`, { paths: [['Address Line 1']], list: false }],
		['={{ $json.lines[0] }}', { paths: [['lines', '0']], list: false }],
		['={{ [$json.street, $json["flat no"], $json.town] }}', { paths: [['street'], ['flat no'], ['town']], list: true }],
	])('%s is read straight from the item', (raw, expected) => {
		expect(fieldPaths(raw)).toEqual(expected);
	});

	it.each([
		'={{ $json.name.toUpperCase() }}',
		'={{ $json.name + " " + $json.surname }}',
		'={{ $("Sheet").item.json.name }}',
		'={{ $json["a\\"b"] }}',
		'=Dear {{ $json.name }}',
		'={{ $json.name }} {{ $json.surname }}',
		'={{ $json }}',
	])('%s is left to n8n', (raw) => {
		expect(fieldPaths(raw)).toBeUndefined();
	});
});

const api = useFakeApi();

describe('a parameter read for every item, through n8n', () => {
	const content = '<p>Hello</p>';
	const run = (parameters: Record<string, unknown>, items: Array<{ json: IDataObject }>) =>
		api.run({ parameters: { resource: 'printJob', operation: 'create', source: 'content', content, testmode: true, variables: 'none', ...parameters }, items });

	it('gives what n8n would: plain fields read directly, other expressions still evaluated per item', async () => {
		const items = [
			{ json: { who: { first: 'Ada', last: 'Lovelace' }, 'Street 1': 12, town: 'London', pc: 'sw1y 4jh' } },
			{ json: { who: { first: 'Alan', last: 'Turing' }, 'Street 1': 'Bletchley Park', town: null, pc: 'mk3 6eb' } },
		];
		const { error } = await run(
			{
				recipientName: '={{ $json.who.first + " " + $json.who.last }}',
				recipientAddress: `={{ [$json['Street 1'], $json.town] }}`,
				recipientPostcode: '={{ $json.pc.toUpperCase() }}',
				recipientCountry: 'GB',
			},
			items,
		);
		expect(error).toBeUndefined();
		expect(api.apiCalls()[0].body.recipients).toEqual([
			{ address: { name: 'Ada Lovelace', line: '12\nLondon', postcode: 'SW1Y 4JH', country: 'GB' } },
			{ address: { name: 'Alan Turing', line: 'Bletchley Park', postcode: 'MK3 6EB', country: 'GB' } },
		]);
	});

	it('a path through a missing object is left to n8n, whose error names the item', async () => {
		const { error } = await run({ recipientName: '={{ $json.who.first }}' }, [
			{ json: { who: { first: 'Ada' }, address: '1 A St', postcode: 'A1 1AA' } },
			{ json: { address: '2 B St', postcode: 'B2 2BB' } },
		]);
		expect(error?.context?.itemIndex).toBe(1);
		expect(api.apiCalls()).toHaveLength(0);
	});
});
