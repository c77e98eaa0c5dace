import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { addressDataset } from '../helpers/addressDataset';
import { codeNodeReturning } from '../helpers/sixRows';
import { LINE, ROOT, type ExecutionResult, type RunItem } from './n8n';
import { executeOnce } from './server';

/**
 * The address checks in real n8n (2.x and 1.x), in one workflow and one `n8n execute`: the data set of
 * test/helpers/addressDataset.ts through Address → Check, and as a mail run with the error output, whose refused
 * rows must never reach the API (what the fake received is the proof).
 */
const WORKFLOW = 'ipAddressCheck01';
const rows = addressDataset();
const accepted = rows.filter((row) => !('refused' in row.expected));
const OWN_FIELDS = ['name', 'address', 'postcode', 'country'];
/** The fields Address → Check adds (docs/addresses.md), on every item whatever its verdict. */
const CHECK_FIELDS = ['address_ok', 'address_problem', 'address_fix', 'address_field', 'duplicate_of_row', 'posted_name', 'posted_address', 'posted_postcode', 'posted_country', 'postage_service'];

function workflow() {
	const node = (name: string, type: string, typeVersion: number, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
	const credentials = { intelliprintApi: { id: 'ipAddressCred001', name: 'Intelliprint (fake)' } };
	const mapping = { recipientFields: { mappingMode: 'autoMapInputData', value: null } };
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Sheet', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: codeNodeReturning(rows.map(({ name, address, postcode, country }) => ({ name, address, postcode, country }))) }),
		node('Check addresses', 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, -100], { resource: 'address', operation: 'check', ...mapping }, { credentials }),
		node('Mail run', 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, 100], {
			resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', ...mapping, variables: 'none', testmode: true, confirmed: false,
		}, { credentials, onError: 'continueErrorOutput' }),
	];
	const connections = {
		Start: { main: [[{ node: 'Sheet', type: 'main', index: 0 }]] },
		Sheet: { main: [[{ node: 'Check addresses', type: 'main', index: 0 }, { node: 'Mail run', type: 'main', index: 0 }]] },
	};
	return { id: WORKFLOW, name: 'Addresses checked before sending', nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

let fake: FakeIntelliprint;
let result: ExecutionResult | undefined;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	result = await executeOnce('address-checks', [{ id: 'ipAddressCred001', name: 'Intelliprint (fake)', type: 'intelliprintApi', data: { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 100_000 } }], workflow());
});
afterAll(async () => fake?.stop());

const outputs = (name: string) => (result?.data.resultData.runData[name]?.[0]?.data?.main ?? []) as RunItem[][];

describe(`addresses checked before sending, in real n8n ${LINE}.x`, () => {
	it(`Address → Check gives each of the ${rows.length} rows its expected verdict`, async () => {
		const checked = outputs('Check addresses')[0] ?? [];
		expect(checked).toHaveLength(rows.length);
		const table = new Map<string, { rows: number; expected: number; got: number }>();
		const wrong: string[] = [];
		checked.forEach((item, i) => {
			const row = rows[i];
			const right = 'refused' in row.expected
				? item.json.address_ok === false && String(item.json.address_problem).startsWith(row.expected.refused)
				: item.json.address_ok === true && item.json.posted_postcode === row.expected.postcode && item.json.posted_country === row.expected.country;
			// The row's own fields come out as they went in, good or refused: the verdict has fields of its own.
			const own = Object.fromEntries(OWN_FIELDS.map((key) => [key, item.json[key]]));
			const untouched = JSON.stringify(own) === JSON.stringify({ name: row.name, address: row.address, postcode: row.postcode, country: row.country });
			const added = Object.keys(item.json).filter((key) => !OWN_FIELDS.includes(key));
			if (!right || !untouched || added.join() !== CHECK_FIELDS.join()) wrong.push(`row ${i + 1} (${row.kind}): ${JSON.stringify(item.json).slice(0, 200)}`);
			const entry = table.get(row.kind) ?? { rows: 0, expected: 0, got: 0 };
			table.set(row.kind, { rows: entry.rows + 1, expected: entry.expected + ('refused' in row.expected ? 0 : 1), got: entry.got + (item.json.address_ok === true ? 1 : 0) });
		});
		await fs.outputJson(`${ROOT}/.e2e/address-checks-n8n${LINE}.json`, Object.fromEntries(table), { spaces: 2 });
		expect(wrong).toEqual([]);
	});

	it('a good row and a refused row keep their own fields exactly, and get the verdict beside them', () => {
		const checked = outputs('Check addresses')[0] ?? [];
		const good = rows.findIndex((row) => row.kind.startsWith('UK postcode') && row.postcode !== ('postcode' in row.expected ? row.expected.postcode : ''));
		const refused = rows.findIndex((row) => 'refused' in row.expected && row.expected.refused === 'Postcode');
		for (const index of [good, refused]) {
			const { name, address, postcode, country } = rows[index];
			expect(checked[index].json).toMatchObject({ name, address, postcode, country });
		}
		expect(checked[good].json).toMatchObject({ address_ok: true, address_problem: '', posted_name: rows[good].name, posted_address: rows[good].address });
		expect(checked[refused].json).toMatchObject({ address_ok: false, address_field: 'postcode', posted_address: '', posted_postcode: '' });
	});

	it('the mail run sends exactly the accepted rows, in their standard form; every refused row is on the error output and none reached the API', () => {
		const [main, errors] = outputs('Mail run');
		// One print job per service (docs/letters-abroad.md): the UK's rows, and the rows abroad by International.
		const abroad = accepted.filter((row) => 'country' in row.expected && !['GB', 'JE', 'GG', 'IM'].includes(row.expected.country)).length;
		expect(main.map((item) => item.json.letter_count)).toEqual([accepted.length - abroad, abroad]);
		expect(errors).toHaveLength(rows.length - accepted.length);
		const sent = fake.requests.filter((call) => call.method === 'POST' && call.path === '/v1/prints').flatMap((call) => call.body.recipients as Array<{ address: { name: string; postcode: string; country: string } }>);
		expect(sent.map((recipient) => `${recipient.address.name}|${recipient.address.postcode}|${recipient.address.country}`).sort()).toEqual(
			// Harmless invisible characters (a soft hyphen, a zero-width space) are taken out of what is printed.
			accepted.map((row) => ('postcode' in row.expected ? `${row.name.replace(/[\u00AD\u200B\u2060\uFEFF]/g, '')}|${row.expected.postcode}|${row.expected.country}` : '')).sort(),
		);
		const refusedNames = new Set(rows.filter((row) => 'refused' in row.expected).map((row) => row.name));
		expect(sent.filter((recipient) => refusedNames.has(recipient.address.name))).toEqual([]);
	});
});
