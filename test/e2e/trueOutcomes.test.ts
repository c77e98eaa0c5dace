import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { SIX_ROWS } from '../helpers/sixRows';
import { LINE, N8nInstance, ROOT, type ExecutionResult, type RunItem } from './n8n';
import { N8nServer, suiteN8n } from './server';

/**
 * What the node reports equals what happened, in real n8n (issue 39): a rerun after the daily limit was removed,
 * lowered or raised confirms or refuses the drafts it finds and never reports one as sent; a price that cannot be
 * read is never confirmed under a limit; the execution's custom data counts each job once and is written however the
 * run ends. Each case has its own fake API (its own day). The figures go to .e2e/true-outcomes-n8n<line>.json.
 */
const LETTER = 1.02;
const ROWS = 10;
const FIRST_LIMIT = 5;
type Node = { id: string; name: string; type: string; typeVersion: number; position: [number, number]; parameters: object; [key: string]: unknown };
const node = (name: string, type: string, typeVersion: number, parameters: object, extra: object = {}): Node => ({ id: name, name, type, typeVersion, position: [0, 0], parameters, ...extra });
const rowsCode = (rows: object[]) => `return ${JSON.stringify(rows)}.map((json) => ({ json }));`;
const customers = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP', ref: `inv-${i + 1}` }));
const create = (extra: object = {}) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'eachItem',
	recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: false, confirmed: true, ...extra,
});

/** Start → Rows → the given Intelliprint nodes, each fed by the one before. */
function chain(id: string, rows: object[], steps: Array<{ name: string; parameters: object; credential: string; onError?: string }>) {
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
		node('Rows', 'n8n-nodes-base.code', 2, { jsCode: rowsCode(rows) }),
		...steps.map((step) =>
			node(step.name, 'n8n-nodes-intelliprint.intelliprint', 1.2, step.parameters, {
				credentials: { intelliprintApi: { id: step.credential, name: step.credential } },
				...(step.onError ? { onError: step.onError } : {}),
			}),
		),
	];
	nodes.forEach((entry, i) => (entry.position = [i * 200, 0]));
	const connections = Object.fromEntries(nodes.slice(0, -1).map((entry, i) => [entry.name, { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] }]));
	return { id, name: id, nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const RERUNS = { removed: 0, lowered: 4.5, raised: 8 } as const;
type Rerun = keyof typeof RERUNS;
const fakes = new Map<string, FakeIntelliprint>();
const figures: Record<string, unknown> = {};
let n8n: N8nServer;
const credentialId = (name: string) => `ipTrue${name}`.replace(/[^A-Za-z0-9]/g, '').padEnd(16, '0').slice(0, 16);
const workflowId = (name: string) => `ipTrueWf${name}`.replace(/[^A-Za-z0-9]/g, '').padEnd(16, '0').slice(0, 16);

beforeAll(async () => {
	n8n = suiteN8n('true-outcomes');
	const credentials: Array<{ name: string; fake: string; limit: number }> = [];
	const workflows: Array<ReturnType<typeof chain>> = [];
	const keyed = create({ options: { sentKey: '={{ $json.ref }}', parallelItems: 1 } });
	for (const [rerun, limit] of Object.entries(RERUNS)) {
		fakes.set(rerun, await startFakeIntelliprint({ rateLimit: false }));
		credentials.push({ name: `${rerun}First`, fake: rerun, limit: FIRST_LIMIT }, { name: `${rerun}Again`, fake: rerun, limit });
		workflows.push(chain(workflowId(`${rerun}First`), customers(ROWS), [{ name: 'Post', parameters: keyed, credential: credentialId(`${rerun}First`), onError: 'continueRegularOutput' }]));
		workflows.push(chain(workflowId(`${rerun}Again`), customers(ROWS), [{ name: 'Post', parameters: keyed, credential: credentialId(`${rerun}Again`), onError: 'continueRegularOutput' }]));
	}
	for (const [name, fake] of [['price', 'price'], ['sixRows', 'account'], ['createConfirm', 'account'], ['stop', 'stop']] as const) {
		if (!fakes.has(fake)) fakes.set(fake, await startFakeIntelliprint({ rateLimit: false }));
		credentials.push({ name, fake, limit: name === 'price' ? 0.01 : 0 });
	}
	credentials.push({ name: 'pricePerJob', fake: 'price', limit: 0 });
	workflows.push(
		chain(workflowId('price'), customers(3), [{ name: 'Post', parameters: create(), credential: credentialId('price'), onError: 'continueRegularOutput' }]),
		chain(workflowId('pricePerJob'), customers(3), [{ name: 'Post', parameters: create({ options: { confirmUpTo: 1 } }), credential: credentialId('pricePerJob'), onError: 'continueRegularOutput' }]),
		chain(workflowId('sixRows'), SIX_ROWS, [{ name: 'Post', parameters: create({ recipientsFrom: 'allItems', testmode: true }), credential: credentialId('sixRows'), onError: 'continueErrorOutput' }]),
		chain(workflowId('createConfirm'), customers(1), [
			{ name: 'Post', parameters: create({ confirmed: false }), credential: credentialId('createConfirm') },
			{ name: 'Confirm', parameters: { resource: 'printJob', operation: 'confirm', printJob: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }, credential: credentialId('createConfirm') },
		]),
		// The third letter may cost at most £0.50: its draft is held back and the run stops there.
		chain(workflowId('stop'), customers(3), [{ name: 'Post', parameters: create({ options: { parallelItems: 1, confirmUpTo: '={{ $itemIndex === 2 ? 0.5 : 0 }}' } }), credential: credentialId('stop') }]),
	);
	await n8n.importCredentials(
		credentials.map(({ name, fake, limit }) => ({
			id: credentialId(name), name, type: 'intelliprintApi',
			data: { apiKey: fakes.get(fake)!.apiKey, baseUrl: fakes.get(fake)!.url, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60, dailySpendingLimit: limit },
		})),
	);
	const files = workflows.map((workflow) => `${n8n.files}/${workflow.id}.json`);
	await Promise.all(workflows.map((workflow, i) => fs.outputJson(files[i], workflow)));
	await n8n.importWorkflows(files);
});
afterAll(async () => {
	await fs.outputJson(`${ROOT}/.e2e/true-outcomes-n8n${LINE}.json`, figures, { spaces: 2 });
	await Promise.all([...fakes.values()].map((fake) => fake.stop()));
});

const items = (result: ExecutionResult | undefined, name = 'Post') => N8nInstance.node(result, name).items;
const metadata = (result: ExecutionResult | undefined) => (result?.data.resultData as { metadata?: Record<string, string> } | undefined)?.metadata ?? {};
const confirmedGbp = (fake: FakeIntelliprint) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
const isSuccess = (item: RunItem) => item.json.error === undefined;

describe('a rerun after the daily limit changed, in real n8n', () => {
	it.each(Object.keys(RERUNS) as Rerun[])('limit %s: drafts confirmed or refused, none left behind a success, no letter twice', async (rerun) => {
		const fake = fakes.get(rerun)!;
		const first = await n8n.execute(workflowId(`${rerun}First`));
		expect(first.exitCode, first.output).toBe(0);
		const held = items(first.result).filter((item) => !isSuccess(item)).length;
		const draftsHeld = [...fake.prints.jobs.values()].filter((job) => !job.confirmed).length;
		const again = await n8n.execute(workflowId(`${rerun}Again`));
		expect(again.exitCode, again.output).toBe(0);
		const out = items(again.result);
		const jobs = [...fake.prints.jobs.values()];
		const keys = jobs.map((job) => job.metadata.n8n_sent_key);
		const row = {
			limit: RERUNS[rerun], refusedFirst: held, draftsHeldFirst: draftsHeld,
			confirmedOnRerun: out.filter((item) => isSuccess(item) && item.json.confirmed === true && item.json.already_sent !== true).length + out.filter((item) => item.json.confirmed_in_this_run === true).length,
			refusedOnRerun: out.filter((item) => !isSuccess(item)).length, draftsLeft: jobs.filter((job) => !job.confirmed).length,
			successesLeftDraft: out.filter((item) => isSuccess(item) && item.json.confirmed !== true).length,
			duplicates: keys.length - new Set(keys).size, jobsCreated: jobs.length, spentGbp: Number(confirmedGbp(fake).toFixed(2)),
		};
		figures[`rerun, limit ${rerun}`] = row;
		expect(held).toBe(ROWS - Math.floor(FIRST_LIMIT / LETTER));
		expect(out).toHaveLength(ROWS);
		expect(row.successesLeftDraft).toBe(0);
		expect(row.duplicates).toBe(0);
		// Every item is a confirmed letter or an error; the limit now in force decides how many letters in all.
		const letters = RERUNS[rerun] === 0 ? ROWS : Math.floor(RERUNS[rerun] / LETTER + 1e-9);
		expect(out.filter((item) => isSuccess(item) && item.json.confirmed === true)).toHaveLength(Math.max(letters, ROWS - held));
		expect(row.refusedOnRerun).toBe(ROWS - Math.max(letters, ROWS - held));
		expect(jobs.filter((job) => job.confirmed)).toHaveLength(Math.max(letters, ROWS - held));
		if (RERUNS[rerun] > 0) expect(row.spentGbp).toBeLessThanOrEqual(Math.max(RERUNS[rerun], FIRST_LIMIT));
	});
});

describe('a price that cannot be read, in real n8n', () => {
	it('is never confirmed under a daily limit or Confirm Only Up To: £0 confirmed', async () => {
		const fake = fakes.get('price')!;
		fake.withholdCost = 'absent';
		const daily = await n8n.execute(workflowId('price'));
		const perJob = await n8n.execute(workflowId('pricePerJob'));
		fake.withholdCost = false;
		const refused = [daily, perJob].map((run) => items(run.result).filter((item) => /did not give its price$/.test(String(item.json.error))).length);
		figures['unknown price'] = { dailyLimitRefused: refused[0], perJobRefused: refused[1], confirmedGbp: confirmedGbp(fake) };
		expect(refused).toEqual([3, 3]);
		expect(confirmedGbp(fake)).toBe(0);
	});
});

describe("the execution's custom data, in real n8n", () => {
	it('the six-row mail run: one job of four letters', async () => {
		const run = await n8n.execute(workflowId('sixRows'));
		const job = items(run.result).find(isSuccess)!;
		figures['custom data, six rows'] = metadata(run.result);
		expect(metadata(run.result)).toEqual({
			intelliprint_print_jobs: '1', intelliprint_print_job_ids: String(job.json.id), intelliprint_letters: '4', intelliprint_mode: 'test', intelliprint_cost_gbp: '4.08',
		});
	});

	it('a job created by one node and confirmed by the next: one job, one letter, £1.02', async () => {
		const run = await n8n.execute(workflowId('createConfirm'));
		expect(run.exitCode, run.output).toBe(0);
		const id = String(items(run.result, 'Confirm')[0].json.id);
		figures['custom data, create then confirm'] = metadata(run.result);
		expect(metadata(run.result)).toEqual({ intelliprint_print_jobs: '1', intelliprint_print_job_ids: id, intelliprint_letters: '1', intelliprint_mode: 'live', intelliprint_cost_gbp: '1.02' });
	});

	it('a run that stops after charging records what it charged, and the draft held back apart', async () => {
		const run = await n8n.execute(workflowId('stop'));
		expect(run.exitCode).toBe(1);
		const jobs = [...fakes.get('stop')!.prints.jobs.values()];
		figures['custom data, stop after charging'] = metadata(run.result);
		expect(jobs.map((job) => job.confirmed)).toEqual([true, true, false]);
		expect(metadata(run.result)).toEqual({
			intelliprint_print_jobs: '2', intelliprint_print_job_ids: `${jobs[0].id}, ${jobs[1].id}`, intelliprint_letters: '2', intelliprint_mode: 'live', intelliprint_cost_gbp: '2.04',
			intelliprint_held_drafts: `1 (${jobs[2].id})`,
		});
	});
});
