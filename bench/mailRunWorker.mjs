// bench/mailRuns.mjs's helper, two things in one file:
// - the invoice sheets of day 1 and day 2 (sheetRows), the same in the parent (which counts letters per invoice) and
//   the child (which sends them);
// - run as a child process (child_process.fork), one n8n process: it runs "Sheet → Intelliprint" through n8n-core's own
//   WorkflowExecute (the unit tests' harness, test/helpers/n8n.ts, with the built node from dist/ instead of the
//   TypeScript sources), as often as the parent asks over IPC. Runs in the same child are runs in the same n8n process
//   (the node's module state kept: its sent-key index, its pacer); a new child is a fresh n8n process.
//
// IPC in:  { type: 'run', id, credentials, parameters, typeVersion, sheet: { size, day, first } }, { type: 'exit' }
// IPC out: { type: 'ready' } once loaded; per run { type: 'done', id, nodeMs, wallMs, error, items } or { type: 'failed', id, message }.
// BENCH_NODE_DIR: the package folder whose dist/ to load (default: this repo). BENCH_FROM=source loads the TypeScript
// sources instead (what the unit tests run; the child then needs tsx: the parent forks it with --import tsx).
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { credentialsHelperClass, runInEngine } from './engine.mjs';

const padded = (n) => `INV-${String(n).padStart(6, '0')}`;
const invoice = (n) => ({ invoice_no: padded(n), name: `Customer ${n}`, address: `${n} Mill Lane\nLeeds`, postcode: 'LS1 4AP', amount_due: String(10 + (n % 90)) });

/**
 * What day 2 changes in a sheet of `size` rows (at least 30): 10 invoices removed, spread over the sheet (never among
 * the first 10, which are the ones moved), and 1 address corrected (the invoice in the middle).
 */
export function dayTwoChange(size) {
	const corrected = padded(Math.floor(size / 2));
	const removed = new Set();
	for (let k = 0; k < 10; k++) {
		const n = 11 + Math.floor((k * (size - 11)) / 10);
		removed.add(padded(padded(n) === corrected ? n + 1 : n));
	}
	return { removed, corrected };
}

/**
 * The sheet of a day. Day 1: `size` invoices, INV-000001 on, each to its own customer (`first`: only its first rows,
 * a run made before of part of the sheet). Day 2: the same sheet with 20 new invoices on top, 10 removed, 5 moved (the
 * first 5 kept rows now after the next 5) and 1 address corrected (a new street and town, same customer and invoice).
 */
export function sheetRows({ size, day, first }) {
	const dayOne = Array.from({ length: size }, (_, i) => invoice(i + 1));
	if (day === 1) return first ? dayOne.slice(0, first) : dayOne;
	const change = dayTwoChange(size);
	const kept = dayOne.filter((row) => !change.removed.has(row.invoice_no));
	const moved = [...kept.slice(5, 10), ...kept.slice(0, 5), ...kept.slice(10)];
	const corrected = moved.map((row) => (row.invoice_no === change.corrected ? { ...row, address: `${row.name.slice('Customer '.length)} Mill Lane\nHeadingley` } : row));
	return [...Array.from({ length: 20 }, (_, i) => invoice(size + 1 + i)), ...corrected];
}

/** What the node said per row: sent now, already sent (of those, sent before to another address), failed. */
function summary(items) {
	const out = { items: items.length, sentNow: 0, alreadySent: 0, addressChanged: 0, failed: 0, firstError: undefined };
	const jobs = new Set();
	for (const { json } of items) {
		if (json.error !== undefined) {
			out.failed++;
			out.firstError ??= `${json.error?.message ?? json.error ?? json.message}${json.error?.description ? ` (${json.error.description})` : json.description ? ` (${json.description})` : ""}`.slice(0, 400);
			continue;
		}
		if (json.already_sent === true) out.alreadySent++;
		else out.sentNow++;
		if (json.address_changed === true) out.addressChanged++;
		if (json.print_id) jobs.add(String(json.print_id));
	}
	return { ...out, printJobsNamed: jobs.size };
}

async function worker() {
	process.env.N8N_USER_FOLDER ||= mkdtempSync(join(tmpdir(), 'bench-mail-runs-'));
	process.env.N8N_ENCRYPTION_KEY ||= 'bench-encryption-key';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	process.env.N8N_LOG_LEVEL = 'silent';

	const require = createRequire(import.meta.url);
	// CommonJS throughout, as in n8n: the node must see n8n-core's very n8n-workflow classes.
	const { Container } = require('@n8n/di');
	const { BinaryDataConfig, BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
	const { ICredentialsHelper, NodeConnectionTypes, Workflow } = require('n8n-workflow');

	const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
	const from = process.env.BENCH_FROM === 'source' ? 'source' : 'dist';
	const folder = process.env.BENCH_NODE_DIR || root;
	const load = (path) => require(from === 'source' ? `${folder}/${path}.ts` : `${folder}/dist/${path}.js`);
	const { Intelliprint } = load('nodes/Intelliprint/Intelliprint.node');
	const { IntelliprintApi } = load('credentials/IntelliprintApi.credentials');

	const Credentials = credentialsHelperClass(ICredentialsHelper, IntelliprintApi);

	/** The sheet: a node that outputs the day's rows, as n8n's Google Sheets node would. */
	let rows = [];
	class Sheet {
		description = { displayName: 'Sheet', name: 'sheet', group: ['input'], version: 1, description: '', defaults: { name: 'Sheet' }, inputs: [NodeConnectionTypes.Main], outputs: [NodeConnectionTypes.Main], properties: [] };
		async execute() {
			return [rows.map((json, item) => ({ json, pairedItem: { item } }))];
		}
	}
	const classes = { 'n8n-nodes-intelliprint.intelliprint': new Intelliprint(), 'bench.sheet': new Sheet() };
	const nodeTypes = { getByName: (type) => classes[type], getByNameAndVersion: (type) => classes[type], getKnownTypes: () => ({}) };
	Container.get(BinaryDataConfig).mode = 'default';
	await Container.get(BinaryDataService).init();

	let executions = 0;
	async function run({ credentials, parameters, typeVersion }) {
		const nodes = [
			{ id: 'sheet', name: 'Sheet', type: 'bench.sheet', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'ip', name: 'Intelliprint', type: 'n8n-nodes-intelliprint.intelliprint', typeVersion, position: [200, 0], parameters, credentials: { intelliprintApi: { id: 'cred-1', name: 'Intelliprint' } }, onError: 'continueRegularOutput' },
		];
		const connections = { Sheet: { main: [[{ node: 'Intelliprint', type: NodeConnectionTypes.Main, index: 0 }]] } };
		const workflow = new Workflow({ id: 'wf-bench', nodes, nodeTypes, active: false, settings: { executionOrder: 'v1' }, connections });
		// Each run an execution of its own, as in n8n.
		const executionId = `bench-${process.pid}-${++executions}`;
		const started = performance.now();
		const result = await runInEngine({ WorkflowExecute, ExecutionLifecycleHooks, workflow, nodes, credentialsHelper: new Credentials(credentials), executionId });
		return { task: result.data.resultData.runData.Intelliprint?.[0], wallMs: performance.now() - started, runError: result.data.resultData.error };
	}

	process.on('message', async (message) => {
		if (message.type === 'exit') process.exit(0);
		if (message.type !== 'run') return;
		try {
			rows = sheetRows(message.sheet);
			const { task, wallMs, runError } = await run(message);
			rows = [];
			const error = task?.error ?? runError;
			process.send({ type: 'done', id: message.id, nodeMs: task?.executionTime, wallMs, error: error ? String(error.message).slice(0, 300) : undefined, items: summary(task?.data?.main?.[0] ?? []) });
		} catch (caught) {
			process.send({ type: 'failed', id: message.id, message: String(caught?.stack ?? caught) });
		}
	});
	process.send({ type: 'ready', from, folder, pid: process.pid });
}

if (typeof process.send === 'function' && process.argv[1] === new URL(import.meta.url).pathname) await worker();
