#!/usr/bin/env node
// `npm run bench:node-time` (issue 56 item 3): where the Intelliprint node's own time goes on a 10,000- and a
// 100,000-row run, against an API that answers at once (bench/sink.mjs, in a process of its own), profiled.
//
// Each case runs in a fresh child process (n8n's module state and the heap start empty, as in `n8n execute`): it
// builds the rows (timed: what the Code node that makes them does), runs "Rows → Intelliprint" through n8n-core's
// WorkflowExecute as the unit tests' harness does (test/helpers/n8n.ts; the built node from dist/), first a 100-row
// warm-up, then the measured run under V8's CPU profiler (the inspector's Profiler, the same sampler as
// `node --cpu-prof`). The profile is written to .bench/node-time/<case>-<rows>.cpuprofile (open it in Chrome DevTools)
// and summed (bench/cpuProfile.mjs) over the node's own window: n8n's nodeExecuteBefore to nodeExecuteAfter hooks.
//
// Expressions are evaluated by n8n's default engine of 2.x, "vm" (isolated-vm, n8n's own defaults: one isolate in
// the pool), as real n8n evaluates them; BENCH_ENGINE=legacy uses the in-process engine the unit tests use.
//
// Cases (BENCH_NODE_TIME_CASES, default a,b,c,d; rows BENCH_NODE_TIME_ROWS, default 10000,100000):
//   a  mail run, Create from content, Recipients: All Input Items, Recipient Fields mapped manually with expressions
//      ({{ $json.name }} …), Variables: All Fields, Test Mode, Confirm, Output: Print Job
//   b  the same, Recipient Fields mapped automatically
//   c  a, with Options → Skip Items Already Sent = Row ID = {{ $json.invoice }}
//   d  Mailing List → Create, Add Input Items as Recipients, mapped automatically, Variables: All Fields
//   a2 a, with expressions n8n must evaluate per row ({{ $json.name.trim() }} …): n8n's engine per expression
//   l  c with Output: One Item per Letter (100,000 items out)
// BENCH_NODE_DIR=<package folder with dist/> measures that build (default: this repo); several, as
// label=<folder>,label=<folder>, are an A/B run: each case runs in each build in turn, and a table compares them (and
// says whether they sent the same requests and gave the same output: digests of the sink's request bodies and of the
// node's output items). BENCH_REPEAT=n runs each n times, interleaved, and reports medians. BENCH_FROM=source runs
// the TypeScript sources through tsx. BENCH_SAMPLING_US (default 500) is the profiler's interval. Writes
// .bench/RESULTS-node-time.md (BENCH_RESULTS_FILE=<path> writes there) and prints the same; the profiles go to
// .bench/node-time/<build>/ (BENCH_PROFILE_DIR). The machine's other load shows in wall times: read busy time and
// the shares in the profiles rather than milliseconds on a shared host. bench/RESULTS-node-time.md is the write-up.
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join } from 'node:path';

import { summarise } from './cpuProfile.mjs';
import { credentialsHelperClass, runInEngine } from './engine.mjs';

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const say = (text) => process.stdout.write(`${text}\n`);

// The rows: what the Code node of the issue's measurement makes. ---------------------------------------------------
export function makeRows(count) {
	const rows = new Array(count);
	for (let n = 1; n <= count; n++) rows[n - 1] = { json: { invoice: `INV-${n}`, name: `Customer ${n}`, address: `${n} High Street\nLeeds`, postcode: 'LS1 4AP', amount_due: 10 + (n % 90) }, pairedItem: { item: n - 1 } };
	return rows;
}

const CONTENT = '<p>Dear {{name}},</p><p>Invoice {{invoice}}: you owe £{{amount_due}}.</p>';
const schema = ['name', 'address', 'postcode', 'country'].map((id) => ({ id, displayName: id, required: id !== 'country', defaultMatch: false, canBeUsedToMatch: false, display: true, type: 'string', removed: id === 'country' }));
const manual = (value) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema, attemptToConvertTypes: false, convertFieldsToString: true });
const FIELDS = manual({ name: '={{ $json.name }}', address: '={{ $json.address }}', postcode: '={{ $json.postcode }}' });
const COMPUTED = manual({ name: '={{ $json.name.trim() }}', address: '={{ $json.address.trim() }}', postcode: '={{ $json.postcode.toUpperCase() }}' });
const AUTO = { mappingMode: 'autoMapInputData', value: null };
const mailRun = (recipientFields, extra = {}) => ({ resource: 'printJob', operation: 'create', source: 'content', content: CONTENT, recipientsFrom: 'allItems', recipientFields, variables: 'all', testmode: true, confirmed: true, ...extra });
const KEYED = { options: { sentKey: '={{ $json.invoice }}', rowId: '={{ $json.invoice }}' } };
export const CASES = {
	a: { label: 'mail run, recipient fields by expressions', parameters: mailRun(FIELDS) },
	b: { label: 'mail run, auto-mapped', parameters: mailRun(AUTO) },
	c: { label: 'mail run, expressions + Skip Items Already Sent + Row ID', parameters: mailRun(FIELDS, KEYED) },
	d: { label: 'mailing list, create from items (auto-mapped)', parameters: { resource: 'mailingList', operation: 'create', name: 'bench', addRecipients: true, recipientFields: AUTO, variables: 'all' } },
	a2: { label: 'mail run, computed expressions (.trim() …) n8n evaluates per row', parameters: mailRun(COMPUTED) },
	l: { label: 'c with Output: One Item per Letter', parameters: mailRun(FIELDS, { ...KEYED, output: 'letters' }) },
};

// The child: one n8n process, one case. ---------------------------------------------------------------------------
async function worker() {
	process.env.N8N_USER_FOLDER ||= fs.mkdtempSync(join(os.tmpdir(), 'bench-node-time-'));
	process.env.N8N_ENCRYPTION_KEY ||= 'bench-encryption-key';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	process.env.N8N_LOG_LEVEL = 'silent';
	const require = createRequire(import.meta.url);
	const { Container } = require('@n8n/di');
	const { BinaryDataConfig, BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
	const { Expression, ICredentialsHelper, NodeConnectionTypes, Workflow } = require('n8n-workflow');
	const { Session } = await import('node:inspector/promises');

	const from = process.env.BENCH_FROM === 'source' ? 'source' : 'dist';
	const folder = process.env.BENCH_NODE_DIR || ROOT;
	const load = (path) => require(from === 'source' ? `${folder}/${path}.ts` : `${folder}/dist/${path}.js`);
	const { Intelliprint } = load('nodes/Intelliprint/Intelliprint.node');
	const { IntelliprintApi } = load('credentials/IntelliprintApi.credentials');

	const engine = process.env.BENCH_ENGINE === 'legacy' ? 'legacy' : 'vm';
	// As n8n 2.41's start-up does (base-command.ts), with @n8n/config's defaults.
	if (engine === 'vm') await Expression.initExpressionEngine({ engine: 'vm', poolSize: 1, maxCodeCacheSize: 1024, bridgeTimeout: 5000, bridgeMemoryLimit: 128, lazyAcquire: false, compileCache: false });

	const Credentials = credentialsHelperClass(ICredentialsHelper, IntelliprintApi);
	let rows = [];
	class Rows {
		description = { displayName: 'Rows', name: 'rows', group: ['input'], version: 1, description: '', defaults: { name: 'Rows' }, inputs: [NodeConnectionTypes.Main], outputs: [NodeConnectionTypes.Main], properties: [] };
		async execute() { return [rows]; }
	}
	const classes = { 'n8n-nodes-intelliprint.intelliprint': new Intelliprint(), 'bench.rows': new Rows() };
	const nodeTypes = { getByName: (type) => classes[type], getByNameAndVersion: (type) => classes[type], getKnownTypes: () => ({}) };
	Container.get(BinaryDataConfig).mode = 'default';
	await Container.get(BinaryDataService).init();

	const micros = () => Number(process.hrtime.bigint() / 1000n);
	let executions = 0;
	async function run({ sinkUrl, parameters }) {
		await fetch(`${sinkUrl}/_reset`, { method: 'POST' });
		const nodes = [
			{ id: 'rows', name: 'Rows', type: 'bench.rows', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'ip', name: 'Intelliprint', type: 'n8n-nodes-intelliprint.intelliprint', typeVersion: 1.2, position: [200, 0], parameters, credentials: { intelliprintApi: { id: 'cred-1', name: 'Intelliprint' } } },
		];
		const connections = { Rows: { main: [[{ node: 'Intelliprint', type: NodeConnectionTypes.Main, index: 0 }]] } };
		const workflow = new Workflow({ id: 'wf-bench', nodes, nodeTypes, active: false, settings: { executionOrder: 'v1' }, connections });
		const executionId = `bench-${process.pid}-${++executions}`;
		const window = {};
		const credentials = { apiKey: 'sk_bench', baseUrl: sinkUrl, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60 };
		const started = performance.now();
		const result = await runInEngine({
			WorkflowExecute, ExecutionLifecycleHooks, workflow, nodes, credentialsHelper: new Credentials(credentials), executionId,
			onHooks: (hooks) => {
				hooks.addHandler('nodeExecuteBefore', (name) => { if (name === 'Intelliprint') window.from = micros(); });
				hooks.addHandler('nodeExecuteAfter', (name) => { if (name === 'Intelliprint') window.to = micros(); });
			},
		});
		const task = result.data.resultData.runData.Intelliprint?.[0];
		const items = task?.data?.main?.[0] ?? [];
		const stats = await (await fetch(`${sinkUrl}/_stats`)).json();
		const errors = items.filter((item) => item.json.error !== undefined);
		// What the node put out, its sink-made IDs and times left aside: two builds that give the same output match.
		const { createHash } = await import('node:crypto');
		const output = createHash('sha256').update(JSON.stringify(items.map(({ json, pairedItem }) => ({ json, pairedItem })), (key, value) => (['created', 'confirmed_at'].includes(key) ? 0 : value)).replace(/\b(print|ltr|mal)_[a-z0-9]+/g, '$1_')).digest('hex').slice(0, 16);
		const error = task?.error ?? result.data.resultData.error;
		return { nodeMs: task?.executionTime, wallMs: performance.now() - started, window, items: items.length, output, errorItems: errors.length, error: error ? `${error.message}${error.description ? ` (${error.description})` : ''}`.slice(0, 500) : undefined, sink: stats };
	}

	process.on('message', async (message) => {
		if (message.type === 'exit') {
			await Expression.disposeExpressionEngine?.().catch(() => {});
			process.exit(0);
		}
		if (message.type !== 'run') return;
		try {
			const parameters = CASES[message.case].parameters;
			// Warm-up: the code paths compiled once, as in an n8n that has run before.
			if (message.warmup) {
				rows = makeRows(message.warmup);
				const warm = await run({ sinkUrl: message.sinkUrl, parameters });
				if (warm.error) throw new Error(`warm-up failed: ${warm.error}`);
			}
			// The Code node's work, for scale: the same rows built by a plain function (best of three).
			let makeRowsMs = Infinity;
			for (let attempt = 0; attempt < 3; attempt++) {
				const t0 = performance.now();
				rows = makeRows(message.rows);
				makeRowsMs = Math.min(makeRowsMs, performance.now() - t0);
			}
			globalThis.gc?.();
			const session = new Session();
			session.connect();
			await session.post('Profiler.enable');
			await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_SAMPLING_US || 500) });
			const cpuBefore = process.cpuUsage();
			await session.post('Profiler.start');
			const result = await run({ sinkUrl: message.sinkUrl, parameters });
			const { profile } = await session.post('Profiler.stop');
			const cpu = process.cpuUsage(cpuBefore);
			session.disconnect();
			fs.mkdirSync(message.profileDir, { recursive: true });
			const profileFile = join(message.profileDir, `${message.case}-${message.rows}${message.suffix ?? ''}.cpuprofile`);
			fs.writeFileSync(profileFile, JSON.stringify(profile));
			// The node's window on the profile's clock, for `node bench/cpuProfile.mjs <profile>` to sum the same samples.
			fs.writeFileSync(profileFile.replace(/\.cpuprofile$/, '.window.json'), JSON.stringify(result.window));
			rows = [];
			process.send({ type: 'done', ...result, makeRowsMs, profileFile, cpuMs: (cpu.user + cpu.system) / 1000, engine, from, folder, heapMb: Math.round(process.memoryUsage().rss / 1e6) });
		} catch (caught) {
			process.send({ type: 'failed', message: String(caught?.stack ?? caught) });
		}
	});
	process.send({ type: 'ready' });
}

// The parent: the sink, a child per case, the tables. ---------------------------------------------------------------
async function startSinkProcess() {
	const child = spawn(process.execPath, [new URL('./sink.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
	const url = await new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk) => {
			const match = /listening on (\S+)/.exec(String(chunk));
			if (match) resolve(match[1]);
		});
		child.on('exit', (code) => reject(new Error(`sink exited (${code})`)));
	});
	return { url, stop: () => child.kill() };
}

async function runCase(sinkUrl, name, rows, profileDir, build, suffix) {
	const from = process.env.BENCH_FROM === 'source' ? 'source' : 'dist';
	const child = fork(new URL(import.meta.url).pathname, [], {
		execArgv: [...(from === 'source' ? ['--import', 'tsx'] : []), '--expose-gc', '--max-old-space-size=4096'],
		env: { ...process.env, BENCH_NODE_TIME_WORKER: '1', BENCH_NODE_DIR: build.dir },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const answer = new Promise((resolve, reject) => {
		child.on('message', (message) => {
			if (message.type === 'ready') child.send({ type: 'run', case: name, rows, sinkUrl, profileDir: join(profileDir, build.label), suffix, warmup: Number(process.env.BENCH_WARMUP ?? 100) });
			else if (message.type === 'done') resolve(message);
			else if (message.type === 'failed') reject(new Error(message.message));
		});
		child.on('exit', (code) => reject(new Error(`case ${name} at ${rows} (${build.label}): the child exited (${code})`)));
	});
	try {
		return await answer;
	} finally {
		child.send({ type: 'exit' });
	}
}

const ms = (us) => Math.round(us / 1000);
const pct = (part, whole) => `${((100 * part) / whole).toFixed(1)}%`;
const cell = (text) => String(text).replace(/\|/g, '\\|');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const originUs = (summary, key) => summary.origins.find((o) => o.key === key)?.us ?? 0;

/** BENCH_NODE_DIR: one package folder, or several as label=folder,label=folder (an A/B run, interleaved). */
function buildsToRun() {
	const given = process.env.BENCH_NODE_DIR;
	if (!given) return [{ label: 'this-build', dir: ROOT }];
	return given.split(',').map((entry, at) => {
		const [label, dir] = entry.includes('=') ? entry.split('=') : [given.includes(',') ? `build${at + 1}` : 'this-build', entry];
		return { label, dir };
	});
}

async function main() {
	const sizes = (process.env.BENCH_NODE_TIME_ROWS || '10000,100000').split(',').map(Number);
	const cases = (process.env.BENCH_NODE_TIME_CASES || 'a,b,c,d').split(',');
	const builds = buildsToRun();
	const repeat = Math.max(1, Number(process.env.BENCH_REPEAT || 1));
	const profileDir = process.env.BENCH_PROFILE_DIR || `${ROOT}/.bench/node-time`;
	const resultsFile = process.env.BENCH_RESULTS_FILE || `${ROOT}/.bench/RESULTS-node-time.md`;
	const top = Number(process.env.BENCH_TOP || 15);
	const loadAtStart = os.loadavg();
	const started = Date.now();
	const sink = await startSinkProcess();
	const out = [];
	const line = (text = '') => {
		out.push(text);
		say(text);
	};
	const runs = new Map(); // `${name} ${rows} ${label}` → [{ result, summary }]
	try {
		for (const rows of sizes) {
			for (const name of cases) {
				for (let rep = 0; rep < repeat; rep++) {
					for (const build of builds) {
						const result = await runCase(sink.url, name, rows, profileDir, build, rep > 0 ? `.rep${rep + 1}` : '');
						const profile = JSON.parse(fs.readFileSync(result.profileFile, 'utf8'));
						const summary = summarise(profile, { from: result.window.from, to: result.window.to });
						const key = `${name} ${rows} ${build.label}`;
						if (!runs.has(key)) runs.set(key, []);
						// The hotspot tables are the first run's; each run's profile is kept (<case>-<rows>[.rep<n>].cpuprofile).
						runs.get(key).push({ result, summary });
						say(`${build.label} ${name} ${rows}: node ${Math.round(result.nodeMs)} ms (busy ${ms(summary.busyUs)} ms, idle ${ms(originUs(summary, 'idle'))} ms), items ${result.items}, errors ${result.errorItems}${result.error ? `, ERROR ${result.error}` : ''}; requests ${JSON.stringify(result.sink.byRoute)}, bodies ${result.sink.bodies}, output ${result.output}`);
					}
				}
			}
		}
	} finally {
		sink.stop();
	}
	const loadAtEnd = os.loadavg();
	const first = [...runs.values()][0][0].result;
	line(`# Node time (bench/nodeTime.mjs), ${new Date(started).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
	line();
	line(`Machine: ${os.cpus().length} cores, Node ${process.version}; load average (1 / 5 / 15 min) ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')} at the start, ${loadAtEnd.map((l) => l.toFixed(1)).join(' / ')} at the end; ${Math.round((Date.now() - started) / 1000)} s in all. Expression engine: ${first.engine}. Builds: ${builds.map((b) => `${b.label} = ${b.dir} (${first.from})`).join(', ')}. ${repeat} run(s) of each, interleaved; figures are medians${repeat > 1 ? ' (range in brackets)' : ''}.`);
	line('Node ms: the Intelliprint node\'s executionTime in n8n\'s run data. Busy / idle / GC: the CPU profile over the node\'s window (nodeExecuteBefore to nodeExecuteAfter); idle is waiting (on the sink, on timers). Process CPU: user + system of the n8n process over the whole run (all its threads). Bodies / output: digests of the JSON bodies the sink received and of the node\'s output items (IDs and times made by the sink left out): the same digests mean the same requests and output.');
	line();
	const stat = (list, pick) => {
		const values = list.map(pick);
		const mid = median(values);
		return repeat > 1 ? `${Math.round(mid)} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})` : `${Math.round(mid)}`;
	};
	line('| case | rows | build | node ms | ms per 1,000 rows | busy ms | GC ms | idle ms | process CPU ms | build the rows (plain function) ms | requests | bodies / output | items out | errors |');
	line('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
	for (const [key, list] of runs) {
		const [name, rows, label] = key.split(' ');
		const { result } = list[0];
		const perThousand = (median(list.map((r) => r.result.nodeMs)) * 1000) / Number(rows);
		line(`| ${name}: ${CASES[name].label} | ${rows} | ${label} | ${stat(list, (r) => r.result.nodeMs)} | ${perThousand.toFixed(1)} | ${stat(list, (r) => r.summary.busyUs / 1000)} | ${stat(list, (r) => originUs(r.summary, 'gc') / 1000)} | ${stat(list, (r) => originUs(r.summary, 'idle') / 1000)} | ${stat(list, (r) => r.result.cpuMs)} | ${stat(list, (r) => r.result.makeRowsMs)} | ${result.sink.requests} (${Object.entries(result.sink.byRoute).map(([k, v]) => `${k} ${v}`).join(', ')}) | ${result.sink.bodies} / ${result.output} | ${result.items} | ${result.errorItems}${result.error ? ` ${cell(result.error.slice(0, 120))}` : ''} |`);
	}
	if (builds.length > 1) {
		line();
		line(`${builds[0].label} → ${builds.slice(1).map((b) => b.label).join(' → ')}, medians:`);
		line();
		line('| case | rows | node ms | busy ms | process CPU ms | same requests and output |');
		line('|---|---|---|---|---|---|');
		for (const rows of sizes) {
			for (const name of cases) {
				const lists = builds.map((b) => runs.get(`${name} ${rows} ${b.label}`));
				const fmt = (pick) => lists.map((list) => Math.round(median(list.map(pick)))).join(' → ') + ` (×${(median(lists[0].map(pick)) / median(lists[lists.length - 1].map(pick))).toFixed(1)})`;
				const same = lists.every((list) => list[0].result.sink.bodies === lists[0][0].result.sink.bodies && list[0].result.output === lists[0][0].result.output);
				line(`| ${name} | ${rows} | ${fmt((r) => r.result.nodeMs)} | ${fmt((r) => r.summary.busyUs / 1000)} | ${fmt((r) => r.result.cpuMs)} | ${same ? 'yes' : '**no**'} |`);
			}
		}
	}
	for (const [key, list] of runs) {
		const [name, rows, label] = key.split(' ');
		const { summary, result } = list[0];
		const busy = summary.busyUs;
		line();
		line(`## ${name} at ${rows} rows, ${label}: ${CASES[name].label}`);
		line();
		line(`Node window ${ms(summary.sampledUs)} ms sampled, ${ms(busy)} ms busy; shares are of the busy time. Profile: ${result.profileFile.replace(`${ROOT}/`, '')}`);
		line();
		line(`By origin (self): ${summary.origins.map(({ key: origin, us }) => `${origin} ${ms(us)} ms`).join(', ')}`);
		const table = (title, entries) => {
			line();
			line(title);
			line();
			line('| ms | share | function | where |');
			line('|---|---|---|---|');
			for (const { key: entry, us } of entries.slice(0, top)) {
				const [fn, where] = entry.split('\t');
				line(`| ${ms(us)} | ${pct(us, busy)} | ${cell(fn)} | ${cell(where ?? '')} |`);
			}
		};
		table('Self time, top functions:', summary.self);
		table('Total time (inclusive), top functions (n8n\'s and Node\'s async plumbing left out):', summary.total.filter(({ key: entry }) => !/^(\((root|program)\)|processTicksAndRejections|runMicrotasks)\t/.test(entry)));
		table('By the innermost package function on the stack (its own time plus the n8n and Node code it called):', summary.innermostPackage.map(({ key: entry, us }) => ({ key: entry.includes('\t') ? entry : `${entry}\t`, us })));
		line();
		line('Self time by file (top):');
		line();
		line('| ms | share | origin | file |');
		line('|---|---|---|---|');
		for (const { key: entry, us } of summary.fileSelf.slice(0, top)) {
			const [origin, file] = entry.split('\t');
			line(`| ${ms(us)} | ${pct(us, busy)} | ${origin} | ${cell(file)} |`);
		}
		line();
		line('Total time by package file (nodes/):');
		line();
		line('| ms | share | file |');
		line('|---|---|---|');
		for (const { key: entry, us } of summary.fileTotal.filter(({ key: f }) => f.startsWith('package\t')).slice(0, top)) line(`| ${ms(us)} | ${pct(us, busy)} | ${cell(entry.split('\t')[1])} |`);
	}
	const slower = againstBaseline(runs, builds[builds.length - 1].label, line);
	fs.mkdirSync(join(resultsFile, '..'), { recursive: true });
	fs.writeFileSync(resultsFile, `${out.join('\n')}\n`);
	say(`\nwritten to ${resultsFile}`);
	if (slower) process.exitCode = 1;
}

/**
 * The guard of issue 56: the node's busy CPU time per 1,000 rows (the profile's, steadier than wall time on a shared
 * host) against the last recorded figure, bench/node-time-baseline.json; more than 1.5 times it fails the command.
 * BENCH_RECORD=1 records this run's figures as the new baseline. Returns whether a case was slower.
 */
function againstBaseline(runs, label, line) {
	const file = `${ROOT}/bench/node-time-baseline.json`;
	const baseline = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
	const now = {};
	for (const [key, list] of runs) {
		const [name, rows, build] = key.split(' ');
		if (build === label) now[`${name} ${rows}`] = Number(((median(list.map((r) => r.summary.busyUs / 1000)) * 1000) / Number(rows)).toFixed(1));
	}
	line();
	line('Busy CPU ms per 1,000 rows against bench/node-time-baseline.json (fails past 1.5 times):');
	line();
	let slower = false;
	for (const [key, value] of Object.entries(now)) {
		const before = baseline[key];
		const ratio = before ? value / before : undefined;
		if (ratio !== undefined && ratio > 1.5) slower = true;
		line(`- ${key}: ${value}${before ? ` (recorded ${before}, ×${ratio.toFixed(2)}${ratio > 1.5 ? ', SLOWER' : ''})` : ' (none recorded)'}`);
	}
	if (process.env.BENCH_RECORD === '1') {
		fs.writeFileSync(file, `${JSON.stringify({ ...baseline, ...now }, null, '\t')}\n`);
		line(`Recorded as the new baseline in ${file.replace(`${ROOT}/`, '')}.`);
	}
	return slower && process.env.BENCH_RECORD !== '1';
}

if (process.env.BENCH_NODE_TIME_WORKER === '1' && typeof process.send === 'function') await worker();
else if (process.argv[1] === new URL(import.meta.url).pathname) await main();
