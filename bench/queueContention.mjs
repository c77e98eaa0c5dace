#!/usr/bin/env node
// `npm run bench:queue-contention`: n8n in queue mode, several workers on one key's daily limit (issue 47).
//
// Main, BENCH_WORKERS workers (default 4, one execution each at a time) and a webhook processor on PostgreSQL and
// Redis, as test/e2e/queue runs them. For each listing delay (0, 1, 5 s) and repeat, as many webhook calls at once as
// there are workers, each a run of 300 live letters (£1.02 after tax) under a daily limit of £100 on one key, each on
// its own fake API (its own day). Printed per run: the workers used, letters confirmed, £ past the limit (goal 0),
// drafts left (goal at most one per worker), requests per letter, and the span of the API requests.
// JavaScript through tsx, as scripts/dev.mjs.
import execa from 'execa';
import fs from 'fs-extra';

import serverModule from '../test/fake-api/server.ts';
import clusterModule from '../test/e2e/queue/cluster.ts';
import workflowsModule from '../test/e2e/queue/workflows.ts';
import runnerModule from '../test/e2e/n8n.ts';
import processesModule from '../test/e2e/queue/processes.ts';
import { markdownTable } from './measure.mjs';

const { startFakeIntelliprint } = serverModule;
const { QueueCluster } = clusterModule;
const { people, volumeWorkflow } = workflowsModule;
const { installN8n, packPackage, ROOT } = runnerModule;
const { killLeftovers } = processesModule;
const say = (text) => process.stdout.write(`${text}\n`);

const WORKERS = Number(process.env.BENCH_WORKERS || 4);
const DELAYS = (process.env.BENCH_DELAYS || '0,1,5').split(',').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS || 2);
const LETTERS = 300;
const DAILY = 100;

if ((await killLeftovers()).length) throw new Error('Another queue-mode run is using the cluster ports: wait for it to end.');
await installN8n(2);
await packPackage();
await execa('bash', [`${ROOT}/test/e2e/queue/install-services.sh`], { stdio: 'inherit' });

const runs = DELAYS.flatMap((delay) => Array.from({ length: REPEATS }, (_, repeat) => ({ delay, repeat })));
for (const [i, run] of runs.entries()) {
	run.fake = await startFakeIntelliprint({ rateLimit: false, listingDelayMs: run.delay * 1000 });
	const id = `ipQueueCont${String(i).padStart(5, '0')}`;
	const uuid = `7c1d2e3f-4a5b-4c6d-8e7f-${String(i).padStart(12, '0')}`;
	run.volume = { id, path: `queue-contention-${i}`, webhookId: uuid, credential: { id: `ipQueueContCr${String(i).padStart(3, '0')}`, name: `Contention ${i}` } };
}
const cluster = await QueueCluster.create({ workers: WORKERS, webhookProcessors: 1 });
const rows = [];
try {
	await cluster.importCredentials(runs.map((run) => ({ ...run.volume.credential, type: 'intelliprintApi', data: { apiKey: run.fake.apiKey, baseUrl: run.fake.url, rateLimitRequests: 100_000, dailySpendingLimit: DAILY } })));
	const files = [];
	for (const run of runs) {
		const file = `${cluster.dir}/workflows/${run.volume.id}.json`;
		await fs.outputJson(file, volumeWorkflow(run.volume, { testmode: false, confirmed: true }));
		files.push(file);
	}
	await cluster.importWorkflows(files);
	for (const run of runs) await cluster.publish(run.volume.id);
	await cluster.start();

	for (const run of runs) {
		say(`running: ${WORKERS} workers, list ${run.delay} s late, run ${run.repeat + 1}...`);
		const started = Date.now();
		const calls = await Promise.all(Array.from({ length: WORKERS }, async (_, w) => {
			const body = JSON.stringify({ people: people(`W${w}`, LETTERS) });
			return await cluster.callWebhook(0, run.volume.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
		}));
		if (calls.some((call) => call.status !== 200)) throw new Error(`webhook answered ${calls.map((call) => call.status).join(', ')}`);
		const executions = await cluster.waitForExecutions(run.volume.id, WORKERS, 15 * 60_000);
		const workers = await Promise.all(executions.map(async (execution) => ((await cluster.workerOf(execution.id)) ?? -2) + 1));
		const jobs = [...run.fake.prints.jobs.values()];
		const confirmed = jobs.filter((job) => job.confirmed && !job.testmode);
		const spent = confirmed.reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
		const requests = run.fake.requests.filter((request) => !request.path.startsWith('files:'));
		rows.push({
			workers: WORKERS,
			'list late s': run.delay,
			run: run.repeat + 1,
			'ran on workers': [...new Set(workers)].sort().join(' '),
			'letters confirmed': confirmed.length,
			'£ confirmed': spent.toFixed(2),
			'£ over': Math.max(0, spent - DAILY).toFixed(2),
			'drafts left': jobs.length - confirmed.length,
			'requests per letter': (requests.length / Math.max(1, confirmed.length)).toFixed(2),
			'API span s': requests.length ? ((requests.at(-1).at - requests[0].at) / 1000).toFixed(1) : '0',
			'wall s': ((Date.now() - started) / 1000).toFixed(0),
			statuses: executions.map((execution) => execution.status).join(' '),
		});
		say(JSON.stringify(rows.at(-1)));
	}
} finally {
	await cluster.stop();
	await Promise.all(runs.map((run) => run.fake.stop()));
}

const heading = `Queue mode, n8n 2.41.1, ${new Date().toISOString().slice(0, 10)}: main, ${WORKERS} workers (one execution each at a time) and a webhook processor on PostgreSQL and Redis; ${WORKERS} webhook calls at once, each ${LETTERS} live letters at £1.02 after tax, under a daily limit of £${DAILY} on one key (98 fit); the fake API lists new jobs and confirms late as shown, no rate limit.`;
say('');
say(heading);
console.table(rows);
const markdown = ['# Queue mode: workers sharing a daily limit', '', 'Written by `npm run bench:queue-contention` (bench/queueContention.mjs) on the machine it last ran on.', '', heading, '', ...markdownTable(rows), ''];
await fs.outputFile(new URL(process.env.BENCH_WORKERS || process.env.BENCH_DELAYS ? '../.bench/RESULTS-queue-contention.md' : './RESULTS-queue-contention.md', import.meta.url).pathname, markdown.join('\n'));
