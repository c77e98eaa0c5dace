#!/usr/bin/env node
// `npm run bench:delivery-cpu`: n8n's own CPU per webhook delivery, by expression-engine setting, on both n8n
// lines: the Intelliprint Trigger (a workflow holding only it) and, as the peer, n8n's own Webhook node. Each
// row: one fresh n8n (sqlite), BENCH_DELIVERIES (default 200) signed deliveries one at a time on a quiet host, and
// the CPU time n8n's process used from the first delivery until every run has ended, read from /proc.
// n8n's default engine ("vm") makes a fresh isolate for each webhook request (unless the trigger is n8n's own
// Webhook node) and for each run: this bench is where the figures in docs/webhook-trigger.md ("Many events") come from.
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import fs from 'fs-extra';

import loadModule from '../test/e2e/deliveryLoad.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { startWebhookN8n } from './webhookN8n.mjs';

const { deliverAll, runsOf } = loadModule;
const { installN8n } = runnerModule;

const COUNT = Number(process.env.BENCH_DELIVERIES || 200);
const PORT = 5697;
const secret = `whsec_${Buffer.from('bench-webhook-signing-key-32byte').toString('base64')}`;
const say = (text) => process.stdout.write(`${text}\n`);
const SETTINGS = [
	{ line: 2, name: 'default (vm)', env: {} },
	{ line: 2, name: 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } },
	{ line: 2, name: 'N8N_EXPRESSION_ENGINE=legacy', env: { N8N_EXPRESSION_ENGINE: 'legacy' } },
	{ line: 1, name: 'default (vm)', env: {} },
	{ line: 1, name: 'N8N_EXPRESSION_ENGINE=legacy', env: { N8N_EXPRESSION_ENGINE: 'legacy' } },
];

/** CPU seconds (user and system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s). */
async function cpuSeconds(pid) {
	const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function one({ line, env }, kind) {
	const { n8n, url, workflowId } = await startWebhookN8n({ name: `delivery-cpu-${line}-${kind}`, kind, secret, port: PORT, env, line });
	try {
		// Let n8n's start-up work settle before the count begins.
		await new Promise((r) => setTimeout(r, 3000));
		const before = await cpuSeconds(n8n.pid);
		const attempts = await deliverAll(url, secret, 'cpu', Array.from({ length: COUNT }, (_, i) => i), 1);
		const runs = await runsOf(n8n.userFolder, workflowId);
		const used = (await cpuSeconds(n8n.pid)) - before;
		const accepted = attempts.filter((a) => a.status === 200).length;
		return { msEach: Math.round((used * 1000) / COUNT), accepted, runs: runs.succeeded.filter((id) => id !== 'undefined').length };
	} finally {
		await n8n.stop();
	}
}

const rows = [];
for (const line of [2, 1]) await installN8n(line);
for (const setting of SETTINGS) {
	for (const kind of ['node', 'peer']) {
		const result = await one(setting, kind);
		const row = `| ${setting.line === 2 ? '2.41.1' : '1.123.81'} | ${setting.name} | ${kind === 'node' ? 'Intelliprint Trigger' : "n8n's Webhook node"} | ${result.accepted} of ${COUNT} | ${result.runs} | **${result.msEach} ms** |`;
		say(row);
		rows.push(row);
	}
}
const table = ['| n8n | expression engine | trigger | answered 200 | runs | n8n CPU per delivery |', '|---|---|---|---|---|---|', ...rows].join('\n');
say(`\n${table}`);
await fs.outputFile('.bench/delivery-cpu.md', `${table}\n`);
