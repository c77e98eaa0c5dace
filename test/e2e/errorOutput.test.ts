import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { codeNodeReturning, SIX_ROWS } from '../helpers/sixRows';
import { LINE, ROOT, type ExecutionResult, type RunItem } from './n8n';
import { mainTo, suiteN8n } from './server';

/**
 * A failed letter never flows down the success branch, in real n8n (2.x and 1.x), in one workflow and one
 * `n8n execute`: six rows of which row 2 has no postcode and row 5 no name, sent as a mail run and as one letter
 * each, under On Error → "Continue (using error output)" and → "Continue" (regular output); a mail run the API
 * refuses; an API 400 on one of three single creates; a spending refusal. Each branch has its own fake API.
 */
const WORKFLOW = 'ipErrorOutput001';
const BRANCHES = {
	'All Input Items (error output)': { recipientsFrom: 'allItems', onError: 'continueErrorOutput', rows: 'Six rows' },
	'Each Item (error output)': { recipientsFrom: 'eachItem', onError: 'continueErrorOutput', rows: 'Six rows' },
	'All Input Items (regular output)': { recipientsFrom: 'allItems', onError: 'continueRegularOutput', rows: 'Six rows' },
	'Each Item (regular output)': { recipientsFrom: 'eachItem', onError: 'continueRegularOutput', rows: 'Six rows' },
	'Mail run refused (error output)': { recipientsFrom: 'allItems', onError: 'continueErrorOutput', rows: 'Three good rows' },
	'One of three refused (error output)': { recipientsFrom: 'eachItem', onError: 'continueErrorOutput', rows: 'Three good rows' },
	'Spending refusal (error output)': { recipientsFrom: 'eachItem', onError: 'continueErrorOutput', rows: 'Three good rows', live: true },
	'Spending refusal (regular output)': { recipientsFrom: 'eachItem', onError: 'continueRegularOutput', rows: 'Three good rows', live: true },
} as const;
type Branch = keyof typeof BRANCHES;
const SIX = codeNodeReturning(SIX_ROWS);
const THREE = codeNodeReturning(SIX_ROWS.slice(0, 3).map((row) => ({ ...row, postcode: 'LS1 4AP' })));

const credentialOf = (branch: Branch) => `ipErr${Object.keys(BRANCHES).indexOf(branch)}`.padEnd(16, '0');
function workflow() {
	const node = (name: string, type: string, typeVersion: number, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
	const branches = Object.entries(BRANCHES).map(([name, branch], i) =>
		node(name, 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, i * 150], {
			resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: branch.recipientsFrom,
			recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none',
			// Live: the second row may cost at most £0.50, so a limit holds its draft back.
			testmode: !('live' in branch), confirmed: 'live' in branch, options: { parallelItems: 1, ...('live' in branch ? { confirmUpTo: '={{ $itemIndex === 1 ? 0.5 : 0 }}' } : {}) },
		}, { credentials: { intelliprintApi: { id: credentialOf(name as Branch), name } }, onError: branch.onError }),
	);
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Six rows', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: SIX }),
		node('Three good rows', 'n8n-nodes-base.code', 2, [200, 600], { jsCode: THREE }),
		...branches,
	];
	const fed = (rows: string) => Object.entries(BRANCHES).filter(([, branch]) => branch.rows === rows).map(([name]) => name);
	const connections = { Start: mainTo(['Six rows', 'Three good rows']), 'Six rows': mainTo(fed('Six rows')), 'Three good rows': mainTo(fed('Three good rows')) };
	return { id: WORKFLOW, name: 'Failed letters go to the error output', nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const fakes = new Map<Branch, FakeIntelliprint>();
let result: ExecutionResult | undefined;
beforeAll(async () => {
	for (const branch of Object.keys(BRANCHES) as Branch[]) fakes.set(branch, await startFakeIntelliprint({ rateLimit: false }));
	const refusal = { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Refused by the test.' };
	fakes.get('Mail run refused (error output)')!.faults.push({ method: 'POST', path: /\/prints$/, status: 400, error: refusal });
	fakes.get('One of three refused (error output)')!.faults.push({ method: 'POST', path: /\/prints$/, status: 400, error: refusal });
	const n8n = suiteN8n('error-output');
	await n8n.importCredentials(
		[...fakes].map(([branch, fake]) => ({
			id: credentialOf(branch), name: branch, type: 'intelliprintApi',
			data: { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60, dailySpendingLimit: 'live' in BRANCHES[branch] ? 2.5 : 0 },
		})),
	);
	const file = `${n8n.files}/${WORKFLOW}.json`;
	await fs.outputJson(file, workflow());
	await n8n.importWorkflows([file]);
	const run = await n8n.execute(WORKFLOW);
	expect(run.exitCode, run.output).toBe(0);
	result = run.result;
});
afterAll(async () => Promise.all([...fakes.values()].map((fake) => fake.stop())));

/** A branch's two outputs as row references (a print job as "job:<letters>"); what n8n returned, for the note. */
const table: Record<string, { main: string[]; error: string[] }> = {};
function outputs(branch: Branch) {
	const main = (result?.data.resultData.runData[branch]?.[0]?.data?.main ?? []) as RunItem[][];
	const show = (item: RunItem) => (item.json.error ? `${String(item.json.ref ?? '?')}: ${String(item.json.error).slice(0, 48)}` : `job:${String(item.json.letter_count)}`);
	table[branch] = { main: (main[0] ?? []).map(show), error: (main[1] ?? []).map(show) };
	return { main: main[0] ?? [], error: main[1] ?? [] };
}
afterAll(async () => fs.outputJson(`${ROOT}/.e2e/error-output-n8n${LINE}.json`, { table, customData: (result?.data.resultData as { metadata?: object } | undefined)?.metadata }, { spaces: 2 }));

describe(`a failed letter never flows down the success branch, in real n8n ${LINE}.x`, () => {
	it('six rows, two refused, as a mail run and one letter each: jobs on main, the refused rows (their own fields merged in) on the error output', () => {
		const run = outputs('All Input Items (error output)');
		expect(run.main.map((item) => item.json.letter_count)).toEqual([4]);
		expect(run.error.map((item) => [item.json.ref, item.json.name])).toEqual([['r2', 'Alan Turing'], ['r5', '']]);
		expect(String(run.error[0].json.error)).toMatch(/^Item 2 has no postcode/);
		expect(String(run.error[0].json.message)).toMatch(/postcode/i);
		const each = outputs('Each Item (error output)');
		expect(each.main.map((item) => item.json.letter_count)).toEqual([1, 1, 1, 1]);
		expect(each.error.map((item) => item.json.ref)).toEqual(['r2', 'r5']);
	});

	it('a mail run the API refuses: every row on the error output, none on main', () => {
		const run = outputs('Mail run refused (error output)');
		expect(run.main).toEqual([]);
		expect(run.error.map((item) => item.json.ref)).toEqual(['r1', 'r2', 'r3']);
		expect(String(run.error[0].json.message)).toContain('Refused by the test.');
	});

	it('an API 400 on one of three single creates: two jobs on main, the refused row on the error output', () => {
		const run = outputs('One of three refused (error output)');
		expect(run.main).toHaveLength(2);
		expect(run.error.map((item) => item.json.ref)).toEqual(['r1']);
	});

	it('a spending refusal (£2.50 a day, £1.02 a letter, the second row at most £0.50): two letters on main; the held-back draft with its ID on the error output', () => {
		const run = outputs('Spending refusal (error output)');
		expect(run.main.map((item) => item.json.confirmed)).toEqual([true, true]);
		const drafts = fakes.get('Spending refusal (error output)')!.createdPrintJobs().filter((job) => !job.confirmed);
		expect(drafts).toHaveLength(1);
		expect(run.error.map((item) => String(item.json.error))).toEqual([expect.stringContaining(`Print job ${drafts[0].id} (1 letter, £1.02 after tax) was not confirmed`)]);
	});

	it('with "Continue" (regular output) the same runs give today\'s items, errors included, on the main output', () => {
		const mailRun = outputs('All Input Items (regular output)');
		expect(mailRun.main.map((item) => (item.json.error ? item.json.ref ?? 'error' : `job:${String(item.json.letter_count)}`))).toEqual(['job:4', 'error', 'error']);
		expect(mailRun.main[1].json).toMatchObject({ description: expect.any(String) });
		const each = outputs('Each Item (regular output)');
		expect(each.main.map((item) => (item.json.error ? 'error' : 'job'))).toEqual(['job', 'error', 'job', 'job', 'error', 'job']);
		const spending = outputs('Spending refusal (regular output)');
		// The held-back draft with its cost, between the two letters.
		expect(spending.main.map((item) => (item.json.error ? item.json.draft_cost_after_tax_gbp : 'letter'))).toEqual(['letter', 1.02, 'letter']);
	});

	it("records the execution's print jobs in n8n's custom data", () => {
		const metadata = (result?.data.resultData as { metadata?: Record<string, string> } | undefined)?.metadata ?? {};
		expect(Number(metadata.intelliprint_print_jobs)).toBeGreaterThanOrEqual(12);
		expect(metadata.intelliprint_mode).toBe('live+test');
		for (const value of Object.values(metadata)) expect(value.length).toBeLessThanOrEqual(255);
	});
});
