#!/usr/bin/env node
// `npm run bench:history`: what a big sender's account costs the node (issue 42), through real n8n (`n8n execute`, sqlite)
// against the fake API holding a history on demand (test/fake-api/history.ts: hundreds of thousands of past jobs, a list
// answered in milliseconds).
//
// (a) Reruns: one run of 100 items, Print Job → Create from content, Each Item, Test Mode off (live: the history is live
//     jobs, as a sender's is), Confirm on, no daily limit, Skip Items Already Sent keyed by the row's `ref`, against an
//     account holding 0 / 10,000 / 100,000 / 300,000 / 510,000 jobs in the 30-day look-back. With a history, 50 of the
//     100 keys are already on it (spread evenly over the 30 days; BENCH_SENT_AT=newest puts them on the newest jobs
//     instead): the run should make 50 letters and skip 50. And n8n's HTTP Request node on the biggest account (one
//     create per item, nothing it could skip).
// (b) The daily limit: 20 live letters under a daily limit far away (£1,000,000), with 0 / 1,000 / 10,000 / 20,000 live
//     jobs confirmed earlier today (UK day) among 100,000 older ones.
// (c) The spending bench's cases, smaller: no limit, a far limit (£1,000), £100 with items past it (150 items), the list
//     showing each confirm 1 s late (30 items). The bound across two and three processes is bench:spending's.
//
// The fake has no rate limit and the credential lets the node send freely, so the bench takes minutes; "minutes at
// 100/min" is the request count over the API's 100 requests a minute: the least time the run takes at the real limit.
//
// BENCH_PACKAGE_DIR=<a clone or worktree with its dist built>: measure that build instead of this repo's, as "before"
// (BENCH_AS=before|after says which columns; default after, or before when BENCH_PACKAGE_DIR is given). Each run
// keeps the other side's figures: they live in bench/RESULTS-history.md itself (the JSON at its end).
// BENCH_PART=a,b,c runs only those tables (the others' figures are kept). BENCH_HISTORY_SIZES=0,10000 sizes table (a).
//
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import execa from 'execa';
import fs from 'fs-extra';

import serverModule from '../test/fake-api/server.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { markdownTable } from './measure.mjs';

const { startFakeIntelliprint } = serverModule;
const { installN8n, N8nInstance, ROOT, usePackage } = runnerModule;
const say = (text) => process.stdout.write(`${text}\n`);
const started = Date.now();

const PACKAGE_DIR = process.env.BENCH_PACKAGE_DIR || ROOT;
const SIDE = process.env.BENCH_AS || (process.env.BENCH_PACKAGE_DIR ? 'before' : 'after');
if (SIDE !== 'before' && SIDE !== 'after') throw new Error(`BENCH_AS=${SIDE}: before or after`);
const PARTS = (process.env.BENCH_PART || 'a,b,c').split(',');
const SIZES = (process.env.BENCH_HISTORY_SIZES || '0,10000,100000,300000,510000').split(',').map(Number);
const SENT_AT = process.env.BENCH_SENT_AT || 'spread';
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
/** History index of the k-th already-sent key (0 = the oldest job). */
const sentIndex = (count, k) => (SENT_AT === 'newest' ? count - SENT + k : Math.floor(((k + 0.5) * count) / SENT));
const cases = [];
/** A credential and workflow ID of n8n's 16 characters, unique per case. */
const idFor = (text) => `${text.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}${String(cases.length).padStart(4, '0')}`;
/** The already-sent keys of a history of `count` jobs: the odd rows' (INV-0001, INV-0003…) at their indices, other keys elsewhere. */
function sentKeys(count) {
	const byIndex = new Map(Array.from({ length: SENT }, (_, k) => [sentIndex(count, k), ref(k * 2)]));
	return (i) => byIndex.get(i) ?? `hist-${i}`;
}
if (PARTS.includes('a')) {
	for (const size of SIZES) {
		cases.push({
			table: 'a', key: `jobs ${size}`, jobs: size, id: idFor(`ipHistA${size}`), items: ITEMS,
			history: size > 0 ? { count: size, days: 30, sentKeys: sentKeys(size) } : undefined, options: { sentKey: '={{ $json.ref }}' },
		});
	}
	const biggest = Math.max(...SIZES);
	cases.push({ table: 'a', key: `http ${biggest}`, jobs: biggest, id: 'ipHistAHttp00001', items: ITEMS, http: true, history: biggest > 0 ? { count: biggest, days: 30, sentKeys: sentKeys(biggest) } : undefined });
}
if (PARTS.includes('b')) {
	for (const today of TODAY) {
		cases.push({ table: 'b', key: `today ${today}`, today, id: idFor(`ipHistB${today}`), items: TODAY_LETTERS, daily: 1_000_000, history: { count: OLDER + today, days: 30, confirmedToday: today, sentKeys: null } });
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

// BENCH_PART=none: no runs, RESULTS-history.md written again from the figures it holds.
if (cases.length) say(`bench:history: measuring ${measuredPackage} as "${SIDE}"`);
const n8n = cases.length ? await startN8n() : undefined;
async function startN8n() {
	await installN8n();
	return await N8nInstance.create('bench-history', {}, `${WORK}/n8n`);
}
for (const run of cases) {
	run.fake = await startFakeIntelliprint({ rateLimit: false, listingDelayMs: run.listingDelayMs ?? 0 });
	if (run.history) run.fake.seedHistory(run.history);
}
const httpRun = cases.find((run) => run.http);
if (n8n) await n8n.importCredentials([
	...cases.filter((run) => !run.http).map((run) => ({
		id: run.id, name: run.id, type: 'intelliprintApi',
		data: { apiKey: run.fake.apiKey, baseUrl: run.fake.url, dailySpendingLimit: run.daily ?? 0, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60 },
	})),
	...(httpRun ? [{ id: 'ipHistHeader0001', name: 'bearer', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${httpRun.fake.apiKey}` } }] : []),
]);
const folder = `${WORK}/workflows`;
if (n8n) await n8n.importWorkflows(await Promise.all(cases.map(async (run) => {
	const create = run.http ? httpCreate(run.fake.url) : intelliprintCreate(run.id, run.options);
	await fs.outputJson(`${folder}/${run.id}.json`, workflow(run.id, run.items, create));
	return `${folder}/${run.id}.json`;
})));

// Measuring ---------------------------------------------------------------------------------------------------------
const apiRequests = (fake) => fake.requests.filter((request) => !request.path.startsWith('files:'));
const isList = (request) => request.method === 'GET' && /^\/v1(-moved)?\/prints\/?$/.test(request.path);
/** Keys of the run's rows that end up on more than one print job (history and the store's jobs). */
function duplicates(fake, items) {
	const counts = new Map(Array.from({ length: items }, (_, i) => [ref(i), 0]));
	const history = fake.prints.history;
	if (history) {
		for (let i = 0; i < history.count; i++) {
			const key = history.sentKeyAt(i);
			if (counts.has(key) && !history.isAdopted(i)) counts.set(key, counts.get(key) + 1);
		}
	}
	for (const job of fake.prints.jobs.values()) {
		const key = job.metadata?.n8n_sent_key;
		if (counts.has(key)) counts.set(key, counts.get(key) + 1);
	}
	return [...counts.values()].filter((count) => count > 1).length;
}
/** What the run's items say: ok, or how many failed and the first failure's words; or the run's own error. */
function outcome(run, executed) {
	const { items, error } = N8nInstance.node(executed.result, 'Create');
	const runError = executed.result?.data.resultData.error;
	if (error || runError || items.length === 0) return `run failed: ${(error ?? runError)?.message ?? `exit code ${executed.exitCode}, no output`}`;
	const failed = items.filter((item) => item.json.error !== undefined);
	if (failed.length === 0) return 'ok';
	const first = failed[0].json;
	const message = String(first.error?.message ?? first.error ?? first.message ?? 'failed').replace(/\s+/g, ' ').slice(0, 160);
	return `${failed.length} of ${items.length} items failed: "${message}"`;
}

const figures = { a: {}, b: {}, c: {} };
for (const run of cases) {
	say(`running (${run.table}) ${run.label ?? run.key}${run.history ? ` [history ${run.history.count}]` : ''}...`);
	const before = run.fake.prints.history?.slowLists ?? 0;
	const t0 = Date.now();
	const executed = await n8n.execute(run.id);
	const wall = (Date.now() - t0) / 1000;
	const step = executed.result?.data.resultData.runData.Create?.[0]?.executionTime;
	const requests = apiRequests(run.fake);
	const lists = requests.filter(isList).length;
	const created = run.fake.createdPrintJobs();
	const letters = created.filter((job) => job.confirmed).length;
	const { items } = N8nInstance.node(executed.result, 'Create');
	const slow = (run.fake.prints.history?.slowLists ?? 0) - before;
	if (!executed.result) say(`  n8n's output ended:\n${executed.output.slice(-3000)}`);
	if (slow > 0) say(`  note: the fake answered ${slow} lists from the whole history (a query its fast path does not know): slow, but right`);
	figures[run.table][run.key] = {
		jobs: run.history?.count ?? 0,
		listRequests: lists,
		requests: requests.length,
		perLetter: letters > 0 ? requests.length / letters : null,
		created: created.length,
		letters,
		skipped: items.filter((item) => item.json.already_sent === true).length,
		drafts: created.filter((job) => !job.confirmed && run.fake.prints.jobs.has(job.id)).length,
		duplicates: run.table === 'a' ? duplicates(run.fake, run.items) : undefined,
		gbp: created.filter((job) => job.confirmed).reduce((sum, job) => sum + (run.fake.prints.jobs.get(job.id)?.cost.after_tax ?? 0), 0) / 1e8,
		outcome: outcome(run, executed),
		stepSeconds: typeof step === 'number' ? step / 1000 : null,
		wallSeconds: wall,
		rateLimited: run.fake.rateLimited,
		slowLists: slow,
	};
	say(`  ${JSON.stringify(figures[run.table][run.key])}`);
	await run.fake.stop();
}
await n8n?.stop();

// Results -----------------------------------------------------------------------------------------------------------
const MARK = '<!-- bench:history figures (read and rewritten by bench/history.mjs; keep this line and the JSON below it) -->';
const previous = (await fs.pathExists(RESULTS)) ? await fs.readFile(RESULTS, 'utf8') : '';
const kept = previous.includes(MARK) ? JSON.parse(previous.slice(previous.indexOf(MARK) + MARK.length).replace(/^\s*```json\s*|\s*```\s*$/g, '')) : {};
const sides = { before: kept.before ?? null, after: kept.after ?? null };
const ours = { package: measuredPackage, date: new Date().toISOString().slice(0, 16).replace('T', ' '), seconds: Math.round((Date.now() - started) / 1000), sentAt: SENT_AT, figures: {} };
// A partial run (BENCH_PART or other sizes) keeps this side's other figures.
ours.figures = { ...(sides[SIDE]?.figures ?? {}) };
for (const table of ['a', 'b', 'c']) ours.figures[table] = { ...(ours.figures[table] ?? {}), ...figures[table] };
if (cases.length) sides[SIDE] = ours;

const PENDING = '_after: pending_';
const fmt = {
	int: (value) => (value === undefined || value === null ? '-' : Number(value).toLocaleString('en-GB')),
	ratio: (value) => (value === undefined || value === null ? '-' : value.toFixed(2)),
	minutes: (figure) => (figure ? (figure.requests / 100).toFixed(2) : '-'),
};
/** One cell per side: the figure, a placeholder for "after" not yet measured, '-' for "before" not measured. */
const pair = (key, table, read) =>
	Object.fromEntries(['before', 'after'].map((side) => {
		const figure = sides[side]?.figures?.[table]?.[key];
		return [side, figure ? read(figure) : side === 'after' ? PENDING : '-'];
	}));
const columns = (table, key, metrics) => {
	const row = {};
	for (const [name, read] of metrics) {
		const { before, after } = pair(key, table, read);
		row[`${name}, before`] = before;
		row[`${name}, after`] = after;
	}
	return row;
};
const keysOf = (table) => [...new Set(['before', 'after'].flatMap((side) => Object.keys(sides[side]?.figures?.[table] ?? {})))];
const isHttp = (key) => key.startsWith('http');
const aKeys = keysOf('a').sort((x, y) => isHttp(x) - isHttp(y) || Number(x.split(' ')[1]) - Number(y.split(' ')[1]));
const aRows = aKeys.map((key) => {
	const jobs = (sides.before?.figures?.a?.[key] ?? sides.after?.figures?.a?.[key]).jobs;
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
			['outcome', (f) => f.outcome],
		]),
	};
});
const bRows = keysOf('b').sort((x, y) => Number(x.split(' ')[1]) - Number(y.split(' ')[1])).map((key) => ({
	'confirmed earlier today': fmt.int(Number(key.split(' ')[1])),
	...columns('b', key, [
		['list requests', (f) => fmt.int(f.listRequests)],
		['all requests', (f) => fmt.int(f.requests)],
		['letters confirmed', (f) => fmt.int(f.letters)],
		['reads per letter', (f) => fmt.ratio(f.letters > 0 ? f.listRequests / f.letters : null)],
		['requests per letter', (f) => fmt.ratio(f.perLetter)],
		['minutes at 100/min', fmt.minutes],
		['outcome', (f) => f.outcome],
	]),
}));
const cLabels = { 'no limit': 'no limit, 100 items', far: 'daily limit £1,000 (far from it), 100 items', past: 'daily limit £100, 150 items (52 past it)', late: 'daily limit £1,000, list 1 s late, 30 items' };
const cRows = keysOf('c').map((key) => ({
	case: cLabels[key] ?? key,
	...columns('c', key, [
		['list requests', (f) => fmt.int(f.listRequests)],
		['all requests', (f) => fmt.int(f.requests)],
		['letters confirmed', (f) => fmt.int(f.letters)],
		['drafts left', (f) => fmt.int(f.drafts)],
		['requests per letter', (f) => fmt.ratio(f.perLetter)],
		['minutes at 100/min', fmt.minutes],
		['Create step s', (f) => (f.stepSeconds === null ? '-' : f.stepSeconds.toFixed(1))],
	]),
}));
const sideLine = (side) => {
	const entry = sides[side];
	return entry ? `- **${side}**: ${entry.package}, measured ${entry.date} UTC, the bench took ${entry.seconds} s (already-sent keys ${entry.sentAt === 'newest' ? 'on the newest jobs' : 'spread over the 30 days'}).` : `- **${side}**: not measured yet (${side === 'after' ? 'placeholders marked _after: pending_' : '-'}).`;
};
const markdown = [
	'# A big sender\'s day: reruns and the daily limit at scale (issue 42)',
	'',
	'Written by `bench/history.mjs` (`npm run bench:history`): real n8n 2.41.1 (`n8n execute`, sqlite) against the fake API',
	'holding a history on demand (test/fake-api/history.ts). The fake runs without a rate limit and the credential lets the',
	'node send freely, so the bench takes minutes; **minutes at 100/min** is the request count over the API\'s limit of 100',
	'requests a minute (the least time the run takes at the real limit, before any other work on the key). List requests',
	'are `GET /prints`; all requests are every request to the API host. Duplicates: row keys that end up on two print',
	'jobs (goal 0). Test Mode off (live letters: the history is live jobs), Confirm on.',
	'',
	sideLine('before'),
	sideLine('after'),
	'',
	'To fill "after" (this repo\'s current code), from the repo root: `npm run bench:history`.',
	'To measure "before" again: `git worktree add /tmp/ip-before 597eb8d && ln -s $PWD/node_modules /tmp/ip-before/node_modules &&',
	'(cd /tmp/ip-before && npx n8n-node build) && BENCH_PACKAGE_DIR=/tmp/ip-before npx tsx bench/history.mjs`.',
	'',
	'## (a) A rerun of 100 items with Skip Items Already Sent',
	'',
	`One run of 100 items keyed \`INV-0001\`…\`INV-0100\` (Skip Items Already Sent, look-back 30 days, no daily limit). With a history, ${SENT} of the`,
	'keys (the odd rows) are already on its jobs, spread evenly over the 30 days, the rest of the history carrying other',
	'keys: a right run makes 50 letters and skips 50. With 0 jobs nothing was sent: 100 letters. The HTTP Request node (one',
	'create per item, its key in metadata to count duplicates the same way) has no rerun protection: it sends all 100.',
	'',
	...(aRows.length ? markdownTable(aRows) : ['(not measured)']),
	'',
	'## (b) The daily spending limit at 1,000 / 10,000 / 20,000 confirms a day',
	'',
	`${TODAY_LETTERS} live letters (Confirm on) under a daily limit of £1,000,000, with that many live jobs confirmed earlier today (UK day)`,
	`among ${fmt.int(OLDER)} older ones over 30 days. Goal: a confirm costs at most two reads.`,
	'',
	...(bRows.length ? markdownTable(bRows) : ['(not measured)']),
	'',
	'## (c) The spending bench\'s cases, smaller and without a rate limit',
	'',
	'bench:spending runs these at 300 items under the rate limit; here they are counted. "Drafts left": print jobs made for',
	'items that could not go (goal 0). The list-1-s-late case\'s Create step time is the lag\'s cost (no rate limit here).',
	'The bound across two and three processes (at most one letter per other process past the limit) is bench:spending\'s.',
	'',
	...(cRows.length ? markdownTable(cRows) : ['(not measured)']),
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
