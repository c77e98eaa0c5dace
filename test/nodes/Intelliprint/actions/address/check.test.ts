import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { addressDataset } from '../../../../helpers/addressDataset';

/** Address → Check, and the same checks on a mail run, over the data set (see test/helpers/addressDataset.ts). */
const rows = addressDataset();
const items = rows.map(({ name, address, postcode, country }) => ({ json: { name, address, postcode, country } }));
const accepted = rows.filter((row) => !('refused' in row.expected));

describe('Address → Check', () => {
	const api = useFakeApi();

	it('gives every row its verdict and the address as it would be posted, and sends nothing', async () => {
		const { items: out } = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check' }, items });
		expect(out).toHaveLength(rows.length);
		const wrong = out.flatMap((item: INodeExecutionData, i) => {
			const expected = rows[i].expected;
			const right = 'refused' in expected
				? item.json.address_ok === false && String(item.json.address_problem).startsWith(expected.refused) && item.json.address_fix
				: item.json.address_ok === true && item.json.posted_postcode === expected.postcode && item.json.posted_country === expected.country;
			return right ? [] : [`row ${i + 1} (${rows[i].kind}): ${JSON.stringify(item.json)}`];
		});
		expect(wrong).toEqual([]);
		expect(out[0].json).toMatchObject({ name: rows[0].name, postcode: rows[0].postcode });
		expect(api.apiCalls()).toEqual([]);
	});

	it('keeps every field of the row as it came, good or refused, and adds the same ten fields to each', async () => {
		const good = { name: 'Ada Lovelace', address: '1 High Street\nLeeds', postcode: 'ls14ap', country: 'United Kingdom', sheet_row: 2, tags: ['vip'] };
		const refused = { name: 'Bob Smith', address: '2 Low Road', postcode: 'SW1A', country: 'GB', sheet_row: 3, tags: [] };
		const { items: out } = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check' }, items: [{ json: good }, { json: refused }] });
		const added = ['address_ok', 'address_problem', 'address_fix', 'address_field', 'duplicate_of_row', 'posted_name', 'posted_address', 'posted_postcode', 'posted_country', 'postage_service'];
		expect(Object.keys(out[0].json)).toEqual([...Object.keys(good), ...added]);
		expect(Object.keys(out[1].json)).toEqual([...Object.keys(refused), ...added]);
		expect(out[0].json).toEqual({
			...good, address_ok: true, address_problem: '', address_fix: '', address_field: '', duplicate_of_row: null,
			posted_name: 'Ada Lovelace', posted_address: '1 High Street\nLeeds', posted_postcode: 'LS1 4AP', posted_country: 'GB', postage_service: 'uk_second_class',
		});
		expect(out[1].json).toEqual({
			...refused, address_ok: false, address_problem: 'Postcode "SW1A" is not a complete UK postcode', address_fix: expect.stringContaining('SW1A 1AA'), address_field: 'postcode', duplicate_of_row: null,
			posted_name: '', posted_address: '', posted_postcode: '', posted_country: '', postage_service: '',
		});
	});

	it('a rerun over checked rows gives the same verdict, and checked rows go on into a mail run as they are', async () => {
		const rowsIn = [{ json: { name: 'Ada Lovelace', address: '1 High Street\nLeeds', postcode: 'ls14ap' } }, { json: { name: 'Bob Smith', address: '2 Low Road', postcode: 'SW1A' } }];
		const first = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check' }, items: rowsIn });
		const again = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check' }, items: first.items.map(({ json }) => ({ json })) });
		expect(again.items.map((item) => item.json)).toEqual(first.items.map((item) => item.json));
		const good = first.items.filter((item) => item.json.address_ok).map(({ json }) => ({ json }));
		const mailRun = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: false };
		const sent = await api.run({ typeVersion: 1.2, parameters: mailRun, items: good });
		expect(sent.error).toBeUndefined();
		expect(sent.items[0].json.letter_count).toBe(1);
	});

	it('marks a row that repeats an earlier recipient', async () => {
		const twice = [items[0], items[1], { json: { ...items[0].json, name: ` ${String(items[0].json.name).toUpperCase()} `, postcode: String(items[0].json.postcode).toLowerCase() } }];
		const { items: out } = await api.run({ typeVersion: 1.2, parameters: { resource: 'address', operation: 'check' }, items: twice });
		expect(out.map((item) => item.json.duplicate_of_row)).toEqual([null, null, 1]);
	});
});

describe('no refused row reaches the API', () => {
	const api = useFakeApi();
	const mailRun = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: false };

	it('a mail run of the data set sends exactly the accepted rows, in their standard form; the refused ones go to the error output', async () => {
		const { items: out, errorOutput } = await api.run({ typeVersion: 1.2, onError: 'continueErrorOutput', parameters: mailRun, items });
		const posts = api.apiCalls().filter((call) => call.method === 'POST');
		const sent = posts.flatMap((call) => (call.body.recipients as Array<{ address: { postcode: string; country: string } }>));
		// One print job per service: the UK's rows (Crown dependencies too) in one, the rows abroad in another.
		expect(sent.map((recipient) => `${recipient.address.postcode}|${recipient.address.country}`).sort()).toEqual(
			accepted.map((row) => ('postcode' in row.expected ? `${row.expected.postcode}|${row.expected.country}` : '')).sort(),
		);
		expect(posts.map((call) => (call.body.postage as { service?: string } | undefined)?.service ?? 'uk_second_class').sort()).toEqual(['international', 'uk_second_class']);
		expect(errorOutput).toHaveLength(rows.length - accepted.length);
		expect(out).toHaveLength(2);
	});

	it('with On Error: Stop, nothing is sent, and the error names the first ten refused rows and how many more', async () => {
		const { error } = await api.run({ typeVersion: 1.2, parameters: mailRun, items });
		const refused = rows.length - accepted.length;
		expect(error?.message).toBe(`${refused} of ${rows.length} rows cannot be posted, so nothing was sent`);
		expect(error?.description?.split('; ')).toHaveLength(11);
		expect(error?.description).toContain(`; and ${refused - 10} more.`);
		expect(api.apiCalls()).toEqual([]);
	});

	it('one letter each, with On Error: Stop: nothing is sent either, though the first rows are good', async () => {
		const { error } = await api.run({ typeVersion: 1.2, parameters: { ...mailRun, recipientsFrom: 'eachItem' }, items: items.slice(0, 250) });
		expect(error?.message).toMatch(/^\d+ of 250 rows cannot be posted, so nothing was sent$/);
		expect(api.apiCalls()).toEqual([]);
	});
});

describe('One Letter per Recipient', () => {
	const api = useFakeApi();

	it('1,000 rows holding 50 repeats: 950 letters with it on (the repeats paired with the letter that covers them), 1,000 and a hint without', async () => {
		const people = Array.from({ length: 950 }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
		const repeats = people.slice(0, 50).map((item) => ({ json: { ...item.json, name: String(item.json.name).toUpperCase(), postcode: 'ls14ap' } }));
		const thousand = [...people, ...repeats];
		const run = (oneLetterPerRecipient: boolean) =>
			api.run({ typeVersion: 1.2, items: thousand, parameters: { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: false, confirmed: false, options: { oneLetterPerRecipient } } });
		const once = await run(true);
		const every = await run(false);
		expect([once.items[0].json.letter_count, every.items[0].json.letter_count]).toEqual([950, 1000]);
		expect((once.items[0].pairedItem as Array<{ item: number }>).map((pair) => pair.item)).toHaveLength(1000);
		const saved = Number(every.items[0].json.cost_after_tax_gbp) - Number(once.items[0].json.cost_after_tax_gbp);
		expect(saved).toBeCloseTo(50 * 1.02, 2);
		expect(every.run.data.resultData.runData.Intelliprint[0].hints?.map((hint) => hint.message)).toContainEqual(expect.stringMatching(/^50 rows repeat the recipient of an earlier row/));
		expect((once.run.data.resultData.runData.Intelliprint[0].hints ?? []).filter((hint) => /repeat the recipient of an earlier row/.test(hint.message))).toEqual([]);
	});
});
