import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { codeNodeReturning } from '../helpers/sixRows';
import { INLAND, isRefused, worldDataset, type WorldRow } from '../helpers/worldDataset';
import { LINE, ROOT, type ExecutionResult, type RunItem } from './n8n';
import { executeOnce, mainTo } from './server';

/**
 * Letters abroad that arrive and are paid right (issue 49), held out: the rows of test/helpers/worldDataset.ts, from
 * every region of the world, in real n8n (2.x and 1.x), in one workflow and one run. Address → Check must give each
 * row the verdict, written form and postage service a careful mailroom expects; a mail run must send the accepted
 * rows as one print job per service (the UK's, and International) and put the refused ones on the error output
 * without their reaching the API (what the fake received is the proof). Two smaller runs: Postage Abroad set to
 * refuse (with UK First Class), and postcards (UK services only).
 */
const WORKFLOW = 'ipLettersAbroad01';
const rows = worldDataset();
const accepted = rows.filter((row) => !isRefused(row.expected));
const refusedRows = rows.filter((row) => isRefused(row.expected));
const inland = (row: WorldRow) => !isRefused(row.expected) && INLAND.includes(row.expected.country);
/** The smaller runs' rows: every accepted UK, Crown dependency and BFPO row, and the first accepted row of each region abroad. */
const sample = [
	...accepted.filter((row) => ['uk', 'crown dependency', 'bfpo'].includes(row.kind)),
	...[...new Set(accepted.filter((row) => !inland(row)).map((row) => row.region))].map((region) => accepted.find((row) => row.region === region && !inland(row))!),
];

const OWN_FIELDS = ['name', 'address', 'postcode', 'country'];
/** The fields Address → Check adds, in order (docs/letters-abroad.md adds postage_service). */
const CHECK_FIELDS = ['address_ok', 'address_problem', 'address_fix', 'address_field', 'duplicate_of_row', 'posted_name', 'posted_address', 'posted_postcode', 'posted_country', 'postage_service'];

/** One branch of the workflow: its rows' node, its fake API, and its Check's and Create's extra parameters. */
const CASES = {
	world: { rows: 'World rows', check: {}, create: {} },
	refuse: { rows: 'Sample rows', check: { options: { postage: { values: { service: 'uk_first_class', postageAbroad: 'refuse' } } } }, create: { options: { postage: { values: { service: 'uk_first_class', postageAbroad: 'refuse' } } } } },
	postcard: { rows: 'Sample rows', check: { type: 'postcard' }, create: { type: 'postcard' } },
} as const;
type Case = keyof typeof CASES;
const checkNode = (name: Case) => `Check (${name})`;
const mailNode = (name: Case) => `Mail run (${name})`;
const credentialOf = (name: Case) => `ipAbroad-${name}`;

function workflow() {
	const node = (name: string, type: string, typeVersion: number, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
	const credentials = (name: Case) => ({ intelliprintApi: { id: credentialOf(name), name: `Intelliprint (${name})` } });
	const mapping = { recipientFields: { mappingMode: 'autoMapInputData', value: null } };
	const own = (list: WorldRow[]) => codeNodeReturning(list.map(({ name, address, postcode, country }) => ({ name, address, postcode, country })));
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('World rows', 'n8n-nodes-base.code', 2, [200, -200], { jsCode: own(rows) }),
		node('Sample rows', 'n8n-nodes-base.code', 2, [200, 300], { jsCode: own(sample) }),
		...(Object.keys(CASES) as Case[]).flatMap((name, i) => [
			node(checkNode(name), 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, i * 250 - 300], { resource: 'address', operation: 'check', ...mapping, ...CASES[name].check }, { credentials: credentials(name) }),
			node(mailNode(name), 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, i * 250 - 180], {
				resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', ...mapping, variables: 'none', testmode: true, confirmed: false,
				...CASES[name].create,
			}, { credentials: credentials(name), onError: 'continueErrorOutput' }),
		]),
	];
	const fed = (rowsNode: string) => (Object.keys(CASES) as Case[]).filter((name) => CASES[name].rows === rowsNode).flatMap((name) => [checkNode(name), mailNode(name)]);
	const connections = { Start: mainTo(['World rows', 'Sample rows']), 'World rows': mainTo(fed('World rows')), 'Sample rows': mainTo(fed('Sample rows')) };
	return { id: WORKFLOW, name: 'Letters abroad that arrive and are paid right', nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const fakes = new Map<Case, FakeIntelliprint>();
let result: ExecutionResult | undefined;
beforeAll(async () => {
	for (const name of Object.keys(CASES) as Case[]) fakes.set(name, await startFakeIntelliprint({ rateLimit: false }));
	const credentials = [...fakes].map(([name, fake]) => ({ id: credentialOf(name), name: `Intelliprint (${name})`, type: 'intelliprintApi', data: { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 100_000 } }));
	result = await executeOnce('letters-abroad', credentials, workflow());
});
afterAll(async () => Promise.all([...fakes.values()].map((fake) => fake.stop())));

type PairedItem = RunItem & { pairedItem?: { item: number } | Array<{ item: number }> };
const outputs = (name: string) => (result?.data.resultData.runData[name]?.[0]?.data?.main ?? []) as PairedItem[][];
const pairedRows = (item: PairedItem) => [item.pairedItem ?? []].flat().map((pair) => pair.item);

/** What the closing note shows: per kind and region, the rows, how many the data set accepts, how many n8n did, and how many were as expected. */
interface Tally {
	rows: number;
	expectedAccepted: number;
	got: number;
	asExpected: number;
}
const report: { byKind: Record<string, Tally>; byRegion: Record<string, Tally>; wrong: string[]; mailRun: Record<string, unknown> } = { byKind: {}, byRegion: {}, wrong: [], mailRun: {} };
afterAll(async () => fs.outputJson(`${ROOT}/.e2e/letters-abroad-n8n${LINE}.json`, report, { spaces: 2 }));

/** Where a row's verdict differs from the expected one, in words; '' when it does not. */
function verdictWrong(row: WorldRow, json: Record<string, unknown>, service: (row: WorldRow) => string): string {
	const problems: string[] = [];
	const expect = (field: string, want: unknown) => {
		if (json[field] !== want) problems.push(`${field} ${JSON.stringify(json[field])} (expected ${JSON.stringify(want)})`);
	};
	const expected = row.expected;
	if (isRefused(expected)) {
		expect('address_ok', false);
		if (!String(json.address_problem).startsWith(expected.refused)) problems.push(`address_problem ${JSON.stringify(json.address_problem)} (expected to start ${JSON.stringify(expected.refused)})`);
		expect('address_field', expected.field);
		const said = `${String(json.address_problem)} ${String(json.address_fix)}`.toLowerCase();
		const missing = expected.mentions.filter((words) => !said.includes(words.toLowerCase()));
		if (missing.length) problems.push(`the reason does not mention ${JSON.stringify(missing)}: ${JSON.stringify(json.address_problem)} / ${JSON.stringify(json.address_fix)}`);
		expect('postage_service', '');
	} else {
		expect('address_ok', true);
		if (json.address_ok !== true) problems.push(`refused: ${JSON.stringify(json.address_problem)}`);
		expect('posted_postcode', expected.postcode);
		expect('posted_country', expected.country);
		expect('postage_service', service(row));
		expect('posted_name', expected.name);
		expect('posted_address', expected.address);
		expect('duplicate_of_row', expected.duplicateOf);
	}
	return problems.join('; ');
}

const show = (row: WorldRow) => `${row.kind} | ${row.region} | ${JSON.stringify(row.postcode)} ${JSON.stringify(row.country)}`;
const letterKey = (address: { name?: unknown; line?: unknown; postcode?: unknown; country?: unknown }) =>
	`${String(address.name)}|${JSON.stringify(String(address.line))}|${String(address.postcode ?? '')}|${String(address.country ?? 'GB')}`;
const expectedLetter = (row: WorldRow) => (isRefused(row.expected) ? '' : letterKey({ ...row.expected, line: row.expected.address }));

/** The print jobs a fake was asked to make: the service, the type, and each letter's address as sent. */
function jobsSent(name: Case) {
	return fakes
		.get(name)!
		.requests.filter((call) => call.method === 'POST' && call.path === '/v1/prints')
		.map((call) => {
			const body = call.body as { postage?: { service?: string }; type?: string; recipients?: Array<{ address: Record<string, unknown> }> };
			return { status: call.status, service: body.postage?.service ?? '(default)', type: body.type ?? 'letter', letters: (body.recipients ?? []).map((recipient) => letterKey(recipient.address)) };
		});
}

describe(`letters abroad arrive and are paid right, in real n8n ${LINE}.x`, () => {
	it(`Address → Check gives each of the ${rows.length} rows of the world its verdict, written form and postage service`, () => {
		const checked = outputs(checkNode('world'))[0] ?? [];
		expect(checked).toHaveLength(rows.length);
		const tally = (table: Record<string, Tally>, key: string, row: WorldRow, got: boolean, right: boolean) => {
			const entry = (table[key] ??= { rows: 0, expectedAccepted: 0, got: 0, asExpected: 0 });
			entry.rows++;
			entry.expectedAccepted += isRefused(row.expected) ? 0 : 1;
			entry.got += got ? 1 : 0;
			entry.asExpected += right ? 1 : 0;
		};
		checked.forEach((item, i) => {
			const row = rows[i];
			const problems = [verdictWrong(row, item.json, (r) => (isRefused(r.expected) ? '' : r.expected.service))];
			// The row's own fields come out as they went in; the check's fields follow them, all ten, in order.
			const own = Object.fromEntries(OWN_FIELDS.map((key) => [key, item.json[key]]));
			if (JSON.stringify(own) !== JSON.stringify({ name: row.name, address: row.address, postcode: row.postcode, country: row.country })) problems.push('its own fields changed');
			const added = Object.keys(item.json).filter((key) => !OWN_FIELDS.includes(key));
			if (added.join() !== CHECK_FIELDS.join()) problems.push(`fields ${added.join()}`);
			const wrong = problems.filter(Boolean).join('; ');
			if (wrong) report.wrong.push(`row ${i + 1} (${show(row)}): ${wrong}`);
			tally(report.byKind, row.kind, row, item.json.address_ok === true, !wrong);
			tally(report.byRegion, row.region, row, item.json.address_ok === true, !wrong);
		});
		expect(report.wrong).toEqual([]);
	});

	it('the mail run: one print job per service, each letter in its written form, each row paired to exactly one job; the refused rows on the error output only', () => {
		const [main = [], errors = []] = outputs(mailNode('world'));
		const jobs = jobsSent('world');
		report.mailRun = {
			jobs: jobs.map((job) => ({ status: job.status, service: job.service, letters: job.letters.length })),
			mainItems: main.map((item) => ({
				letter_count: item.json.letter_count, rows: pairedRows(item).length, cost_after_tax_gbp: item.json.cost_after_tax_gbp,
				countries: new Set(pairedRows(item).map((row) => { const expected = rows[row].expected; return isRefused(expected) ? '?' : expected.country; })).size,
			})),
			errorItems: errors.length,
		};
		// Every request the fake answered as made: a UK service to an address abroad, or International to the UK, it refuses.
		expect.soft(jobs.map((job) => `${job.service} ${job.status}`).sort()).toEqual(['international 200', 'uk_second_class 200']);
		const byService = (service: string) => jobs.filter((job) => job.service === service).flatMap((job) => job.letters).sort();
		// For the note: the letters the data set expects and the fake did not get, and those it got unexpected, by service.
		for (const [service, wanted] of [['uk_second_class', accepted.filter(inland)], ['international', accepted.filter((row) => !inland(row))]] as const) {
			const got = byService(service);
			const expected = wanted.map(expectedLetter);
			report.mailRun[service] = { missing: expected.filter((letter) => !got.includes(letter)), unexpected: got.filter((letter) => !expected.includes(letter)) };
		}
		expect.soft(byService('uk_second_class')).toEqual(accepted.filter(inland).map(expectedLetter).sort());
		expect.soft(byService('international')).toEqual(accepted.filter((row) => !inland(row)).map(expectedLetter).sort());
		// No refused row reached the API.
		const refusedNames = new Set(refusedRows.map((row) => row.name.normalize('NFC')));
		expect.soft(jobs.flatMap((job) => job.letters).filter((letter) => refusedNames.has(letter.split('|')[0]))).toEqual([]);
		// The jobs on the main output, each paired with its own rows; every accepted row in exactly one.
		const index = (list: WorldRow[]) => list.map((row) => rows.indexOf(row)).sort((a, b) => a - b);
		expect.soft(main.map((item) => pairedRows(item).sort((a, b) => a - b)).sort((a, b) => a[0] - b[0])).toEqual(
			[index(accepted.filter(inland)), index(accepted.filter((row) => !inland(row)))].filter((list) => list.length).sort((a, b) => a[0] - b[0]),
		);
		expect.soft(main.map((item) => item.json.letter_count).sort()).toEqual(main.map((item) => pairedRows(item).length).sort());
		// The refused rows, each once, on the error output, with the reason Address → Check gives.
		expect.soft(errors.map((item) => pairedRows(item)).flat().sort((a, b) => a - b)).toEqual(index(refusedRows));
		const reasons = errors.map((item) => {
			const row = rows[pairedRows(item)[0]];
			return isRefused(row.expected) && String(item.json.error).startsWith(row.expected.refused) ? 'as expected' : `row ${rows.indexOf(row) + 1} (${show(row)}): ${String(item.json.error)}`;
		});
		expect.soft(reasons.filter((reason) => reason !== 'as expected')).toEqual([]);
	});

	it('Postage Abroad set to refuse (UK First Class): the UK rows in one uk_first_class job, every row abroad refused by Postage Abroad, nothing abroad sent', () => {
		const abroad = sample.filter((row) => !inland(row));
		const checked = outputs(checkNode('refuse'))[0] ?? [];
		expect(checked).toHaveLength(sample.length);
		const wrong = checked
			.map((item, i) => {
				const row = sample[i];
				if (inland(row)) return verdictWrong(row, item.json, () => 'uk_first_class');
				const code = isRefused(row.expected) ? '' : row.expected.country;
				const said = `${String(item.json.address_problem)} ${String(item.json.address_fix)}`;
				return item.json.address_ok === false && item.json.postage_service === '' && said.includes('Postage Abroad') && said.includes(`(${code})`) ? '' : `${show(row)}: ${JSON.stringify(item.json.address_problem)}`;
			})
			.filter(Boolean);
		expect(wrong).toEqual([]);
		const [main = [], errors = []] = outputs(mailNode('refuse'));
		expect(jobsSent('refuse').map((job) => [job.service, job.status, job.letters.sort()])).toEqual([['uk_first_class', 200, sample.filter(inland).map(expectedLetter).sort()]]);
		expect(main.map((item) => item.json.letter_count)).toEqual([sample.filter(inland).length]);
		expect(errors.map((item) => sample[pairedRows(item)[0]])).toEqual(abroad);
		expect(errors.filter((item) => !String(item.json.error).includes('Postage Abroad'))).toEqual([]);
	});

	it('postcards go by UK services only: the UK rows in one postcard job, every row abroad refused before anything is sent', () => {
		const abroad = sample.filter((row) => !inland(row));
		const checked = outputs(checkNode('postcard'))[0] ?? [];
		expect(checked).toHaveLength(sample.length);
		const wrong = checked
			.map((item, i) => {
				const row = sample[i];
				if (inland(row)) return verdictWrong(row, item.json, () => 'uk_second_class');
				return item.json.address_ok === false && item.json.postage_service === '' && /postcard/i.test(String(item.json.address_problem)) ? '' : `${show(row)}: ${JSON.stringify(item.json.address_problem)}`;
			})
			.filter(Boolean);
		expect(wrong).toEqual([]);
		const [main = [], errors = []] = outputs(mailNode('postcard'));
		// Postcards go by the UK service chosen (UK Second Class by default, sent or left to the API's default).
		expect(jobsSent('postcard').map((job) => [job.type, job.service.replace('(default)', 'uk_second_class'), job.status, job.letters.sort()])).toEqual([
			['postcard', 'uk_second_class', 200, sample.filter(inland).map(expectedLetter).sort()],
		]);
		expect(fakes.get('postcard')!.createdPrintJobs().map((job) => [job.type, job.postage?.service])).toEqual([['postcard', 'uk_second_class']]);
		expect(main.map((item) => item.json.letter_count)).toEqual([sample.filter(inland).length]);
		expect(errors.map((item) => sample[pairedRows(item)[0]])).toEqual(abroad);
		expect(errors.filter((item) => !/postcard/i.test(String(item.json.error)))).toEqual([]);
	});
});
