#!/usr/bin/env node
// `npm run bench`: the batch benchmark. In one session, against the sandbox API with the real limit's
// shape (100 requests per window; the window shortened from 60 s for speed), it runs through real
// n8n (a) this node and (b) n8n's HTTP Request node as users configure it, and prints for each: wall
// time, ratio to the physical limit, 429s seen, items failed, duplicates created, peak memory of the
// n8n process. Then the same for one print job from a 100 MB PDF.
//
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import fs from 'fs-extra';

import sandboxModule from '../test/fake-api/sandbox.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { bigPdf, markdownTable, measuredRun, serverSeconds } from './measure.mjs';
import loadModule from '../test/e2e/deliveryLoad.ts';

const { SANDBOX, startSandbox } = sandboxModule;
const { installN8n, N8nInstance } = runnerModule;
const { cpuHog } = loadModule;
// BENCH_HOSTS=quiet,busy: each run also on a busy host, a CPU hog per core beside n8n for the whole run.
const HOSTS = (process.env.BENCH_HOSTS || 'quiet').split(',');

const N = Number(process.env.BENCH_ITEMS || 300);
const LIMIT = { requests: 100, windowMs: Number(process.env.BENCH_WINDOW_MS || 10_000) };
const say = (text) => process.stdout.write(`${text}\n`);

const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const chain = (...names) => Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));
const apiCred = { intelliprintApi: { id: 'ipBenchCredApi01', name: 'Sandbox' } };
const headerCred = { httpHeaderAuth: { id: 'ipBenchCredHdr01', name: 'Sandbox bearer header' } };

/** N items, each with the sample PDF as binary `data`, then the step that creates the print jobs. */
function workflow(id, pdfName, count, createNode) {
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Numbers', 'n8n-nodes-base.set', 3.4, [200, 0], { mode: 'raw', jsonOutput: JSON.stringify({ n: Array.from({ length: count }, (_, i) => i + 1) }), options: {} }),
		node('One item each', 'n8n-nodes-base.splitOut', 1, [400, 0], { fieldToSplitOut: 'n', options: {} }),
		node('Download PDF', 'n8n-nodes-base.httpRequest', 4.2, [600, 0], { url: `${SANDBOX.filesUrl}/demo/${pdfName}`, options: { response: { response: { responseFormat: 'file' } } } }),
		createNode,
	];
	return { id, name: id, nodes, connections: chain(...nodes.map((n) => n.name)), settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const intelliprintCreate = node('Create', 'n8n-nodes-intelliprint.intelliprint', 1, [800, 0], {
	resource: 'printJob', operation: 'create', binaryPropertyName: 'data', testmode: true, output: 'printJob', simplify: true,
	options: { reference: "={{ 'bench-' + $json.n }}" },
}, { credentials: apiCred });

/**
 * The HTTP Request node as a user sets it up for Intelliprint: multipart, bearer header, Retry On
 * Fail (3 tries, 1 s apart), optionally Continue On Fail and Batching.
 */
function httpCreate({ batching, continueOnFail = false } = {}) {
	const options = batching ? { batching: { batch: { batchSize: batching.size, batchInterval: batching.intervalMs } } } : {};
	return node('Create', 'n8n-nodes-base.httpRequest', 4.2, [800, 0], {
		method: 'POST', url: `${SANDBOX.apiUrl}/prints`, authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth',
		sendBody: true, contentType: 'multipart-form-data',
		bodyParameters: { parameters: [
			{ parameterType: 'formBinaryData', name: 'file', inputDataFieldName: 'data' },
			{ name: 'testmode', value: 'true' },
			{ name: 'reference', value: "={{ 'bench-' + $json.n }}" },
		] },
		options,
	}, { credentials: headerCred, retryOnFail: true, maxTries: 3, waitBetweenTries: 1000, ...(continueOnFail ? { onError: 'continueRegularOutput' } : {}) });
}

await installN8n();
const sandbox = await startSandbox(LIMIT);
const n8n = await N8nInstance.create('bench');
await n8n.importCredentials([
	{ id: 'ipBenchCredApi01', name: 'Sandbox', type: 'intelliprintApi', data: { apiKey: SANDBOX.apiKey, baseUrl: SANDBOX.apiUrl, rateLimitRequests: LIMIT.requests, rateLimitWindowSeconds: LIMIT.windowMs / 1000 } },
	{ id: 'ipBenchCredHdr01', name: 'Sandbox bearer header', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${SANDBOX.apiKey}` } },
]);
sandbox.publish('big-100mb.pdf', await bigPdf(100_000_000));
const LATENCIES_MS = (process.env.BENCH_LATENCIES || '0,300,1000').split(',').map(Number);
const perSecond = { size: LIMIT.requests / 10, intervalMs: LIMIT.windowMs / 10 };
const perWindow = { size: LIMIT.requests, intervalMs: LIMIT.windowMs };
const configs = [
	['this node (defaults)', 'ipBenchNode', intelliprintCreate],
	['HTTP Request: Retry + Continue On Fail', 'ipBenchHttpC', httpCreate({ continueOnFail: true })],
	[`HTTP Request: Retry + Batching ${perSecond.size} per ${perSecond.intervalMs / 1000} s`, 'ipBenchHttpS', httpCreate({ batching: perSecond })],
	[`HTTP Request: Retry + Batching ${perWindow.size} per ${perWindow.intervalMs / 1000} s`, 'ipBenchHttpW', httpCreate({ batching: perWindow })],
];
const id = (prefix, suffix) => `${prefix}${suffix}`.padEnd(16, '0').slice(0, 16);
// BENCH_ONLY=Node,HttpW runs only those (the ends of the workflow ids: Node, HttpC, HttpS, HttpW, Big).
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : undefined;
const workflows = [
	...LATENCIES_MS.flatMap((latency) => configs.map(([label, prefix, create]) => ({ label, latency, wf: workflow(id(prefix, latency), 'cover-letter.pdf', N, create) }))),
	{ label: 'this node: one 100 MB PDF', latency: 0, wf: workflow('ipBenchBigNode01', 'big-100mb.pdf', 1, intelliprintCreate) },
	{ label: 'HTTP Request: one 100 MB PDF', latency: 0, wf: workflow('ipBenchBigHttp01', 'big-100mb.pdf', 1, httpCreate()) },
].filter(({ wf }) => !only || only.some((name) => wf.id.startsWith(`ipBench${name}`)));
// Quiet and busy runs of one latency side by side: same workflow, same sandbox state.
const runs = workflows.flatMap((run) => HOSTS.map((host) => ({ ...run, host })));
const folder = `${n8n.userFolder}/bench-workflows`;
await fs.ensureDir(folder);
await n8n.importWorkflows(await Promise.all(workflows.map(async ({ wf }) => {
	const file = `${folder}/${wf.id}.json`;
	await fs.writeJson(file, wf);
	return file;
})));

/**
 * The least time the limit allows for N requests: the API's sliding window lets a full window's
 * worth go at once, then one more window's worth each window, and the last answer takes one latency.
 */
const minimumSeconds = (items, latencyMs) => (Math.ceil(items / LIMIT.requests) - 1) * (LIMIT.windowMs / 1000) + latencyMs / 1000;
/** The same with the last wave taking as long as the sandbox really needs for it (measured, see serverSeconds). */
const serverMinimum = (items, latencyMs) => (Math.ceil(items / LIMIT.requests) - 1) * (LIMIT.windowMs / 1000) + (lastWave.get(latencyMs) ?? latencyMs / 1000);

/**
 * BENCH_TIMELINE=1: each run's creates as the sandbox saw them (reference, arrival, counted by the rate
 * limit, answered, in ms from the first arrival `start`; status) in .bench/timeline-<workflow id>.json, to see
 * where a run spends its time.
 */
async function writeTimeline(workflowId, requests) {
	const creates = requests.filter((request) => request.method === 'POST' && request.path.endsWith('/prints'));
	const start = Math.min(...creates.map((request) => request.at));
	const since = (time) => (time === undefined ? null : time - start);
	const timeline = creates.map((request) => ({
		reference: request.body.reference,
		at: since(request.at),
		counted: since(request.countedAt),
		answered: since(request.answeredAt),
		status: request.status,
	}));
	await fs.outputJson(new URL(`../.bench/timeline-${workflowId}.json`, import.meta.url).pathname, { start, timeline });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, LIMIT.windowMs + 500));
const coverLetter = Buffer.from(await (await fetch(`${SANDBOX.filesUrl}/demo/cover-letter.pdf`)).arrayBuffer());
/** Per latency: the sandbox's own time for one window's worth of creates at once (measured once). */
const lastWave = new Map();
const rows = [];
for (const { label, latency, wf, host } of runs) {
	sandbox.latencyMs = latency;
	if (!lastWave.has(latency) && N > 1) {
		await settle();
		lastWave.set(latency, await serverSeconds(SANDBOX.apiUrl, SANDBOX.apiKey, coverLetter, Math.min(N, LIMIT.requests)));
	}
	sandbox.resetRecording();
	sandbox.prints.jobs.clear();
	// Let the previous run's requests leave the window, so every run starts from the same place.
	await settle();
	say(`running: ${label}, latency ${latency} ms, ${host} host...`);
	const items = JSON.parse(wf.nodes[1].parameters.jsonOutput).n.length;
	const hog = host === 'busy' ? cpuHog(Number(process.env.BENCH_HOGS || 2)) : undefined;
	let measured;
	try {
		measured = await measuredRun(n8n, wf.id);
	} finally {
		await hog?.stop();
	}
	if (process.env.BENCH_TIMELINE) await writeTimeline(wf.id, sandbox.requests);
	const created = [...sandbox.prints.jobs.values()];
	const perReference = new Map();
	for (const job of created) perReference.set(job.reference, (perReference.get(job.reference) ?? 0) + 1);
	const duplicates = [...perReference.values()].reduce((sum, count) => sum + Math.max(0, count - 1), 0);
	const minimum = minimumSeconds(items, latency);
	rows.push({
		run: label,
		host,
		'latency ms': latency,
		items,
		'create step s': measured.stepSeconds?.toFixed(1) ?? '-',
		'x burst minimum': items > 1 && measured.stepSeconds ? (measured.stepSeconds / minimum).toFixed(2) : '-',
		'x server minimum': items > 1 && measured.stepSeconds ? (measured.stepSeconds / serverMinimum(items, latency)).toFixed(2) : '-',
		'x N/R·W': items > 1 && measured.stepSeconds ? (measured.stepSeconds / ((items / LIMIT.requests) * (LIMIT.windowMs / 1000))).toFixed(2) : '-',
		'wall s': measured.seconds.toFixed(1),
		'429s seen': sandbox.rateLimited,
		'items failed': items - perReference.size,
		duplicates,
		'peak RSS MB': measured.peakMb.toFixed(0),
		'run ended': measured.exitCode === 0 ? 'ok' : 'failed',
	});
}
await sandbox.stop();

const heading = [
	`Batch benchmark: ${N} print-job creates${HOSTS.includes('busy') ? ` (host "busy": ${process.env.BENCH_HOGS || 2} CPU hogs spinning beside n8n on this 2-core machine for the whole run)` : ''}, sandbox limit ${LIMIT.requests} requests per ${LIMIT.windowMs / 1000} s (${LIMIT.windowMs === 60_000 ? "the API's own limit" : "the API's 100 per minute, window shortened"}), server latency per request ${LATENCIES_MS.join(' / ')} ms, n8n 2.41.1, ${new Date().toISOString().slice(0, 10)}`,
	`"x burst minimum": the Create step's time (from n8n's run data) over the least the sliding window allows: (ceil(N / ${LIMIT.requests}) - 1) x ${LIMIT.windowMs / 1000} s + one latency = ${minimumSeconds(N, 0).toFixed(0)} s + latency. "x server minimum": the same, with the last window's worth taking as long as the sandbox itself needs to answer ${Math.min(N, LIMIT.requests)} creates sent at once (measured per latency from the bench process, which also runs the sandbox, so a little high: ${[...lastWave].map(([latency, seconds]) => `${latency} ms → ${seconds.toFixed(1)} s`).join(', ')}). "x N/R·W": over the limit's rate, N / ${LIMIT.requests} x ${LIMIT.windowMs / 1000} s = ${((N / LIMIT.requests) * (LIMIT.windowMs / 1000)).toFixed(0)} s. "items failed": items without a print job; "duplicates": print jobs created more than once for one item. Peak RSS: the n8n process's VmHWM.`,
];
say('');
heading.forEach((line) => say(line));
console.table(rows);

const markdown = [
	'# Benchmark results',
	'',
	`Written by \`npm run bench\` (bench/batch.mjs) on the machine it last ran on${only ? ` (BENCH_ONLY=${only.join(',')})` : ''}.`,
	'',
	...heading.map((line) => `${line}  `),
	'',
	...markdownTable(rows),
	'',
];
// The default run writes RESULTS.md; a run with the API's real 60 s window keeps its own file beside it; a
// partial or quiet-and-busy run (BENCH_ONLY, BENCH_HOSTS) goes to .bench, to be copied in by hand.
const resultsFile =
	only || process.env.BENCH_HOSTS ? '../.bench/RESULTS-batch.md' : LIMIT.windowMs === 10_000 ? 'RESULTS.md' : `RESULTS-window-${LIMIT.windowMs / 1000}s.md`;
await fs.outputFile(new URL(`./${resultsFile}`, import.meta.url).pathname, markdown.join('\n'));
