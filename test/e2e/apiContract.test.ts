import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { N8nInstance, type ExecutionResult } from './n8n';
import { N8nServer, suiteN8n } from './server';

/**
 * The API contract in real n8n (docs/api-contract.md): the cases issue 46 measured against APIs that differ from what
 * the node relies on, each now failing closed. One fake, whose broken modes are chosen by each credential's Base URL.
 */
const LETTER = 1.02;
const now = () => Math.floor(Date.now() / 1000);
const node = (name: string, type: string, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion: type.endsWith('.code') ? 2 : 1, position, parameters, ...extra });
const CREDENTIALS = { plain: 'ipContractPlain', ignoreSort: 'ipContractSort1', ignoreReference: 'ipContractRef01', livePlain: 'ipContractLive1', liveSort: 'ipContractLive2' } as const;

/** Rows → Intelliprint, on the credential given: live letters under the limit, or keyed test letters. */
function workflow(id: string, credential: string, rows: string, parameters: object) {
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', [0, 0], {}),
		node('Rows', 'n8n-nodes-base.code', [200, 0], { jsCode: `return ${rows}.map((key, i) => ({ json: { key, name: 'Customer ' + (i + 1), address: (i + 1) + ' High Street\\nLeeds', postcode: 'LS1 4AP' } }));` }),
		{
			...node('Intelliprint', 'n8n-nodes-intelliprint.intelliprint', [400, 0], {
				resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'eachItem',
				recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', ...parameters,
			}, { credentials: { intelliprintApi: { id: credential, name: credential } }, onError: 'continueRegularOutput' }),
			typeVersion: 1.2,
		},
	];
	const connections = { Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Intelliprint', type: 'main', index: 0 }]] } };
	return { id, name: id, nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const keys = (prefix: string, count: number, from = 1) => JSON.stringify(Array.from({ length: count }, (_, i) => `${prefix}${i + from}`));
const WORKFLOWS = {
	liveKept: workflow('ipContractWfLive', CREDENTIALS.livePlain, keys('', 20), { testmode: false, confirmed: true }),
	liveSort: workflow('ipContractWfLiv2', CREDENTIALS.liveSort, keys('', 20), { testmode: false, confirmed: true }),
	keyed: workflow('ipContractWfKey1', CREDENTIALS.plain, keys('inv-', 100), { testmode: true, confirmed: true, options: { sentKey: '={{ $json.key }}' } }),
	rerunSort: workflow('ipContractWfKey2', CREDENTIALS.ignoreSort, keys('inv-', 100), { testmode: true, confirmed: true, options: { sentKey: '={{ $json.key }}' } }),
	rerunRef: workflow('ipContractWfKey3', CREDENTIALS.ignoreReference, keys('old-', 3, 9000), { testmode: true, confirmed: true, options: { sentKey: '={{ $json.key }}' } }),
};

let live: FakeIntelliprint;
let live2: FakeIntelliprint;
let keyed: FakeIntelliprint;
let n8n: N8nServer;
const broken = (fake: FakeIntelliprint, mode: string) => fake.url.replace(/\/v1$/, `/broken/${mode}/v1`);

/** £1,020 confirmed today and a day's worth before it: room for 9 letters under £1,030. */
function busyDay(fake: FakeIntelliprint) {
	for (const [count, ago] of [[1000, 600], [30, 86_400 + 600]]) {
		for (const job of fake.prints.seed(count, { confirmed: true })) {
			job.confirmed_at = now() - ago;
			job.created = job.confirmed_at - 5;
		}
	}
}

beforeAll(async () => {
	[live, live2, keyed] = await Promise.all([0, 1, 2].map(async () => await startFakeIntelliprint({ rateLimit: false })));
	busyDay(live);
	busyDay(live2);
	// 12,000 keyed test jobs of the last 20 days: a fresh process looks three keys up by reference, not the twelve pages.
	const old = keyed.prints.seed(12_000, { testmode: true, confirmed: true });
	old.forEach((job, i) => {
		job.created = now() - 3600 - Math.floor((i / old.length) * 20 * 86_400);
		job.metadata = { n8n_sent_key: `old-${i + 1}` };
		job.reference = `old-${i + 1}`;
	});
	n8n = suiteN8n('api-contract');
	const credential = (id: string, fake: FakeIntelliprint, baseUrl: string, limit?: number) => ({
		id, name: id, type: 'intelliprintApi', data: { apiKey: fake.apiKey, baseUrl, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60, ...(limit ? { dailySpendingLimit: limit } : {}) },
	});
	await n8n.importCredentials([
		credential(CREDENTIALS.livePlain, live, live.url, 1030),
		credential(CREDENTIALS.liveSort, live2, broken(live2, 'ignoreSort'), 1030),
		credential(CREDENTIALS.plain, keyed, keyed.url),
		credential(CREDENTIALS.ignoreSort, keyed, broken(keyed, 'ignoreSort')),
		credential(CREDENTIALS.ignoreReference, keyed, broken(keyed, 'ignoreReference')),
	]);
	const files = Object.values(WORKFLOWS).map((flow) => `${n8n.files}/${flow.id}.json`);
	await Promise.all(Object.values(WORKFLOWS).map(async (flow, i) => await fs.outputJson(files[i], flow)));
	await n8n.importWorkflows(files);
}, 120_000);
afterAll(async () => Promise.all([live, live2, keyed].map(async (fake) => await fake.stop())));

const items = (result: ExecutionResult | undefined) => N8nInstance.node(result, 'Intelliprint').items;
const todayGbp = (fake: FakeIntelliprint) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode && (job.confirmed_at ?? 0) > now() - 3600).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;

describe('an API that breaks the contract, in real n8n', () => {
	it('£1,030 a day with £1,020 confirmed: 9 of 20 letters where the sort is kept, none where the list ignores it (was 20)', async () => {
		const [kept, ignored] = await Promise.all([n8n.execute(WORKFLOWS.liveKept.id), n8n.execute(WORKFLOWS.liveSort.id)]);
		expect(items(kept.result).filter((item) => item.json.confirmed === true)).toHaveLength(9);
		expect(todayGbp(live)).toBeLessThanOrEqual(1030);
		const refused = items(ignored.result);
		expect(refused.filter((item) => item.json.confirmed === true)).toHaveLength(0);
		expect(todayGbp(live2)).toBeCloseTo(1000 * LETTER, 2);
		expect(refused.every((item) => /is not as the node relies on \("list-order"\)/.test(`${String(item.json.error)} ${String(item.json.description)}`)), JSON.stringify(refused[0]?.json)).toBe(true);
	});

	it('a rerun of 100 sent keys against a list that ignores the sort: nothing posted twice (was 100), each item says why', async () => {
		const first = await n8n.execute(WORKFLOWS.keyed.id);
		expect(items(first.result).filter((item) => item.json.confirmed === true)).toHaveLength(100);
		const made = keyed.createdPrintJobs().length;
		const rerun = await n8n.execute(WORKFLOWS.rerunSort.id);
		expect(keyed.createdPrintJobs()).toHaveLength(made);
		expect(items(rerun.result).every((item) => /\("list-order"\)/.test(String(item.json.error)))).toBe(true);
	});

	it('a fresh process at 12,000 jobs whose lookups ignore the reference: it reads the window instead and posts nothing twice', async () => {
		const made = keyed.createdPrintJobs().length;
		const rerun = await n8n.execute(WORKFLOWS.rerunRef.id);
		expect(items(rerun.result).map((item) => item.json.already_sent)).toEqual([true, true, true]);
		expect(keyed.createdPrintJobs()).toHaveLength(made);
	});
});
