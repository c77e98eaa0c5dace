#!/usr/bin/env node
// `npm run bench:webhooks`: a flood of signed mail.failed deliveries into real n8n (sqlite) on a
// busy host (a CPU hog on each core beside n8n), at concurrency 8 and 32. For each: the Intelliprint
// Trigger, and as the peer n8n's own Webhook node (Respond: Immediately), the trigger a user has
// without this package (it checks no signature and dedupes nothing). Printed per run: deliveries,
// answers by status, events answered 2xx with no run (goal 0), events run twice, runs nobody was
// told of, answer time p50/p99, peak RSS of n8n, wall time. Every event is sent until it is answered
// 2xx, as the sender retries; every fifth is sent twice at once (a duplicate delivery).
//
// BENCH_DELIVERIES (default 10000) and BENCH_CONCURRENCY (default "8,32") size it; BENCH_HOG=0 runs
// it on a quiet host. JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import fs from 'fs-extra';

import loadModule from '../test/e2e/deliveryLoad.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { startWebhookN8n } from './webhookN8n.mjs';

const { cpuHog, deliverAll, report, runsOf, watchRss } = loadModule;
const { installN8n } = runnerModule;

const COUNT = Number(process.env.BENCH_DELIVERIES || 10_000);
const CONCURRENCIES = String(process.env.BENCH_CONCURRENCY || '8,32').split(',').map(Number);
const HOG = process.env.BENCH_HOG !== '0';
const PORT = 5697;
const secret = `whsec_${Buffer.from('bench-webhook-signing-key-32byte').toString('base64')}`;
const say = (text) => process.stdout.write(`${text}\n`);

async function one(kind, concurrency) {
	const { n8n, url, workflowId } = await startWebhookN8n({ name: `webhooks-${kind}-${concurrency}`, kind, secret, port: PORT });

	const events = Math.round((COUNT * 5) / 6);
	const ids = Array.from({ length: COUNT }, (_, i) => Math.floor((i * 5) / 6));
	const startRss = watchRss(n8n.pid);
	const hog = HOG ? cpuHog(2) : undefined;
	const started = Date.now();
	let attempts = [];
	try {
		attempts = await deliverAll(url, secret, 'bench', ids, concurrency);
		for (let round = 0; round < 5; round++) {
			const accepted = new Set(attempts.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.event));
			const missing = [...new Set(ids)].filter((n) => !accepted.has(`ltr_bench_${n}`));
			if (missing.length === 0) break;
			attempts.push(...(await deliverAll(url, secret, 'bench', missing, concurrency)));
		}
	} finally {
		await hog?.stop();
	}
	const wallS = (Date.now() - started) / 1000;
	const all = await runsOf(n8n.userFolder, workflowId, 600_000);
	// The warm-up call (an empty object) ran the peer once, and carries no event id.
	const runs = { succeeded: all.succeeded.filter((id) => id !== 'undefined'), other: all.other };
	const peak = await startRss.stop();
	await n8n.stop();
	const result = report(kind === 'node' ? attempts : attempts.map((a) => ({ ...a, body: a.status === 200 ? '{"received":true}' : a.body })), runs, peak);
	return { kind, concurrency, events, wallS, result, runCount: runs.succeeded.length };
}

await installN8n(2);
const rows = [];
for (const concurrency of CONCURRENCIES) {
	for (const kind of ['node', 'peer']) {
		say(`${kind === 'node' ? 'Intelliprint Trigger' : "n8n's Webhook node"}, ${COUNT} deliveries at concurrency ${concurrency}${HOG ? ', CPU hog on each core' : ''}...`);
		const row = await one(kind, concurrency);
		rows.push(row);
		say(JSON.stringify({ ...row, result: { ...row.result, acceptedWithoutRun: row.result.acceptedWithoutRun.length, ranTwice: row.result.ranTwice.length, unexpectedRuns: row.result.unexpectedRuns.length, runsNotSucceeded: row.result.runsNotSucceeded.length } }));
	}
}
const lines = [
	`| trigger | concurrency | deliveries | events | answers by status | 2xx without a run | run twice | runs not told of | runs failed | p50 | p99 | n8n peak RSS | wall |`,
	'|---|---|---|---|---|---|---|---|---|---|---|---|---|',
	...rows.map(({ kind, concurrency, events, wallS, result: r }) =>
		`| ${kind === 'node' ? 'Intelliprint Trigger' : "n8n Webhook node (peer; its id is not checked, so 'run twice' counts duplicates it let through)"} | ${concurrency} | ${r.deliveries} | ${events} | ${JSON.stringify(r.statuses)} | ${r.acceptedWithoutRun.length} | ${r.ranTwice.length} | ${r.unexpectedRuns.length} | ${r.runsNotSucceeded.length} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.peakRssMb} MB | ${wallS.toFixed(0)} s |`),
];
say(`\n${lines.join('\n')}`);
await fs.outputFile('.bench/webhooks.md', `${lines.join('\n')}\n`);
