#!/usr/bin/env node
// `npm run bench:history`: what a big sender's account costs the node (issue 42), through real n8n 2.41.1 (sqlite)
// against the fake API holding a history on demand (test/fake-api/history.ts: hundreds of thousands of past jobs, a list
// answered in milliseconds).
//
// (a) A run in a fresh n8n process (`n8n execute`, one process per run): 100 items, Print Job → Create from content, Each
//     Item, Test Mode off (live: the history is live jobs, as a sender's is), Confirm on, no daily limit, Skip Items
//     Already Sent keyed by the row's `ref`, against an account holding 0 / 10,000 / 100,000 / 300,000 / 510,000 jobs in
//     the 30-day look-back. With a history, 50 of the 100 keys are already on it (spread evenly over the 30 days;
//     BENCH_SENT_AT=newest puts them on the newest jobs instead): the run should make 50 letters and skip 50. And n8n's
//     HTTP Request node on the biggest account (one create per item, nothing it could skip).
// (a2) The same run again in the same n8n process: one `n8n start` (port 5723, its own user folder), workflows run over
//     its REST API as the editor's "Execute workflow" does (test/e2e/server.ts). Per account: the run above (cold: the
//     process's first read of that account), then the same 100 items again (the rerun: every key now sent, it should
//     create nothing). The accounts: the sizes above with 50 keys spread over the 30 days, the same with the 50 on the
//     newest jobs (where a rerun after a failure finds them), and the biggest with all 100 keys on its newest jobs.
// (b) The daily limit in a fresh process: 20 live letters under a daily limit far away (£1,000,000), with 0 / 1,000 /
//     10,000 / 20,000 live jobs confirmed earlier today (UK day) among 100,000 older ones.
// (b2) The same in one process: 20 letters, then 20 more (the second batch is what a process that already knows today
//     pays per letter).
// (c) The spending bench's cases, smaller: no limit, a far limit (£1,000), £100 with items past it (150 items), the list
//     showing each confirm 1 s late (30 items). The bound across two and three processes is bench:spending's.
//
// The fake has no rate limit and the credential lets the node send freely, so the bench takes minutes; "minutes at
// 100/min" is the request count over the API's 100 requests a minute: the least time the run takes at the real limit.
//
// BENCH_PACKAGE_DIR=<a clone or worktree with its dist built>: measure that build instead of this repo's, as "before"
// (BENCH_AS=before|after says which columns; default after, or before when BENCH_PACKAGE_DIR is given). Each run
// keeps the other side's figures: they live in bench/RESULTS-history.md itself (the JSON at its end).
// BENCH_PART=a,a2,b,b2,c runs only those tables (the others' figures are kept; BENCH_PART=none only rewrites the file).
// BENCH_HISTORY_SIZES=0,10000 sizes tables (a) and (a2). BENCH_SERVER_PORT moves (a2)'s and (b2)'s n8n off 5723.
//
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import execa from 'execa';
import fs from 'fs-extra';
import { createRequire } from 'node:module';

import serverModule from '../test/fake-api/server.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { keysOnMoreThanOneJob, markdownTable } from './measure.mjs';

const { startFakeIntelliprint } = serverModule;
const { installN8n, N8nInstance, ROOT, usePackage } = runnerModule;
// test/e2e/server.ts asks vitest for the suite's n8n (suiteN8n, not used here), and vitest refuses to load outside its
// runner: it is stood in for, in this process only, before server.ts is loaded.
const require = createRequire(import.meta.url);
const vitestPath = require.resolve('vitest');
require.cache[vitestPath] = { id: vitestPath, filename: vitestPath, loaded: true, exports: { inject: () => { throw new Error('bench:history has no vitest suite'); } } };
const { N8nServer } = await import('../test/e2e/server.ts');

const say = (text) => process.stdout.write(`${text}\n`);
const started = Date.now();

const PACKAGE_DIR = process.env.BENCH_PACKAGE_DIR || ROOT;
const SIDE = process.env.BENCH_AS || (process.env.BENCH_PACKAGE_DIR ? 'before' : 'after');
if (SIDE !== 'before' && SIDE !== 'after') throw new Error(`BENCH_AS=${SIDE}: before or after`);
const TABLES = ['a', 'a2', 'b', 'b2', 'c'];
const PARTS = (process.env.BENCH_PART || TABLES.join(',')).split(',');
const SIZES = (process.env.BENCH_HISTORY_SIZES || '0,10000,100000,300000,510000').split(',').map(Number);
const SENT_AT = process.env.BENCH_SENT_AT || 'spread';
/** (a2)'s and (b2)'s n8n: clear of the suite's (5689, 5789), the process tests' (5691, 5695 and 100 up), the sandbox (5680, 5681), the webhook benches' (5697), bench:scale's and the queue cluster's. */
const SERVER_PORT = Number(process.env.BENCH_SERVER_PORT || 5723);
const ITEMS = 100;
const SENT = 50;
const TODAY = [0, 1_000, 10_000, 20_000];
const TODAY_LETTERS = 20;
const OLDER = 100_000;
const RESULTS = new URL('./RESULTS-history.md', import.meta.url).pathname;

/** The package measured, as its git commit says (and whether its tracked files differ from it). */
async function describePackage(dir) {
	const git = async (...args) => (await execa('git', ['-C', dir, ...args], { reject: false })).stdout.trim();
	const commit = await git('rev-parse', '--short', 'HEAD');
	const dirty = (await git('status', '--porcelain', '--untracked-files=no')) !== '';
	return `${commit || 'unknown'}${dirty ? ' with uncommitted changes' : ''}${dir === ROOT ? '' : ` (${dir})`}`;
}
// The bench's own folder: the e2e suites clear .e2e/runs/n8n<line> when they start, and may start while this runs.
const WORK = `${ROOT}/.e2e/bench-history`;
await fs.emptyDir(WORK);
if (PACKAGE_DIR !== ROOT) {
	// That build as users get it: npm pack of its dist (built there first with `npx n8n-node build`).
	if (!(await fs.pathExists(`${PACKAGE_DIR}/dist/nodes/Intelliprint/Intelliprint.node.js`))) throw new Error(`${PACKAGE_DIR} has no dist: run npx n8n-node build there`);
	const aside = `${WORK}/pack`;
	await fs.ensureDir(aside);
	const { stdout } = await execa('npm', ['pack', '--pack-destination', aside, '--json', '--ignore-scripts'], { cwd: PACKAGE_DIR });
	usePackage(`${aside}/${JSON.parse(stdout)[0].filename}`);
}
const measuredPackage = await describePackage(PACKAGE_DIR);


// Workflows ---------------------------------------------------------------------------------------------------------
const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const ref = (i) => `INV-${String(i + 1).padStart(4, '0')}`;
const rowsCode = (count) =>
	`return Array.from({ length: ${count} }, (_, i) => ({ json: { name: 'Customer ' + (i + 1), address: (i + 1) + ' High Street\\nLeeds', postcode: 'LS1 4AP', ref: 'INV-' + String(i + 1).padStart(4, '0') } }));`;
function workflow(id, count, create) {
	const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}), node('Rows', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: rowsCode(count) }), create];
	const connections = { Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } };
	return { id, name: id, nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}
const intelliprintCreate = (credentialId, options = {}) =>
	node('Create', 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, 0], {
		resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}, your statement is enclosed.</p>', recipientsFrom: 'eachItem',
		recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: false, confirmed: true, options,
	}, { credentials: { intelliprintApi: { id: credentialId, name: credentialId } }, onError: 'continueRegularOutput' });
/** The HTTP Request node as a user sets it up (bench/spending.mjs), the row's key in the job's metadata so that duplicates can be counted the same way. */
const httpCreate = (apiUrl) =>
	node('Create', 'n8n-nodes-base.httpRequest', 4.2, [400, 0], {
		method: 'POST', url: `${apiUrl}/prints`, authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth', sendBody: true, specifyBody: 'json',
		jsonBody: "={{ JSON.stringify({ content: '<p>Dear ' + $json.name + ', your statement is enclosed.</p>', recipients: [{ address: { name: $json.name, line: $json.address, postcode: $json.postcode, country: 'GB' } }], testmode: false, confirmed: true, metadata: { n8n_sent_key: $json.ref } }) }}",
		options: {},
	}, { credentials: { httpHeaderAuth: { id: 'ipHistHeader0001', name: 'bearer' } }, retryOnFail: true, maxTries: 3, waitBetweenTries: 1000, onError: 'continueRegularOutput' });

// Cases -------------------------------------------------------------------------------------------------------------
/** History index of the k-th of `sent` already-sent keys (0 = the oldest job): spread evenly, or on the newest jobs. */
const sentIndex = (count, at, sent, k) => (at === 'newest' ? count - sent + k : Math.floor(((k + 0.5) * count) / sent));
const cases = [];
/** A credential and workflow ID of n8n's 16 characters, unique per case. */
const idFor = (text) => `${text.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}${String(cases.length).padStart(4, '0')}`;
/**
 * The keys of a history of `count` jobs: `sent` of the run's keys at their indices (50: the odd rows' INV-0001,
 * INV-0003…; all 100: every row's), other keys elsewhere.
 */
function sentKeys(count, at = SENT_AT, sent = SENT) {
	const byIndex = new Map(Array.from({ length: sent }, (_, k) => [sentIndex(count, at, sent, k), sent === ITEMS ? ref(k) : ref(k * 2)]));
	return (i) => byIndex.get(i) ?? `hist-${i}`;
}
const keyed = { sentKey: '={{ $json.ref }}' };
const biggest = Math.max(...SIZES);
if (PARTS.includes('a')) {
	for (const size of SIZES) {
		cases.push({
			table: 'a', key: `jobs ${size}`, jobs: size, id: idFor(`ipHistA${size}`), items: ITEMS,
			history: size > 0 ? { count: size, days: 30, sentKeys: sentKeys(size) } : undefined, options: keyed,
		});
	}
	cases.push({ table: 'a', key: `http ${biggest}`, jobs: biggest, id: 'ipHistAHttp00001', items: ITEMS, http: true, history: biggest > 0 ? { count: biggest, days: 30, sentKeys: sentKeys(biggest) } : undefined });
}
if (PARTS.includes('a2')) {
	// Where the already-sent keys are: spread over the 30 days, or the newest jobs (50 of the run's, or all 100).
	const accounts = [
		...SIZES.map((size) => ({ shape: 'spread', size, sent: size > 0 ? SENT : 0 })),
		...SIZES.filter((size) => size > 0).map((size) => ({ shape: 'newest', size, sent: SENT })),
		...(biggest > 0 ? [{ shape: 'all', size: biggest, sent: ITEMS }] : []),
	];
	for (const { shape, size, sent } of accounts) {
		cases.push({
			table: 'a2', key: `${shape} ${size}`, shape, jobs: size, sent, id: idFor(`ipHistA2${shape}${size}`), items: ITEMS, server: true, runs: ['cold', 'rerun'],
			history: size > 0 ? { count: size, days: 30, sentKeys: sentKeys(size, shape === 'spread' ? 'spread' : 'newest', sent) } : undefined, options: keyed,
		});
	}
}
for (const table of ['b', 'b2']) {
	if (!PARTS.includes(table)) continue;
	for (const today of TODAY) {
		cases.push({
			table, key: `today ${today}`, today, id: idFor(`ipHist${table}${today}`), items: TODAY_LETTERS, daily: 1_000_000,
			history: { count: OLDER + today, days: 30, confirmedToday: today, sentKeys: null }, ...(table === 'b2' ? { server: true, runs: ['first', 'second'] } : {}),
		});
	}
}
if (PARTS.includes('c')) {
	cases.push(
		{ table: 'c', key: 'no limit', label: 'no limit', id: 'ipHistCNoLimit01', items: 100, daily: 0 },
		{ table: 'c', key: 'far', label: 'daily limit £1,000 (far from it)', id: 'ipHistCFar00001', items: 100, daily: 1000 },
		{ table: 'c', key: 'past', label: 'daily limit £100, 150 items (52 past it)', id: 'ipHistCPast0001', items: 150, daily: 100 },
		{ table: 'c', key: 'late', label: 'daily limit £1,000, list 1 s late, 30 items', id: 'ipHistCLate0001', items: 30, daily: 1000, listingDelayMs: 1000 },
	);
}
const inProcess = cases.filter((run) => !run.server);
const onServer = cases.filter((run) => run.server);

// BENCH_PART=none: no runs, RESULTS-history.md written again from the figures it holds.
if (cases.length) {
	say(`bench:history: measuring ${measuredPackage} as "${SIDE}"`);
	await installN8n();
}
for (const run of cases) {
	run.fake = await startFakeIntelliprint({ rateLimit: false, listingDelayMs: run.listingDelayMs ?? 0 });
	if (run.history) run.fake.seedHistory(run.history);
}
const credentialOf = (run) => ({
	id: run.id, name: run.id, type: 'intelliprintApi',
	data: { apiKey: run.fake.apiKey, baseUrl: run.fake.url, dailySpendingLimit: run.daily ?? 0, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60 },
});
/** Each case's workflow, written to a file of its own (both kinds of n8n import files). */
async function workflowFiles(runs) {
	return await Promise.all(runs.map(async (run) => {
		const create = run.http ? httpCreate(run.fake.url) : intelliprintCreate(run.id, run.options);
		const file = `${WORK}/workflows/${run.id}.json`;
		await fs.outputJson(file, workflow(run.id, run.items, create));
		return file;
	}));
}

// Measuring ---------------------------------------------------------------------------------------------------------
const isApi = (request) => !request.path.startsWith('files:');
const isList = (request) => request.method === 'GET' && /^\/v1(-moved)?\/prints\/?$/.test(request.path);
const isCreate = (request) => request.method === 'POST' && /^\/v1(-moved)?\/prints\/?$/.test(request.path);
const isConfirm = (request) =>
	(request.method === 'POST' && /^\/v1(-moved)?\/prints\/[^/]+$/.test(request.path) && [true, 'true'].includes(request.body?.confirmed)) ||
	(isCreate(request) && [true, 'true'].includes(request.body?.confirmed));
/** What the run's items say: ok, or how many failed and the first failure's words; or the run's own error. */
function outcome(executed) {
	const { items, error } = N8nInstance.node(executed.result, 'Create');
	const runError = executed.result?.data.resultData.error;
	if (error || runError || items.length === 0) return `run failed: ${(error ?? runError)?.message ?? `exit code ${executed.exitCode}, no output`}`;
	const failed = items.filter((item) => item.json.error !== undefined);
	if (failed.length === 0) return 'ok';
	const first = failed[0].json;
	const message = String(first.error?.message ?? first.error ?? first.message ?? 'failed').replace(/\s+/g, ' ').slice(0, 160);
	return `${failed.length} of ${items.length} items failed: "${message}"`;
}
/** Where the fake's counts stand before a run: the run's figures are what it adds. */
const markOf = (fake) => ({ requests: fake.requests.length, created: fake.createdPrintJobs().length, slow: fake.prints.history?.slowLists ?? 0 });
/** One run's figures: what it added to its fake's requests and jobs since `mark`. */
function measure(run, executed, mark, wallSeconds) {
	const requests = run.fake.requests.slice(mark.requests).filter(isApi);
	const lists = requests.filter(isList).length;
	const created = run.fake.createdPrintJobs().slice(mark.created);
	const letters = created.filter((job) => job.confirmed).length;
	const { items } = N8nInstance.node(executed.result, 'Create');
	const step = executed.result?.data.resultData.runData.Create?.[0]?.executionTime;
	const slow = (run.fake.prints.history?.slowLists ?? 0) - mark.slow;
	if (!executed.result) say(`  n8n's output ended:\n${executed.output.slice(-3000)}`);
	if (slow > 0) say(`  note: the fake answered ${slow} lists from the whole history (a query its fast path does not know): slow, but right`);
	// Requests after the run's last confirm: what the items the day could not take cost (goal 0), when some were refused.
	const lastConfirm = requests.findLastIndex(isConfirm);
	const afterFull = run.daily > 0 && letters < run.items && lastConfirm !== -1 ? requests.slice(lastConfirm + 1) : undefined;
	// Under a daily limit, the reads before the run's first confirm: a process's first check reads the whole day.
	const firstConfirm = requests.findIndex(isConfirm);
	return {
		jobs: run.history?.count ?? 0,
		items: run.items,
		listRequests: lists,
		requests: requests.length,
		perLetter: letters > 0 ? requests.length / letters : null,
		created: created.length,
		letters,
		skipped: items.filter((item) => item.json.already_sent === true).length,
		drafts: created.filter((job) => !job.confirmed && run.fake.prints.jobs.has(job.id)).length,
		duplicates: run.table.startsWith('a') ? keysOnMoreThanOneJob(run.fake, Array.from({ length: run.items }, (_, i) => ref(i))) : undefined,
		afterFull: afterFull ? { requests: afterFull.length, lists: afterFull.filter(isList).length, creates: afterFull.filter(isCreate).length } : undefined,
		readsBeforeFirstConfirm: run.daily > 0 && firstConfirm !== -1 ? requests.slice(0, firstConfirm).filter(isList).length : undefined,
		gbp: created.filter((job) => job.confirmed).reduce((sum, job) => sum + (run.fake.prints.jobs.get(job.id)?.cost.after_tax ?? 0), 0) / 1e8,
		outcome: outcome(executed),
		stepSeconds: typeof step === 'number' ? step / 1000 : null,
		wallSeconds,
		rateLimited: run.fake.rateLimited,
		slowLists: slow,
	};
}

const figures = Object.fromEntries(TABLES.map((table) => [table, {}]));
const timings = {};
/** Runs a case's workflow (once, or once per entry of run.runs in the same n8n) and keeps its figures. */
async function measureCase(n8n, run) {
	const t0 = Date.now();
	const results = {};
	for (const name of run.runs ?? ['run']) {
		say(`running (${run.table}) ${run.label ?? run.key}${run.history ? ` [history ${run.history.count}]` : ''}${run.runs ? `, ${name}` : ''}...`);
		const mark = markOf(run.fake);
		const t1 = Date.now();
		const executed = await n8n.execute(run.id);
		results[name] = measure(run, executed, mark, (Date.now() - t1) / 1000);
		say(`  ${JSON.stringify(results[name])}`);
	}
	figures[run.table][run.key] = run.runs ? { jobs: run.history?.count ?? 0, shape: run.shape, sent: run.sent, ...results } : results.run;
	timings[run.table] = (timings[run.table] ?? 0) + (Date.now() - t0) / 1000;
	await run.fake.stop();
}

// A fresh n8n process per run: `n8n execute`.
if (inProcess.length) {
	const n8n = await N8nInstance.create('bench-history', {}, `${WORK}/n8n`);
	const httpRun = inProcess.find((run) => run.http);
	await n8n.importCredentials([
		...inProcess.filter((run) => !run.http).map(credentialOf),
		...(httpRun ? [{ id: 'ipHistHeader0001', name: 'bearer', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${httpRun.fake.apiKey}` } }] : []),
	]);
	await n8n.importWorkflows(await workflowFiles(inProcess));
	for (const run of inProcess) await measureCase(n8n, run);
}
// One n8n process for every run: `n8n start`, driven over its REST API as the e2e suite drives it.
if (onServer.length) {
	const instance = await N8nInstance.create('bench-history-server', {}, `${WORK}/n8n-server`);
	await instance.start(SERVER_PORT);
	try {
		const server = await N8nServer.attach(instance);
		await server.importCredentials(onServer.map(credentialOf));
		await server.importWorkflows(await workflowFiles(onServer));
		for (const run of onServer) await measureCase(server, run);
	} finally {
		await instance.stop();
	}
}

// Results -----------------------------------------------------------------------------------------------------------
const MARK = '<!-- bench:history figures (read and rewritten by bench/history.mjs; keep this line and the JSON below it) -->';
const previous = (await fs.pathExists(RESULTS)) ? await fs.readFile(RESULTS, 'utf8') : '';
const kept = previous.includes(MARK) ? JSON.parse(previous.slice(previous.indexOf(MARK) + MARK.length).replace(/^\s*```json\s*|\s*```\s*$/g, '')) : {};
const sides = { before: kept.before ?? null, after: kept.after ?? null };
if (cases.length) {
	// A partial run (BENCH_PART or other sizes) keeps this side's other figures, and the time its other tables took.
	const earlier = sides[SIDE];
	const ours = {
		package: measuredPackage, date: new Date().toISOString().slice(0, 16).replace('T', ' '), sentAt: SENT_AT,
		timings: { ...(earlier?.timings ?? {}), ...Object.fromEntries(Object.entries(timings).map(([table, seconds]) => [table, Math.round(seconds)])) },
		seconds: Math.round((Date.now() - started) / 1000),
		figures: { ...(earlier?.figures ?? {}) },
	};
	if (earlier && earlier.package !== measuredPackage) say(`note: "${SIDE}" held figures of ${earlier.package}; those of tables not run now are kept beside ${measuredPackage}'s`);
	for (const table of TABLES) ours.figures[table] = { ...(ours.figures[table] ?? {}), ...figures[table] };
	sides[SIDE] = ours;
}

const PENDING = '_pending_';
const fmt = {
	int: (value) => (value === undefined || value === null ? '-' : Number(value).toLocaleString('en-GB')),
	ratio: (value) => (value === undefined || value === null ? '-' : value.toFixed(2)),
	minutes: (figure) => (figure ? (figure.requests / 100).toFixed(2) : '-'),
};
const figureOf = (side, table, key, run) => {
	const figure = sides[side]?.figures?.[table]?.[key];
	return run ? figure?.[run] : figure;
};
/** Cells for each metric, before and after side by side: the figure, or a placeholder where that side has none. */
const columns = (table, key, metrics, run) => {
	const row = {};
	for (const [name, read] of metrics) {
		for (const side of ['before', 'after']) {
			const figure = figureOf(side, table, key, run);
			row[`${name}, ${side}`] = figure ? read(figure) : PENDING;
		}
	}
	return row;
};
const keysOf = (table) => [...new Set(['before', 'after'].flatMap((side) => Object.keys(sides[side]?.figures?.[table] ?? {})))];
const sizeOf = (key) => Number(key.split(' ')[1]);
const isHttp = (key) => key.startsWith('http');
const anyFigure = (table, key) => figureOf('after', table, key) ?? figureOf('before', table, key);
const outcomeCell = (f) => f.outcome;

const aRows = keysOf('a').sort((x, y) => isHttp(x) - isHttp(y) || sizeOf(x) - sizeOf(y)).map((key) => {
	const { jobs } = anyFigure('a', key);
	return {
		'jobs in the 30-day look-back': isHttp(key) ? `HTTP Request node, ${fmt.int(jobs)} jobs` : fmt.int(jobs),
		'keys already sent': jobs === 0 ? 0 : SENT,
		...columns('a', key, [
			['list requests', (f) => fmt.int(f.listRequests)],
			['all requests', (f) => fmt.int(f.requests)],
			['requests per letter', (f) => fmt.ratio(f.perLetter)],
			['letters created', (f) => fmt.int(f.created)],
			['skipped as sent', (f) => fmt.int(f.skipped)],
			['duplicates', (f) => fmt.int(f.duplicates)],
			['minutes at 100/min', fmt.minutes],
			['outcome', outcomeCell],
		]),
	};
});
const SHAPES = ['spread', 'newest', 'all'];
const shapeText = { spread: (sent) => `${sent}, spread over the 30 days`, newest: (sent) => `${sent}, the newest jobs`, all: (sent) => `all ${sent}, the newest jobs` };
const a2Rows = keysOf('a2')
	.sort((x, y) => SHAPES.indexOf(x.split(' ')[0]) - SHAPES.indexOf(y.split(' ')[0]) || sizeOf(x) - sizeOf(y))
	.flatMap((key) => {
		const { jobs, shape, sent } = anyFigure('a2', key);
		return [['cold', 'first run in the process'], ['rerun', 'the same 100 again']].map(([run, label]) => ({
			'jobs in the 30-day look-back': fmt.int(jobs),
			'keys already sent before the first run': sent === 0 ? '0' : shapeText[shape](sent),
			run: label,
			...columns('a2', key, [
				['list requests', (f) => fmt.int(f.listRequests)],
				['all requests', (f) => fmt.int(f.requests)],
				['letters created', (f) => fmt.int(f.created)],
				['duplicates', (f) => fmt.int(f.duplicates)],
				['minutes at 100/min', fmt.minutes],
				['outcome', outcomeCell],
			], run),
		}));
	});
const todayMetrics = [
	['list requests', (f) => fmt.int(f.listRequests)],
	['all requests', (f) => fmt.int(f.requests)],
	['letters confirmed', (f) => fmt.int(f.letters)],
	['reads before the first confirm', (f) => fmt.int(f.readsBeforeFirstConfirm)],
	['reads per letter', (f) => fmt.ratio(f.letters > 0 ? f.listRequests / f.letters : null)],
	['requests per letter', (f) => fmt.ratio(f.perLetter)],
	['minutes at 100/min', fmt.minutes],
	['outcome', outcomeCell],
];
const bRows = keysOf('b').sort((x, y) => sizeOf(x) - sizeOf(y)).map((key) => ({ 'confirmed earlier today': fmt.int(sizeOf(key)), ...columns('b', key, todayMetrics) }));
const b2Rows = keysOf('b2').sort((x, y) => sizeOf(x) - sizeOf(y)).flatMap((key) =>
	[['first', `first ${TODAY_LETTERS}`], ['second', `${TODAY_LETTERS} more`]].map(([run, label]) => ({ 'confirmed earlier today': fmt.int(sizeOf(key)), batch: label, ...columns('b2', key, todayMetrics, run) })),
);
/**
 * What a run under a daily limit spent on the items that did not go (whatever the order the node sends in): drafts never
 * confirmed, and reads beyond one per letter confirmed. Undefined when every item went.
 */
const notGone = (f, items) => (f.letters < items ? f.created - f.letters + Math.max(0, f.listRequests - f.letters) : undefined);
/** Items per case of (c), for figures kept from runs that did not record them. */
const C_ITEMS = { 'no limit': 100, far: 100, past: 150, late: 30 };
const cLabels = { 'no limit': 'no limit, 100 items', far: 'daily limit £1,000 (far from it), 100 items', past: 'daily limit £100, 150 items (52 past it)', late: 'daily limit £1,000, list 1 s late, 30 items' };
const cRows = keysOf('c').map((key) => ({
	case: cLabels[key] ?? key,
	...columns('c', key, [
		['list requests', (f) => fmt.int(f.listRequests)],
		['all requests', (f) => fmt.int(f.requests)],
		['letters confirmed', (f) => fmt.int(f.letters)],
		['drafts left', (f) => fmt.int(f.drafts)],
		['requests for items that did not go', (f) => fmt.int(notGone(f, f.items ?? C_ITEMS[key]))],
		['requests per letter', (f) => fmt.ratio(f.perLetter)],
		['minutes at 100/min', fmt.minutes],
		['Create step s', (f) => (f.stepSeconds === null ? '-' : f.stepSeconds.toFixed(1))],
	]),
}));

// Issue 42's goals ("Done means"), each with the figures that say where it stands.
const mins = (f) => `${(f.requests / 100).toFixed(2)} min`;
const plural = (count, word) => `${fmt.int(count)} ${word}${count === 1 ? '' : 's'}`;
const runText = (f) => (f ? `${plural(f.listRequests, 'list request')}, ${fmt.int(f.requests)} requests in all (${mins(f)} at 100/min), ${plural(f.created, 'letter')} created, ${f.outcome === 'ok' ? 'every item ok' : f.outcome}` : 'not measured');
const verdict = (ok, yes = 'met', no = 'not met') => (ok === undefined ? '**not measured**' : ok ? `**${yes}**` : `**${no}**`);
function goalLines() {
	const lines = [];
	const big = `${biggest}`;
	const warm = figureOf('after', 'a2', `spread ${big}`, 'rerun');
	const warmBefore = figureOf('before', 'a2', `spread ${big}`, 'rerun');
	const cold = figureOf('after', 'a', `jobs ${big}`);
	const coldBefore = figureOf('before', 'a', `jobs ${big}`);
	const allCold = figureOf('after', 'a2', `all ${big}`, 'cold');
	const warmOk = warm ? warm.outcome === 'ok' && warm.created === 0 && warm.requests <= ITEMS + 5 : undefined;
	const coldOk = cold ? cold.outcome === 'ok' && cold.created === ITEMS - SENT && cold.requests <= ITEMS + 5 : undefined;
	lines.push(
		`1. **A 100-item rerun at ${fmt.int(biggest)} jobs sends what it should in the time its own 100 creates take plus at most a few reads.**`,
		`   - Rerun in the same n8n process (a2, every key sent): ${verdict(warmOk)}. After: ${runText(warm)}. Before: ${runText(warmBefore)}.`,
		`   - First run in a fresh process, 50 keys never sent (a): sends what it should (50 letters, 50 skipped, no duplicate) ${verdict(cold ? cold.outcome === 'ok' && cold.created === ITEMS - SENT && cold.duplicates === 0 : undefined, 'yes', 'no')}; in the time of its creates plus a few reads ${verdict(coldOk, 'yes', 'no')}. After: ${runText(cold)}. Before: ${runText(coldBefore)}.`,
	);
	if (allCold) lines.push(`   - First run in a fresh process with all 100 keys on the newest jobs (a2, early stop): ${runText(allCold)}.`);
	const b20 = figureOf('after', 'b', 'today 20000');
	const b20Second = figureOf('after', 'b2', 'today 20000', 'second');
	const reads = (f) => (f && f.letters > 0 ? f.listRequests / f.letters : undefined);
	const readsText = (f) => (f ? `${fmt.int(f.listRequests)} reads for ${fmt.int(f.letters)} letters (${fmt.ratio(reads(f))} a letter)` : 'not measured');
	const firstText = (f) => (f?.readsBeforeFirstConfirm === undefined ? '' : `, ${plural(f.readsBeforeFirstConfirm, 'read')} before the first confirm`);
	const b20Before = figureOf('before', 'b', 'today 20000');
	const b20Ok = b20 ? reads(b20) <= 2 && (b20.readsBeforeFirstConfirm ?? 0) <= 2 : undefined;
	const b20Average = b20 && !b20Ok && reads(b20) <= 2 ? '**met on average, not for the first confirm**' : verdict(b20Ok);
	lines.push(
		'2. **A confirm under a daily limit at 20,000 confirms a day costs at most two reads.**',
		`   - A fresh process's 20 letters (b): ${b20Average}: ${readsText(b20)}${firstText(b20)}; before, ${readsText(b20Before)}${firstText(b20Before)}.`,
		`   - The next 20 in the same process (b2): ${verdict(b20Second ? reads(b20Second) <= 2 : undefined)}: ${readsText(b20Second)}.`,
	);
	const far = figureOf('after', 'c', 'far');
	const farBefore = figureOf('before', 'c', 'far');
	const zeroSecond = figureOf('after', 'b2', 'today 0', 'second');
	const perLetterText = (f) =>
		f ? `${fmt.ratio(f.perLetter)} requests a letter (${fmt.int(f.requests)} for ${fmt.int(f.letters)}${f.listRequests === f.letters && f.requests === 3 * f.letters ? ': a draft, a read and a confirm each, no read serving two confirms' : f.listRequests < f.letters ? `: a draft and a confirm each, and ${plural(f.listRequests, 'read')} in all` : ''})` : 'not measured';
	lines.push(
		'3. **At most 2 requests per live letter while no other process confirms.**',
		`   - Daily limit £1,000 far from it, 100 letters (c): ${verdict(far ? far.perLetter <= 2 : undefined)}: ${perLetterText(far)}; before, ${perLetterText(farBefore)}.`,
		`   - 20 more letters in the same process, nothing else confirmed today (b2): ${verdict(zeroSecond ? zeroSecond.perLetter <= 2 : undefined)}: ${perLetterText(zeroSecond)}.`,
	);
	const past = figureOf('after', 'c', 'past');
	const pastBefore = figureOf('before', 'c', 'past');
	const PAST_ITEMS = C_ITEMS.past;
	const pastText = (f) => {
		if (!f) return 'not measured';
		const spent = notGone(f, PAST_ITEMS) ?? 0;
		const after = f.afterFull ? `; ${plural(f.afterFull.requests, 'request')} after its last confirm (${plural(f.afterFull.creates, 'draft')}, ${plural(f.afterFull.lists, 'read')})` : '';
		return `${fmt.int(f.letters)} letters confirmed; the ${fmt.int(PAST_ITEMS - f.letters)} items past cost ${plural(spent, 'request')} (${plural(f.created - f.letters, 'draft')}, ${plural(Math.max(0, f.listRequests - f.letters), 'read')} beyond one a letter)${after}; ${plural(f.drafts, 'draft')} left on the account; ${fmt.int(f.requests)} requests in all`;
	};
	const pastSpent = past ? notGone(past, PAST_ITEMS) ?? 0 : undefined;
	// Met but for the first item past: everything after the last confirm is that one item's draft and read.
	const firstOnly = past?.afterFull && pastSpent === past.afterFull.requests && past.afterFull.creates === 1 && past.afterFull.lists <= 1;
	lines.push(
		'4. **No request for items past a full day** (daily limit £100, 150 items, 52 past it, c):',
		`   ${pastSpent === undefined || pastSpent === 0 ? verdict(pastSpent === undefined ? undefined : true) : firstOnly ? `**met for ${PAST_ITEMS - past.letters - 1} of the ${PAST_ITEMS - past.letters} items past**: the first costs a draft and a read, and its draft stays on the account` : verdict(false)}. After: ${pastText(past)}. Before: ${pastText(pastBefore)}.`,
	);
	const dupes = (side) => {
		const found = [];
		for (const [key, f] of Object.entries(sides[side]?.figures?.a ?? {})) if (!isHttp(key)) found.push(f.duplicates ?? 0);
		for (const f of Object.values(sides[side]?.figures?.a2 ?? {})) found.push(f.cold?.duplicates ?? 0, f.rerun?.duplicates ?? 0);
		return found.length ? found.reduce((sum, count) => sum + count, 0) : undefined;
	};
	const after = dupes('after');
	lines.push(
		`5. **No key sent twice** (the node's runs in (a) and (a2)): ${verdict(after === undefined ? undefined : after === 0)}: ${fmt.int(after)} duplicates after, ${fmt.int(dupes('before'))} before. (The HTTP Request node, which cannot skip, sends the 50 already-sent keys again: ${fmt.int(figureOf('after', 'a', `http ${big}`)?.duplicates ?? figureOf('before', 'a', `http ${big}`)?.duplicates)}.)`,
		'6. **The bound across two and three processes unchanged** (at most one letter per other process past the limit): not by this bench. In the unit harness (test/nodes/Intelliprint/spending/spendingDay.test.ts, new jobs and confirms listed 0.5 s late) two and three processes, 8 letters each under £5, confirm £4.08 and never more: drafts made for a confirm are claims every check counts, so they pass the limit by nothing; a confirm made alone (a rerun\'s held draft, Print Job → Confirm) keeps the stated bound. Two processes of 300 items under £100 fill it (£99.96). `npm run bench:spending` measures it in real n8n (bench/RESULTS-spending.md).',
	);
	return lines;
}
/** The cost of proving keys absent: a first run in a fresh process, where some of its keys were never sent. */
function coldNote() {
	const big = `${biggest}`;
	const cold = figureOf('after', 'a', `jobs ${big}`);
	const coldBefore = figureOf('before', 'a', `jobs ${big}`);
	const all = figureOf('after', 'a2', `all ${big}`, 'cold');
	if (!cold) return [];
	return [
		'**A first run in a fresh process proves its unsent keys absent one request each.** The API\'s list cannot be',
		'filtered on the metadata that holds the key, but it can on the reference, and a keyed job\'s reference is its key:',
		`the run reads the window\'s first page, sees the window is ${fmt.int(biggest / 1000)} pages at ${fmt.int(biggest)} jobs, more than its ${fmt.int(ITEMS)} keys, and looks`,
		`each key up instead (the job a lookup finds is not read again). At ${fmt.int(biggest)} jobs: ${plural(cold.listRequests, 'list request')} (the first page and a`,
		`lookup per key), ${fmt.int(cold.requests)} requests in all (${mins(cold)} at 100 a minute), where a run of ${fmt.int(ITEMS)} items without any check`,
		`makes ${fmt.int(ITEMS)}${coldBefore ? `; before: ${runText(coldBefore)}` : ''}. The first run costs a request per key on top of its creates, whatever the account holds, and sends`,
		'no key twice. A window of fewer pages than keys is read instead, and the process then holds it.',
		...(all ? [`When every key is on the newest jobs the first page finds them all: ${plural(all.listRequests, 'list request')}.`] : []),
		'`n8n execute` starts that fresh process for every run; a long-running n8n (`n8n start`, or each queue-mode worker)',
		'remembers what it read and looked up, and every later run in that process reads only what is newer (a2: one page).',
	];
}
const sideLine = (side) => {
	const entry = sides[side];
	if (!entry) return `- **${side}**: not measured yet (cells marked ${PENDING}).`;
	const parts = Object.entries(entry.timings ?? {}).map(([table, seconds]) => `(${table}) ${seconds} s`).join(', ');
	return `- **${side}**: ${entry.package}, measured ${entry.date} UTC; the last run took ${entry.seconds} s${parts ? ` (tables: ${parts})` : ''}; in (a) the already-sent keys ${entry.sentAt === 'newest' ? 'are the newest jobs' : 'are spread over the 30 days'}.`;
};
const table = (rows) => (rows.length ? markdownTable(rows) : ['(not measured)']);
const markdown = [
	"# A big sender's day: reruns and the daily limit at scale (issue 42)",
	'',
	'What Skip Items Already Sent and the daily spending limit cost an account with hundreds of thousands of jobs, before',
	'and after issue 42 (1cd65aa): the node now keeps, per n8n process, the sent keys it has read and today\'s confirmed',
	'total, so a later run in the same process reads only what is newer.',
	'',
	'Written by `bench/history.mjs` (`npm run bench:history`): real n8n 2.41.1 (sqlite) against the fake API holding a',
	'history on demand (test/fake-api/history.ts). Tables (a), (b) and (c) start a fresh n8n process per run (`n8n execute`);',
	'(a2) and (b2) run everything in one `n8n start`, over its REST API as the editor does, so the second run of a case finds',
	'what the first left in the process. The fake runs without a rate limit and the credential lets the node send freely,',
	'so the bench takes minutes; **minutes at 100/min** is the request count over the API\'s limit of 100 requests a minute',
	'(the least time the run takes at the real limit, before any other work on the key). List requests are `GET /prints`;',
	'all requests are every request to the API host. Duplicates: row keys that end up on two print jobs (goal 0). Test Mode',
	'off (live letters: the history is live jobs), Confirm on. Cells marked _pending_ are figures that side has not measured.',
	'',
	sideLine('before'),
	sideLine('after'),
	'',
	'## Issue 42\'s goals, and where they stand',
	'',
	...goalLines(),
	'',
	...coldNote(),
	'',
	'## (a) A run of 100 items with Skip Items Already Sent, in a fresh n8n process',
	'',
	`One run of 100 items keyed \`INV-0001\`…\`INV-0100\` (Skip Items Already Sent, look-back 30 days, no daily limit). With a history, ${SENT} of the`,
	'keys (the odd rows) are already on its jobs, spread evenly over the 30 days, the rest of the history carrying other',
	'keys: a right run makes 50 letters and skips 50. With 0 jobs nothing was sent: 100 letters. The HTTP Request node (one',
	'create per item, its key in metadata to count duplicates the same way) has no rerun protection: it sends all 100.',
	'',
	...table(aRows),
	'',
	'## (a2) The same run again in the same n8n process',
	'',
	'Per account, two runs in one n8n process: the run of (a) (the process\'s first read of that account: cold), then the',
	'same 100 items again (every key now sent: a right rerun creates nothing and outputs 100 items marked already sent).',
	'Accounts: each size with 50 keys spread over the 30 days as in (a); the same with the 50 on the newest jobs, where a',
	'rerun after a failure finds them; and the biggest with all 100 keys on its newest jobs (a batch sent in full by another',
	'process). Duplicates are counted after each run.',
	'',
	...table(a2Rows),
	'',
	'## (b) The daily spending limit at 1,000 / 10,000 / 20,000 confirms a day, in a fresh n8n process',
	'',
	`${TODAY_LETTERS} live letters (Confirm on) under a daily limit of £1,000,000, with that many live jobs confirmed earlier today (UK day)`,
	`among ${fmt.int(OLDER)} older ones over 30 days. Goal: a confirm costs at most two reads.`,
	'',
	...table(bRows),
	'',
	'## (b2) The daily limit again in the same n8n process',
	'',
	`The ${TODAY_LETTERS} letters of (b), then ${TODAY_LETTERS} more in the same n8n process: the second batch is what a process that already holds`,
	'today\'s total pays per letter. Goal: at most two reads per confirm; a draft, a read and a confirm make 3 requests a letter.',
	'',
	...table(b2Rows),
	'',
	'## (c) The spending bench\'s cases, smaller and without a rate limit',
	'',
	'bench:spending runs these at 300 items under the rate limit; here they are counted. "Drafts left": print jobs made for',
	'items that could not go (goal 0). "Requests for items that did not go": drafts never confirmed and reads beyond one per',
	'letter (goal 0). The list-1-s-late case\'s Create step time is the lag\'s cost (no rate limit here). The bound across',
	'two and three processes (at most one letter per other process past the limit) is bench:spending\'s.',
	'',
	...table(cRows),
	'',
	'To measure "after" (this repo\'s current code), from the repo root: `npm run bench:history`; or a commit of it, away from',
	'work in progress: `git clone --shared . /tmp/ip-after && git -C /tmp/ip-after checkout <commit> && ln -s $PWD/node_modules',
	'/tmp/ip-after/node_modules && (cd /tmp/ip-after && npx n8n-node build) && BENCH_PACKAGE_DIR=/tmp/ip-after BENCH_AS=after npx tsx bench/history.mjs`.',
	'To measure "before": `git worktree add /tmp/ip-before 597eb8d && ln -s $PWD/node_modules /tmp/ip-before/node_modules &&',
	'(cd /tmp/ip-before && npx n8n-node build) && BENCH_PACKAGE_DIR=/tmp/ip-before npx tsx bench/history.mjs`.',
	'',
	MARK,
	'```json',
	JSON.stringify(sides, null, 1),
	'```',
	'',
];
await fs.outputFile(RESULTS, markdown.join('\n'));
say('');
say(markdown.slice(0, markdown.indexOf(MARK)).join('\n'));
say(`bench:history: ${Math.round((Date.now() - started) / 1000)} s; written to bench/RESULTS-history.md ("${SIDE}")`);
