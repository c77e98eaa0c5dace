import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { letterRow } from '../../nodes/Intelliprint/results/letterRow';
import type { PrintJob } from '../../nodes/Intelliprint/results/output';
import { LINE, ROOT, type ExecutionResult, type RunItem } from './n8n';
import { executeOnce, mainTo } from './server';
import { customerOf, invoiceSheet } from '../helpers/invoiceSheet';

/**
 * Issue 55 in real n8n: a scheduled mail run keyed as the docs advise (Skip Items Already Sent and Row ID = the
 * invoice) over a sheet that changes between runs. Day 1 sends the sheet; day 2 has 20 rows on top, 10 removed, 5
 * moved and 1 address corrected; day 2 runs again. At 100 and 10,000 rows (parts of 1,000), with One Letter per
 * Recipient off and on (every tenth row then shares the address of the row before). Each run is its own `n8n
 * execute` process, so each rerun finds the keys as a fresh n8n does. The proof is what the fake holds: each invoice
 * in exactly one confirmed letter, and every letter naming exactly the rows it carried (letterRow, what both
 * triggers give).
 */
const WORKFLOW = 'ipMailRunReruns01';
const sheet = invoiceSheet;
const SHEET = invoiceSheet.toString();

const CASES = {
	'100 rows': { size: 100, olpr: false, perJob: 10_000 },
	'100 rows, one letter per recipient': { size: 100, olpr: true, perJob: 10_000 },
	'10,000 rows, parts of 1,000': { size: 10_000, olpr: false, perJob: 1_000 },
	'10,000 rows, parts of 1,000, one letter per recipient': { size: 10_000, olpr: true, perJob: 1_000 },
} as const;
type Case = keyof typeof CASES;
const names = Object.keys(CASES) as Case[];
const shareEvery = (name: Case) => (CASES[name].olpr ? 10 : 0);
const credentialOf = (name: Case) => `ipReruns-${names.indexOf(name)}`;

function workflow(day: number) {
	const node = (name: string, type: string, typeVersion: number, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		...names.flatMap((name, i) => [
			node(`Sheet (${name})`, 'n8n-nodes-base.code', 2, [200, i * 200], { jsCode: `return (${SHEET})(${day}, ${CASES[name].size}, ${shareEvery(name)}).map((json) => ({ json }));` }),
			node(`Mail run (${name})`, 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, i * 200], {
				resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}, invoice {{invoice}}</p>', recipientsFrom: 'allItems',
				recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'all', testmode: true, confirmed: true, output: 'printJob',
				options: { sentKey: '={{ $json.invoice }}', rowId: '={{ $json.invoice }}', lettersPerJob: CASES[name].perJob, oneLetterPerRecipient: CASES[name].olpr },
			}, { credentials: { intelliprintApi: { id: credentialOf(name), name: `Intelliprint (${name})` } } }),
		]),
	];
	const connections = Object.fromEntries([['Start', mainTo(names.map((name) => `Sheet (${name})`))], ...names.map((name) => [`Sheet (${name})`, mainTo([`Mail run (${name})`])])]);
	return { id: WORKFLOW, name: 'Scheduled mail runs that send each row once', nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const fakes = new Map<Case, FakeIntelliprint>();
const runs: Array<ExecutionResult | undefined> = [];
beforeAll(async () => {
	for (const name of names) fakes.set(name, await startFakeIntelliprint({ rateLimit: false }));
	const credentials = [...fakes].map(([name, fake]) => ({ id: credentialOf(name), name: `Intelliprint (${name})`, type: 'intelliprintApi', data: { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 100_000 } }));
	for (const day of [1, 2, 2]) runs.push(await executeOnce(`mail-run-reruns-${runs.length + 1}`, credentials, workflow(day)));
}, 900_000);
afterAll(async () => Promise.all([...fakes.values()].map((fake) => fake.stop())));

type PairedItem = RunItem & { pairedItem?: { item: number } | Array<{ item: number }> };
const outputOf = (run: number, name: Case) => ((runs[run]?.data.resultData.runData[`Mail run (${name})`]?.[0]?.data?.main ?? [])[0] ?? []) as PairedItem[];
const pairedRows = (item: PairedItem) => [item.pairedItem ?? []].flat().map((pair) => pair.item);
/** Rows a run sent now (paired with a job it made) and rows it found sent before. */
const rowsBy = (run: number, name: Case, sentBefore: boolean) => outputOf(run, name).filter((item) => (item.json.already_sent === true) === sentBefore && !item.json.error).flatMap(pairedRows);

/** What the fake holds for a case: letters posted per invoice, and letters whose rows are unnamed or misnamed. */
function ledger(name: Case) {
	const fake = fakes.get(name)!;
	const posted = new Map<string, number>();
	let unnamed = 0;
	let misnamed = 0;
	for (const stored of fake.prints.jobs.values()) {
		if (!stored.confirmed) continue;
		const job = JSON.parse(JSON.stringify(stored)) as PrintJob;
		for (const letter of job.letters ?? []) {
			const named = letterRow(job, letter.id);
			const ids = (named.row_ids as Array<string | null>) ?? [];
			if (!ids.length || ids.some((id) => id === null)) unnamed++;
			for (const id of ids) {
				if (id === null) continue;
				posted.set(id, (posted.get(id) ?? 0) + 1);
				// The row a letter names must be the customer it went to (a shared address names each row of it).
				if (customerOf(id, shareEvery(name)) !== letter.address?.name) misnamed++;
			}
		}
	}
	return { posted, unnamed, misnamed };
}

const report: Record<string, unknown> = {};
afterAll(async () => fs.outputJson(`${ROOT}/.e2e/mail-run-reruns-n8n${LINE}.json`, report, { spaces: 2 }));

describe(`scheduled mail runs that send each row once, in real n8n ${LINE}.x`, () => {
	it.each(names)('%s: day 1 sends all, day 2 only the 20 new rows, day 2 again nothing; each invoice one letter; every letter names its rows', (name) => {
		const { size } = CASES[name];
		const day1 = sheet(1, size, shareEvery(name));
		const day2 = sheet(2, size, shareEvery(name));
		const sentNow = [0, 1, 2].map((run) => rowsBy(run, name, false).length);
		const sentBefore = [0, 1, 2].map((run) => rowsBy(run, name, true).length);
		const { posted, unnamed, misnamed } = ledger(name);
		const invoices = new Set([...day1, ...day2].map((row) => row.invoice));
		const twice = [...posted.values()].filter((count) => count > 1).length;
		const never = [...invoices].filter((invoice) => !posted.has(invoice)).length;
		report[name] = { rows: { day1: day1.length, day2: day2.length }, sentNow, sentBefore, invoices: invoices.size, postedTwice: twice, neverPosted: never, unnamed, misnamed, jobs: fakes.get(name)!.createdPrintJobs().length };
		expect(sentNow).toEqual([day1.length, 20, 0]);
		expect(sentBefore).toEqual([0, day2.length - 20, day2.length]);
		// The corrected row is not sent again: its row says so.
		const corrected = outputOf(1, name).find((item) => pairedRows(item).some((row) => day2[row].invoice === 'INV-50') && item.json.already_sent === true);
		expect(corrected?.json.address_changed_items).toEqual(expect.arrayContaining([day2.findIndex((row) => row.invoice === 'INV-50') + 1]));
		expect({ twice, never, unnamed, misnamed }).toEqual({ twice: 0, never: 0, unnamed: 0, misnamed: 0 });
	});
});
