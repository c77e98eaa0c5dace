#!/usr/bin/env node
// The scale benchmark: 1,000 / 10,000 / 100,000 rows (BENCH_SCALE_ROWS) made by a Code node, through
// real n8n (`n8n execute`, sqlite) to the local fake API: the Intelliprint node's mail run (Print Job →
// Create from content, versions 1.1 and 1) and mailing list, against the peer a user has without it (a
// Code node that builds the JSON body, n8n's HTTP Request node that POSTs it); and the mail run of rows
// that all name one recipient (a head office, a test sheet), with One Letter per Recipient on and off, where
// the search for repeated recipients does its most work. Per run: node times from
// the saved execution, the fake's own time, request bytes, memory of n8n and of its task runner. A run
// that n8n's defaults fail is run again with what it needs. Writes bench/RESULTS-scale.md.
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import execa from 'execa';
import fs from 'fs-extra';
import { readFile } from 'node:fs/promises';

import sandboxModule from '../test/fake-api/sandbox.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { markdownTable, measuredRun } from './measure.mjs';
import { node24 } from '../scripts/node24/index.mjs';

const { SANDBOX, startSandbox } = sandboxModule;
const { installN8n, N8nInstance, n8nHome, ROOT, usePackage } = runnerModule;
// BENCH_PACKAGE=<tarball>: measure that build of the package (an earlier commit's, say) instead of this one.
if (process.env.BENCH_PACKAGE) usePackage(process.env.BENCH_PACKAGE);

const SIZES = (process.env.BENCH_SCALE_ROWS || '1000,10000,100000').split(',').map(Number);
// Ports clear of the e2e suites (sandbox 5680/5681, task runner brokers 5700–5899, queue suite 5940+).
Object.assign(SANDBOX, { apiPort: 5911, filesPort: 5912 });
const CONTENT = '<p>Dear {{first_name}}, you owe {{amount_due}}</p>';
const say = (text) => process.stdout.write(`${text}\n`);

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const chain = (...names) => Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));
const apiCred = { intelliprintApi: { id: 'ipScaleCredApi01', name: 'Sandbox' } };
const headerCred = { httpHeaderAuth: { id: 'ipScaleCredHdr01', name: 'Sandbox bearer header' } };

// Rows to as many recipients (`distinct`), or all to one (`one`: the same name, address and postcode, each row
// its own variables, as invoices to a head office are).
const makeRows = (rows, shape = 'distinct') => node('Make rows', 'n8n-nodes-base.code', 2, [200, 0], {
	jsCode: shape === 'one'
		? `return Array.from({ length: ${rows} }, (_, n) => { const i = n + 1; return { json: { name: 'Head Office', address: '1 High Street\\nLeeds', postcode: 'LS1 4AP', first_name: 'C' + i, amount_due: i } }; });`
		: `return Array.from({ length: ${rows} }, (_, n) => { const i = n + 1; return { json: { name: 'Customer ' + i, address: i + ' High Street\\nLeeds', postcode: 'LS1 4AP', first_name: 'C' + i, amount_due: i } }; });`,
});
const printJob = (typeVersion, options) => [node('Create', 'n8n-nodes-intelliprint.intelliprint', typeVersion, [400, 0], {
	resource: 'printJob', operation: 'create', source: 'content', content: CONTENT, testmode: true, variables: 'all', ...(options && { options }),
}, { credentials: apiCred })];
const mailingList = () => [node('Create', 'n8n-nodes-intelliprint.intelliprint', 1.1, [400, 0], {
	resource: 'mailingList', operation: 'create', name: 'bench', addRecipients: true, variables: 'all',
}, { credentials: apiCred })];
// The peer sends the same variables the node's "All Fields of the Item" does (every field, as text),
// so both requests carry the same data. One body with every recipient, as a user would first write it;
// or one body per `chunk` recipients (one request each), as the fake's limit of 10,000 recipients per
// request (test/fake-api/schema.ts MAX_RECIPIENTS, its own choice: the API's is not public) makes them.
const peer = (chunk = Infinity) => [
	node('Build body', 'n8n-nodes-base.code', 2, [400, 0], {
		jsCode: `const recipients = $input.all().map(({ json }) => ({
	address: { name: json.name, line: json.address, postcode: json.postcode, country: 'GB' },
	variables: Object.fromEntries(Object.entries(json).map(([key, value]) => [key, String(value)])),
}));
const bodies = [];
for (let start = 0; start < recipients.length; start += ${chunk}) bodies.push({ json: { body: { content: ${JSON.stringify(CONTENT)}, testmode: true, recipients: recipients.slice(start, start + ${chunk}) } } });
return bodies;`,
	}),
	node('Create', 'n8n-nodes-base.httpRequest', 4.2, [600, 0], {
		method: 'POST', url: `${SANDBOX.apiUrl}/prints`, authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth',
		sendBody: true, specifyBody: 'json', jsonBody: '={{ $json.body }}', options: {},
	}, { credentials: headerCred }),
];
const CONFIGS = [
	{ key: 'V11', label: 'Intelliprint 1.1: print job (mail run)', steps: () => printJob(1.1) },
	{ key: 'V1', label: 'Intelliprint 1: print job (mail run)', steps: () => printJob(1) },
	{ key: 'List', label: 'Intelliprint 1.1: mailing list', steps: mailingList },
	{ key: 'Peer', label: 'peer: Code (one body) + HTTP Request', steps: () => peer() },
	// Only where one body would pass the fake's 10,000 recipients.
	{ key: 'PeerS', label: 'peer: Code (a body per 10,000) + HTTP Request', steps: () => peer(10_000), above: 10_000 },
	// Every row to one recipient (BENCH_ONLY=ONE runs both): the repeat search's worst case. It copied the
	// recipient's list of repeats at each repeat, on or off (40,000 rows: 42 s in the node); now linear.
	{ key: 'ONE1', group: 'ONE', shape: 'one', label: 'Intelliprint 1.1: print job (mail run), every row to one recipient, One Letter per Recipient on', steps: () => printJob(1.1, { oneLetterPerRecipient: true }) },
	{ key: 'ONE0', group: 'ONE', shape: 'one', label: 'Intelliprint 1.1: print job (mail run), every row to one recipient, One Letter per Recipient off', steps: () => printJob(1.1, { oneLetterPerRecipient: false }) },
];
const workflow = (id, rows, steps, shape) => {
	const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}), makeRows(rows, shape), ...steps];
	return { id, name: id, nodes, connections: chain(...nodes.map((n) => n.name)), settings: { executionOrder: 'v1' }, active: false, pinData: {} };
};

/**
 * Samples an n8n process every 100 ms until it ends, into a file: its resident memory ("time kB" lines), and the peak
 * (VmHWM) of its descendants (Code nodes run in a task runner process). In a process of its own: the
 * fake, in this one, blocks this event loop for seconds while it renders letters.
 */
const WATCH = `const fs = require('fs');
const read = (file) => { try { return fs.readFileSync(file, 'utf8'); } catch { return ''; } };
const kb = (pid, field) => parseInt(read('/proc/' + pid + '/status').split(String.fromCharCode(10)).find((line) => line.startsWith(field + ':'))?.slice(field.length + 1) ?? '0', 10);
const [pid, out] = process.argv.slice(1);
const log = (line) => fs.appendFileSync(out, line + String.fromCharCode(10));
let runner = 0;
const timer = setInterval(() => {
	if (!fs.existsSync('/proc/' + pid)) return clearInterval(timer), log('runner ' + runner);
	const children = (of) => read('/proc/' + of + '/task/' + of + '/children').split(' ').filter(Boolean);
	for (const queue = children(pid); queue.length; queue.push(...children(queue[0])), queue.shift()) runner = Math.max(runner, kb(queue[0], 'VmHWM'));
	const rss = kb(pid, 'VmRSS');
	if (rss) log(Date.now() + ' ' + rss);
}, 100);`;
const NODE = node24().node;

/**
 * The newest execution, read from n8n's database (`n8n execute` saves it): status, start and stop, and
 * each node's time and error. Not from the printed run data: at 100,000 rows it passes execa's 100 MB
 * output buffer. With n8n's own sqlite3 and flatted, under its Node, as test/e2e/executions.ts does.
 */
const READ = `const sqlite3 = require('sqlite3'); const { parse } = require('flatted');
new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY).get('SELECT e.status, e.startedAt, e.stoppedAt, d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id ORDER BY e.id DESC LIMIT 1', (error, row) => {
	if (error) throw error;
	const nodes = Object.fromEntries(Object.entries(parse(row.data).resultData.runData).map(([name, [task]]) => [name, { s: task.executionTime / 1000, error: task.error?.message }]));
	process.stdout.write(JSON.stringify({ ...row, data: undefined, nodes }));
});`;
async function lastExecution(n8n) {
	const { stdout } = await execa(NODE, ['-e', READ, `${n8n.userFolder}/.n8n/database.sqlite`], { cwd: n8nHome() });
	const run = JSON.parse(stdout);
	return { ...run, window: [run.startedAt, run.stoppedAt].map((time) => Date.parse(`${time.replace(' ', 'T')}Z`)) };
}

/**
 * Runs one workflow with measure.mjs's measuredRun (wall time, peak RSS of the whole `n8n execute`),
 * adding n8n environment for this run, then waits for the process to be gone: past execa's output
 * buffer, execa answers while n8n is still printing.
 */
async function run(n8n, workflowId, env = {}) {
	let child;
	let watch;
	const spy = Object.create(n8n, { cliProcess: { value: (args) => ((child = n8n.cliProcess(args, env)), (watch = execa(NODE, ['-e', WATCH, String(child.pid), `${n8n.userFolder}/rss-${child.pid}.txt`])), child) } });
	const measured = await measuredRun(spy, workflowId);
	while (await readFile(`/proc/${child.pid}/status`).catch(() => undefined)) await new Promise((resolve) => setTimeout(resolve, 200));
	await watch;
	const lines = (await readFile(`${n8n.userFolder}/rss-${child.pid}.txt`, 'utf8')).trim().split('\n');
	const runnerMb = Number(lines.pop().split(' ')[1]) / 1024;
	const samples = lines.map((line) => line.split(' ').map(Number));
	const execution = await lastExecution(n8n);
	// The CLI prints the whole run data as JSON once the run has ended: its memory is no part of the run's.
	const during = samples.filter(([time]) => time >= execution.window[0] - 100 && time <= execution.window[1] + 100);
	return { ...measured, runnerMb, duringMb: Math.max(0, ...during.map(([, kb]) => kb)) / 1024, execution };
}

// n8n 2.x evaluates expressions in an isolate of N8N_EXPRESSION_ENGINE_MEMORY_LIMIT MB (default 128).
// The peer's `={{ $json.body }}` copies the whole body into it: 100,000 recipients (25 MB of JSON)
// fail with "Expression exceeded memory limit" at 128 and at 256 MB, and pass at 512. A run that fails
// so is run again with this, and the table shows both.
const EXPRESSION_ENV = { N8N_EXPRESSION_ENGINE_MEMORY_LIMIT: '512' };
await installN8n();
// The real API's limit (100 a minute): the mailing list of 100,000 rows takes exactly 100 requests.
const sandbox = await startSandbox();
// Its own folder under .bench: the e2e suite clears .e2e/runs when it starts.
const n8n = await N8nInstance.create('bench-scale', { N8N_RUNNERS_BROKER_PORT: '5913' }, `${ROOT}/.bench/n8n/scale-${Date.now()}`);
await n8n.importCredentials([
	{ id: 'ipScaleCredApi01', name: 'Sandbox', type: 'intelliprintApi', data: { apiKey: SANDBOX.apiKey, baseUrl: SANDBOX.apiUrl, rateLimitRequests: 100, rateLimitWindowSeconds: 60 } },
	{ id: 'ipScaleCredHdr01', name: 'Sandbox bearer header', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${SANDBOX.apiKey}` } },
]);
// BENCH_ONLY=V11,Peer runs only those configurations (ONE: both of the one-recipient ones). Workflow ids: n8n's 16 characters, unique per run.
const only = process.env.BENCH_ONLY?.split(',');
const runs = SIZES.flatMap((rows) => CONFIGS.filter(({ key, group, above = 0 }) => rows > above && (!only || only.includes(key) || only.includes(group))).map((config) => ({ ...config, rows, wf: workflow(`ipS${config.key.padEnd(5, 'x')}${String(rows).padStart(8, '0')}`, rows, config.steps(), config.shape) })));
const folder = `${n8n.userFolder}/bench-workflows`;
await n8n.importWorkflows(await Promise.all(runs.map(async ({ wf }) => (await fs.outputJson(`${folder}/${wf.id}.json`, wf), `${folder}/${wf.id}.json`))));

/** Seconds covered by the fake's [arrival, answer] intervals (the peer's HTTP Request node sends its items at once). */
const busySeconds = (intervals) => intervals.sort((x, y) => x[0] - y[0]).reduce(([busy, until], [from, to]) => [busy + Math.max(0, to - Math.max(from, until)), Math.max(until, to)], [0, -Infinity])[0] / 1000;

const table = [];
const notes = [];
const fmt = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
async function measure(label, rows, wf, env = {}) {
	// A clean fake each run: its records and stored jobs (rendered PDFs) would otherwise pile up in this process.
	sandbox.resetRecording();
	for (const store of [sandbox.prints.jobs, sandbox.prints.files, sandbox.prints.contents, sandbox.mailingLists.lists]) store.clear();
	sandbox.prints.created.length = 0;
	say(`running: ${label}, ${rows} rows ${JSON.stringify(env)}...`);
	const measured = await run(n8n, wf.id, env);
	const { nodes, status } = measured.execution;
	const creates = sandbox.requests.filter((r) => r.method === 'POST' && /\/(prints|mailing_lists)/.test(r.path));
	const apiS = busySeconds(creates.map((r) => [r.at, r.answeredAt ?? r.at]));
	const bytes = creates.reduce((sum, r) => sum + Number(r.headers['content-length'] ?? NaN), 0);
	const made = sandbox.prints.created.reduce((sum, job) => sum + job.letters.length, 0) + [...sandbox.mailingLists.lists.values()].reduce((sum, list) => sum + list.recipients.size, 0);
	const step = (nodes['Build body']?.s ?? 0) + (nodes.Create?.s ?? NaN);
	const error = Object.entries(nodes).find(([, t]) => t.error);
	const notOk = creates.filter((r) => r.status !== 200).length;
	table.push({
		run: `${label}${env.N8N_EXPRESSION_ENGINE_MEMORY_LIMIT ? ` (expression memory ${env.N8N_EXPRESSION_ENGINE_MEMORY_LIMIT} MB)` : ''}`,
		rows,
		'make rows (Code) s': fmt(nodes['Make rows']?.s),
		'step s': fmt(step),
		'of it in the fake API s': fmt(apiS),
		'step minus API s': fmt(step - apiS),
		'step minus API, ms per 1,000 rows': fmt(((step - apiS) * 1000) / (rows / 1000), 0),
		'create requests': creates.length,
		'request MB': fmt(bytes / 1e6),
		'letters / recipients made': made,
		'n8n peak RSS MB': fmt(measured.peakMb, 0),
		'n8n RSS while running MB': fmt(measured.duringMb, 0),
		'runner peak RSS MB': fmt(measured.runnerMb, 0),
		'wall s': fmt(measured.seconds, 1),
		result: status === 'success' && !notOk ? 'ok' : `${status}${notOk ? `, ${notOk} requests not 200` : ''}${error ? `: ${error[0]}: ${error[1].error}` : ''}`,
	});
	say(JSON.stringify(table.at(-1)));
	return error?.[1].error;
}
for (const { label, rows, wf } of runs) {
	const error = await measure(label, rows, wf);
	if (/Expression exceeded memory limit/.test(error ?? '')) {
		notes.push(`${label}, ${rows} rows, n8n's default settings: "${error}". Run again with N8N_EXPRESSION_ENGINE_MEMORY_LIMIT=${EXPRESSION_ENV.N8N_EXPRESSION_ENGINE_MEMORY_LIMIT} (the next row).`);
		await measure(label, rows, wf, EXPRESSION_ENV);
	}
}
await sandbox.stop();

const growth = CONFIGS.map(({ label }) => [label, table.filter((row) => row.run === label && row.result === 'ok')]).filter(([, rows]) => rows.length > 1)
	.map(([label, rows]) => `${label}: ${rows.map((row) => `${row['step minus API, ms per 1,000 rows']} ms`).join(' / ')} at ${rows.map((row) => row.rows).join(' / ')} rows`);
const heading = [
	`Scale benchmark: one mail run, or one mailing list, of ${SIZES.join(' / ')} rows (each to its own recipient, or in the "every row to one recipient" runs all to one) through real n8n 2.41.1 (\`n8n execute\`, sqlite, default settings unless a row says otherwise), ${new Date().toISOString().slice(0, 10)}, ${(await readFile('/proc/cpuinfo', 'utf8')).match(/^processor/gm).length} cores. The API is the local fake (test/fake-api), in the bench's own process, with the real limit of 100 requests a minute; its own limits are 100 MiB a body (FakeOptions.maxBodyBytes) and 10,000 recipients a request (MAX_RECIPIENTS in test/fake-api/schema.ts; the API's is not public).`,
	'"step": the Intelliprint node\'s time from n8n\'s run data (the peer: its Code node that builds the body plus its HTTP Request node). "of it in the fake API": the time the fake had a create request between its arrival and its answer (it renders every letter into a PDF). "step minus API": what n8n and the node spend. "request MB": Content-Length of the create requests, summed. "n8n peak RSS": VmHWM of the `n8n execute` process, which at the end prints the whole run data as JSON; "while running": its largest VmRSS sampled (every 100 ms) between the execution\'s start and stop. "runner": VmHWM of its task runner, where Code nodes run.',
	'N8N_PAYLOAD_SIZE_MAX (16 MiB) limits what n8n\'s own HTTP endpoints accept (webhooks, the REST API): `n8n execute` sends nothing through them. The task runner\'s limit, N8N_RUNNERS_MAX_PAYLOAD, is 1 GiB.',
	...notes,
	...(growth.length ? [`Step minus API, per 1,000 rows (flat means linear): ${growth.join('; ')}.`] : []),
];
const markdown = ['# Scale benchmark results', '', 'Written by `npx tsx bench/scale.mjs` (BENCH_SCALE_ROWS or BENCH_ONLY: to .bench/RESULTS-scale.md instead).', '', ...heading.map((line) => `${line}  `), '', ...markdownTable(table), ''].join('\n');
say(`\n${markdown}`);
// Runs of other sizes or some configurations only (tries) leave the kept figures alone.
await fs.outputFile(process.env.BENCH_SCALE_ROWS || only ? `${ROOT}/.bench/RESULTS-scale.md` : new URL('./RESULTS-scale.md', import.meta.url).pathname, markdown);
