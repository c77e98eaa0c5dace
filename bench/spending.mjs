#!/usr/bin/env node
// `npm run bench:spending`: what the spending limits cost and what they hold, through real n8n.
//
// 1. The price of safety: 300 live letters of Each Item (Confirm on, £1.02 each after tax) against the fake API with
//    the API's rate shape (100 requests per window; the window shortened from 60 s for speed, minutes given at the
//    real 60 s), with no limit, with a daily limit of £100, and n8n's HTTP Request node as a user has it today (one
//    create with confirmed=true per item, no limit it could keep): requests per letter, minutes, £ past the limit.
// 2. The bound across processes: two and three `n8n execute` at once, 30 letters each under a daily limit of £10, with
//    the API listing each confirm 0, 1 and 5 s late: the total confirmed and how far past the limit.
//
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import fs from 'fs-extra';

import serverModule from '../test/fake-api/server.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { markdownTable, measuredRun } from './measure.mjs';

const { startFakeIntelliprint } = serverModule;
const { installN8n, N8nInstance } = runnerModule;
const say = (text) => process.stdout.write(`${text}\n`);

const N = Number(process.env.BENCH_ITEMS || 300);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS || 10_000);
const LIMIT = { requests: 100, windowMs: WINDOW_MS };
const DAILY = 100;
const BOUND = { letters: 30, daily: 10, delays: (process.env.BENCH_DELAYS || '0,1,5').split(',').map(Number), processes: [2, 3] };

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const rowsCode = (count) =>
	`return Array.from({ length: ${count} }, (_, i) => ({ json: { name: 'Customer ' + (i + 1), address: (i + 1) + ' High Street\\nLeeds', postcode: 'LS1 4AP' } }));`;
function workflow(id, count, create) {
	const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}), node('Rows', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: rowsCode(count) }), create];
	const connections = { Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } };
	return { id, name: id, nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}
const intelliprintCreate = (credentialId) =>
	node('Create', 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, 0], {
		resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}, your statement is enclosed.</p>', recipientsFrom: 'eachItem',
		recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: false, confirmed: true,
	}, { credentials: { intelliprintApi: { id: credentialId, name: credentialId } }, onError: 'continueRegularOutput' });
/** The HTTP Request node as a user sets it up today: JSON, bearer header, Retry On Fail, Continue On Fail. */
const httpCreate = (apiUrl) =>
	node('Create', 'n8n-nodes-base.httpRequest', 4.2, [400, 0], {
		method: 'POST', url: `${apiUrl}/prints`, authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth', sendBody: true, specifyBody: 'json',
		jsonBody: "={{ JSON.stringify({ content: '<p>Dear ' + $json.name + ', your statement is enclosed.</p>', recipients: [{ address: { name: $json.name, line: $json.address, postcode: $json.postcode, country: 'GB' } }], testmode: false, confirmed: true }) }}",
		options: {},
	}, { credentials: { httpHeaderAuth: { id: 'ipSpendHeader001', name: 'bearer' } }, retryOnFail: true, maxTries: 3, waitBetweenTries: 1000, onError: 'continueRegularOutput' });

const liveGbp = (fake) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
const apiRequests = (fake) => fake.requests.filter((request) => !request.path.startsWith('files:')).length;

await installN8n();
const n8n = await N8nInstance.create('bench-spending');
// Each run its own fake API, so its own day and its own rate window.
const price = [
	{ label: 'this node, no limit', id: 'ipSpendNoLimit01', daily: 0 },
	{ label: `this node, daily limit £${DAILY}`, id: 'ipSpendDaily0001', daily: DAILY },
	// The price of the check while the day is far from its limit: every letter fits and is confirmed.
	{ label: 'this node, daily limit £1,000 (far from it)', id: 'ipSpendFar000001', daily: 1000 },
	{ label: 'HTTP Request node (no limit possible)', id: 'ipSpendHttp00001', daily: 0, http: true },
];
const bound = BOUND.delays.flatMap((delay) => BOUND.processes.map((processes) => ({ delay, processes, id: `ipSpendBound${delay}${processes}`.padEnd(16, '0') })));
for (const run of [...price, ...bound]) run.fake = await startFakeIntelliprint({ rateLimit: run.delay === undefined ? LIMIT : false, listingDelayMs: (run.delay ?? 0) * 1000 });
await n8n.importCredentials([
	...[...price, ...bound].map((run) => ({
		id: run.id, name: run.id, type: 'intelliprintApi',
		data: {
			apiKey: run.fake.apiKey, baseUrl: run.fake.url, dailySpendingLimit: run.daily ?? BOUND.daily,
			...(run.delay === undefined ? { rateLimitRequests: LIMIT.requests, rateLimitWindowSeconds: WINDOW_MS / 1000, maxWaitSeconds: 600 } : { rateLimitRequests: 100_000 }),
		},
	})),
	{ id: 'ipSpendHeader001', name: 'bearer', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${price[2].fake.apiKey}` } },
]);
const folder = `${n8n.userFolder}/bench-workflows`;
const files = [];
for (const run of price) files.push([run.id, workflow(run.id, N, run.http ? httpCreate(run.fake.url) : intelliprintCreate(run.id))]);
for (const run of bound) files.push([run.id, workflow(run.id, BOUND.letters, intelliprintCreate(run.id))]);
await n8n.importWorkflows(await Promise.all(files.map(async ([id, wf]) => {
	await fs.outputJson(`${folder}/${id}.json`, wf);
	return `${folder}/${id}.json`;
})));

const priceRows = [];
// BENCH_PART=price or bound runs only that part.
for (const run of process.env.BENCH_PART === 'bound' ? [] : price) {
	say(`running: ${run.label}...`);
	const measured = await measuredRun(n8n, run.id);
	const spent = liveGbp(run.fake);
	const requests = apiRequests(run.fake);
	const limitFor = run.daily || DAILY;
	priceRows.push({
		run: run.label,
		letters: N,
		'letters confirmed': [...run.fake.prints.jobs.values()].filter((job) => job.confirmed).length,
		'£ confirmed': spent.toFixed(2),
		'£ past its limit (£100 where none)': Math.max(0, spent - limitFor).toFixed(2),
		'API requests': requests,
		'requests per letter': (requests / N).toFixed(2),
		'Create step s': measured.stepSeconds?.toFixed(1) ?? '-',
		'minutes at 100/min': (((measured.stepSeconds ?? measured.seconds) * (60_000 / WINDOW_MS)) / 60).toFixed(1),
		'429s': run.fake.rateLimited,
	});
}

const boundRows = [];
for (const run of process.env.BENCH_PART === 'price' ? [] : bound) {
	say(`running: ${run.processes} processes, list ${run.delay} s late...`);
	const started = Date.now();
	await Promise.all(Array.from({ length: run.processes }, () => n8n.execute(run.id)));
	const spent = liveGbp(run.fake);
	boundRows.push({
		'listing delay s': run.delay,
		processes: run.processes,
		'letters each': BOUND.letters,
		[`£ confirmed under £${BOUND.daily}`]: spent.toFixed(2),
		'£ past the limit': Math.max(0, spent - BOUND.daily).toFixed(2),
		'letters past': Math.max(0, Math.round((spent - BOUND.daily) / 1.02 + 0.49)),
		'stated bound (one letter per other process)': `£${(BOUND.daily + (run.processes - 1) * 1.02).toFixed(2)}`,
		'wall s': ((Date.now() - started) / 1000).toFixed(0),
	});
}
await Promise.all([...price, ...bound].map((run) => run.fake.stop()));

const heading = [
	`Spending limits benchmark, n8n 2.41.1, ${new Date().toISOString().slice(0, 10)}. Price: ${N} live letters of Each Item at £1.02 after tax, fake API with the rate shape ${LIMIT.requests} requests per ${WINDOW_MS / 1000} s (the API's 100 a minute, window shortened); "minutes at 100/min" scales the Create step's time to the real 60 s window.`,
	`Bound: ${BOUND.processes.join(' and ')} n8n processes (\`n8n execute\`) at once, ${BOUND.letters} letters each under a daily limit of £${BOUND.daily}, with the API listing each confirm ${BOUND.delays.join(' / ')} s after it happened.`,
];
say('');
heading.forEach((line) => say(line));
console.table(priceRows);
console.table(boundRows);
const markdown = ['# Spending limits: price and bound', '', 'Written by `npm run bench:spending` (bench/spending.mjs) on the machine it last ran on.', '', ...heading.map((line) => `${line}  `), '', ...[priceRows, boundRows].filter((rows) => rows.length).flatMap((rows) => [...markdownTable(rows), ''])];
// A partial run (BENCH_PART) goes to .bench, to be copied in by hand.
await fs.outputFile(new URL(process.env.BENCH_PART ? '../.bench/RESULTS-spending.md' : './RESULTS-spending.md', import.meta.url).pathname, markdown.join('\n'));
