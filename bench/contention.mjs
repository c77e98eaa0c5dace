#!/usr/bin/env node
// `npm run bench:contention`: n8n processes that share one key's daily limit, through real n8n (issue 47).
//
// 1, 2, 3, 4 and 8 `n8n execute` processes at once (each an n8n of its own, with its own database, as separate
// installs or workers are), 300 live letters each (£1.02 after tax) under a daily limit of £100, against the fake API
// listing new jobs and confirms 0, 1 and 5 s late; each configuration repeated. For each run: letters confirmed, £ past
// the limit (goal 0), drafts left (goal at most one per process), requests per letter confirmed, the span of the API
// requests (first to last, so n8n's own start-up is left out) and that span against one process's.
// BENCH_PROCESSES, BENCH_DELAYS, BENCH_REPEATS and BENCH_ITEMS narrow it. JavaScript through tsx, as scripts/dev.mjs.
import fs from 'fs-extra';

import serverModule from '../test/fake-api/server.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { markdownTable } from './measure.mjs';

const { startFakeIntelliprint } = serverModule;
const { installN8n, N8nInstance } = runnerModule;
const say = (text) => process.stdout.write(`${text}\n`);
const list = (name, fallback) => (process.env[name] || fallback).split(',').map(Number);

const PROCESSES = list('BENCH_PROCESSES', '1,2,3,4,8');
const DELAYS = list('BENCH_DELAYS', '0,1,5');
const REPEATS = Number(process.env.BENCH_REPEATS || 2);
const ITEMS = Number(process.env.BENCH_ITEMS || 300);
const DAILY = 100;

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const rowsCode = `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { name: 'Customer ' + (i + 1), address: (i + 1) + ' High Street\\nLeeds', postcode: 'LS1 4AP' } }));`;
const workflow = (id) => ({
	id, name: id, active: false, pinData: {}, settings: { executionOrder: 'v1' },
	nodes: [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Rows', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: rowsCode }),
		node('Create', 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, 0], {
			resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}, your statement is enclosed.</p>', recipientsFrom: 'eachItem',
			recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: false, confirmed: true,
		}, { credentials: { intelliprintApi: { id, name: id } }, onError: 'continueRegularOutput' }),
	],
	connections: { Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } },
});

await installN8n();
const runs = DELAYS.flatMap((delay) => PROCESSES.flatMap((processes) => Array.from({ length: REPEATS }, (_, repeat) => ({ delay, processes, repeat, id: `ipCont${delay}p${processes}r${repeat}`.padEnd(16, '0') }))));
for (const run of runs) run.fake = await startFakeIntelliprint({ rateLimit: false, listingDelayMs: run.delay * 1000 });
const credentials = runs.map((run) => ({ id: run.id, name: run.id, type: 'intelliprintApi', data: { apiKey: run.fake.apiKey, baseUrl: run.fake.url, dailySpendingLimit: DAILY, rateLimitRequests: 100_000 } }));
const instances = [];
for (let i = 0; i < Math.max(...PROCESSES); i++) {
	const instance = await N8nInstance.create(`bench-contention-${i}`);
	const files = await Promise.all(runs.map(async (run) => {
		const file = `${instance.userFolder}/bench-workflows/${run.id}.json`;
		await fs.outputJson(file, workflow(run.id));
		return file;
	}));
	await instance.importCredentials(credentials);
	await instance.importWorkflows(files);
	instances.push(instance);
}

const rows = [];
const alone = new Map();
for (const run of runs) {
	say(`running: ${run.processes} process(es), list ${run.delay} s late, run ${run.repeat + 1}...`);
	const started = Date.now();
	const results = await Promise.all(instances.slice(0, run.processes).map(async (instance) => await instance.execute(run.id)));
	const wall = (Date.now() - started) / 1000;
	const jobs = [...run.fake.prints.jobs.values()];
	const confirmed = jobs.filter((job) => job.confirmed && !job.testmode);
	const spent = confirmed.reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
	const requests = run.fake.requests.filter((request) => !request.path.startsWith('files:'));
	const span = requests.length ? (requests.at(-1).at - requests[0].at) / 1000 : 0;
	if (run.processes === 1) alone.set(run.delay, [...(alone.get(run.delay) ?? []), span]);
	const baseline = alone.get(run.delay)?.reduce((sum, value) => sum + value, 0) / (alone.get(run.delay)?.length || 1);
	rows.push({
		processes: run.processes,
		'list late s': run.delay,
		run: run.repeat + 1,
		'letters confirmed': confirmed.length,
		'£ confirmed': spent.toFixed(2),
		'£ over': Math.max(0, spent - DAILY).toFixed(2),
		'drafts left': jobs.length - confirmed.length,
		'requests per letter': (requests.length / Math.max(1, confirmed.length)).toFixed(2),
		'API span s': span.toFixed(1),
		'× one process': baseline ? (span / baseline).toFixed(1) : '-',
		'wall s (with n8n start)': wall.toFixed(0),
		'exit codes': results.map((result) => result.exitCode).join(' '),
	});
	say(JSON.stringify(rows.at(-1)));
}
await Promise.all(runs.map((run) => run.fake.stop()));

const heading = `Processes sharing a daily limit, n8n ${instances[0].line === 1 ? '1.x' : '2.41.1'}, ${new Date().toISOString().slice(0, 10)}: ${ITEMS} live letters per process at £1.02 after tax under a daily limit of £${DAILY} on one key (98 fit), the fake API listing new jobs and confirms late as shown, no rate limit. "API span" is the first to the last request the API saw; "× one process" compares it with one process alone at the same delay.`;
say('');
say(heading);
console.table(rows);
const markdown = ['# Processes sharing a daily limit', '', 'Written by `npm run bench:contention` (bench/contention.mjs) on the machine it last ran on.', '', heading, '', ...markdownTable(rows), ''];
await fs.outputFile(new URL(process.env.BENCH_PROCESSES || process.env.BENCH_DELAYS ? '../.bench/RESULTS-contention.md' : './RESULTS-contention.md', import.meta.url).pathname, markdown.join('\n'));
