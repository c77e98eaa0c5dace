/// <reference types="vite/client" />
import fs from 'fs-extra';
import { sleep } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FakeIntelliprint } from '../../fake-api/server';
import { ROOT } from '../n8n';
import { customerOf, invoiceSheet } from '../../helpers/invoiceSheet';
import { letterRow } from '../../../nodes/Intelliprint/results/letterRow';
import type { PrintJob } from '../../../nodes/Intelliprint/results/output';
import { signedDelivery } from '../signedDelivery';
import { QUEUE_PORTS, QueueCluster } from './cluster';
import { measure } from './volume';
import {
	API_CREDENTIAL,
	BUSY_VOLUME,
	DELIVERIES,
	deliveriesWorkflow,
	MAIL_RUN,
	MAIL_RUN_PARTS,
	mailRunWorkflow,
	people,
	POLLING,
	pollingWorkflow,
	SMOKE,
	SPENDING,
	VOLUME,
	volumeWorkflow,
	WEBHOOK_CREDENTIAL,
} from './workflows';

const API_KEY = 'queue_key_not_secret';
const SECRET = `whsec_${Buffer.from('queue-mode-webhook-signing-key!!').toString('base64')}`;
/**
 * The API's limit shape (100 requests in a sliding window) with a create that takes the API a second. The suite
 * slides it over 10 s, the credential told the same, so two 300-letter runs cross five windows in about a minute:
 * the same pacing decisions, window by window, as over the API's real 60 s. `npm run bench:queue` runs the rate
 * budget cases with QUEUE_WINDOW_SECONDS=60, the figures docs/running-at-volume.md gives.
 */
const LIMIT = { requests: 100, windowMs: Number(import.meta.env?.QUEUE_WINDOW_SECONDS || 10) * 1000 };
const PACING = { rateLimitRequests: LIMIT.requests, rateLimitWindowSeconds: LIMIT.windowMs / 1000 };
const LATENCY_MS = 1000;
const PER_RUN = 300;
/** The busy API takes requests in one at a time, 15 ms each: two workers' first bursts are counted over 3 s. */
const BUSY_READ_MS = 15;
const POLL_CREDENTIAL = { id: 'ipQueuePollCred1', name: 'Intelliprint (polling fake)' };
/** The polling trigger's own fake API, so its polls do not spend the volume runs' budget. */
const POLL_PORTS = { api: 5948, files: 5949 };

let api: FakeIntelliprint;
let pollApi: FakeIntelliprint;
/** The spending case's own fake API: its own day, no rate limit (the volume runs prove the pacing). */
let spendApi: FakeIntelliprint;
const SPEND_PORTS = { api: 5960, files: 5961 };
/** The mail run case's own fake API. */
let runApi: FakeIntelliprint;
const RUN_PORTS = { api: 5962, files: 5963 };
let cluster: QueueCluster;
beforeAll(async () => {
	api = await new FakeIntelliprint({ apiKey: API_KEY, rateLimit: LIMIT, latencyMs: LATENCY_MS }).start(
		QUEUE_PORTS.fakeApi,
		'127.0.0.1',
		QUEUE_PORTS.fakeFiles,
	);
	pollApi = await new FakeIntelliprint({ apiKey: API_KEY, rateLimit: LIMIT }).start(POLL_PORTS.api, '127.0.0.1', POLL_PORTS.files);
	spendApi = await new FakeIntelliprint({ apiKey: API_KEY, rateLimit: false }).start(SPEND_PORTS.api, '127.0.0.1', SPEND_PORTS.files);
	runApi = await new FakeIntelliprint({ apiKey: API_KEY, rateLimit: false }).start(RUN_PORTS.api, '127.0.0.1', RUN_PORTS.files);
	cluster = await QueueCluster.create();
	await cluster.importCredentials([
		// Give Up Waiting After at ten minutes, as docs/running-at-volume.md advises for several workers on one key.
		{ ...API_CREDENTIAL, type: 'intelliprintApi', data: { apiKey: API_KEY, baseUrl: api.url, maxWaitSeconds: 600, ...PACING } },
		{
			...BUSY_VOLUME.credential,
			type: 'intelliprintApi',
			data: { apiKey: API_KEY, baseUrl: api.url.replace('127.0.0.1', '127.1'), maxWaitSeconds: 600, ...PACING },
		},
		{ ...SMOKE.credential, type: 'intelliprintApi', data: { apiKey: API_KEY, baseUrl: api.url.replace('127.0.0.1', '127.0.1'), ...PACING } },
		{ ...WEBHOOK_CREDENTIAL, type: 'intelliprintWebhookApi', data: { signingSecret: SECRET } },
		{ ...POLL_CREDENTIAL, type: 'intelliprintApi', data: { apiKey: API_KEY, baseUrl: pollApi.url, ...PACING } },
		{ ...SPENDING.credential, type: 'intelliprintApi', data: { apiKey: API_KEY, baseUrl: spendApi.url, rateLimitRequests: 100_000, dailySpendingLimit: 100 } },
		{ ...MAIL_RUN.credential, type: 'intelliprintApi', data: { apiKey: API_KEY, baseUrl: runApi.url, rateLimitRequests: 100_000 } },
	]);
	const workflows = [
		volumeWorkflow(SMOKE),
		volumeWorkflow(VOLUME),
		volumeWorkflow(BUSY_VOLUME),
		volumeWorkflow(SPENDING, { testmode: false, confirmed: true }),
		mailRunWorkflow(MAIL_RUN),
		mailRunWorkflow(MAIL_RUN_PARTS, 1_000),
		deliveriesWorkflow(`http://127.0.0.1:${QUEUE_PORTS.fakeFiles}/notify`),
		pollingWorkflow(`http://127.0.0.1:${POLL_PORTS.files}/notify`, POLL_CREDENTIAL),
	];
	const files = workflows.map((workflow) => ({ file: `${cluster.dir}/workflows/${workflow.id}.json`, workflow }));
	for (const { file, workflow } of files) await fs.outputJson(file, workflow);
	await cluster.importWorkflows(files.map(({ file }) => file));
	for (const { workflow } of files) await cluster.publish(workflow.id);
	await cluster.start();
});
afterAll(async () => {
	await cluster?.stop();
	await api?.stop();
	await pollApi?.stop();
	await spendApi?.stop();
	await runApi?.stop();
});

describe('n8n queue mode: main, 2 workers, 2 webhook processors on PostgreSQL and Redis', () => {
	it('runs a webhook call through each processor on the workers, one letter each, on different workers', async ({ annotate }) => {
		const smoke = [
			{ reference: 'smoke-1', name: 'Ada Lovelace', address: '12 St James Square\nLondon', postcode: 'SW1Y 4JH' },
			{ reference: 'smoke-2', name: 'Alan Turing', address: '2 Bletchley Park\nMilton Keynes', postcode: 'MK3 6EB' },
		];
		const responses = await Promise.all(
			smoke.map(async (person, index) =>
				await cluster.callWebhook(index, SMOKE.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ people: [person] }) }),
			),
		);
		expect(responses.map((response) => response.status)).toEqual([200, 200]);

		const executions = await cluster.waitForExecutions(SMOKE.id, 2);
		expect(executions.map((execution) => [execution.mode, execution.status])).toEqual([['webhook', 'success'], ['webhook', 'success']]);
		const jobs = api.prints.created.filter((job) => String(job.reference).startsWith('smoke-'));
		expect(jobs.flatMap((job) => job.letters.map((letter) => letter.address.name)).sort()).toEqual(smoke.map((person) => person.name));
		expect(jobs.every((job) => job.testmode)).toBe(true);

		const workers = await Promise.all(executions.map(async (execution) => await cluster.workerOf(execution.id)));
		await annotate(`executions ${executions.map((execution, i) => `${execution.id} on worker ${(workers[i] ?? -1) + 1}`).join(', ')}; logs in ${cluster.dir}/logs`);
		expect(workers.every((worker) => worker !== undefined)).toBe(true);
		expect(await cluster.main.log()).not.toContain('Worker started execution');
		expect(new Set(workers).size, 'two executions at once land on different workers').toBe(2);
	});
});

describe('queue mode: spending limits across two workers', () => {
	it('300 live letters under £100 from two executions at once, on two workers: the limit filled to within a letter, never passed, a draft a worker at most', { timeout: 10 * 60_000 }, async ({ annotate }) => {
		const calls = await Promise.all(
			['S', 'T'].map(async (batch, processor) => {
				const body = JSON.stringify({ people: people(batch, 300) });
				return await cluster.callWebhook(processor, SPENDING.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
			}),
		);
		expect(calls.map((call) => call.status)).toEqual([200, 200]);
		const executions = await cluster.waitForExecutions(SPENDING.id, 2, 8 * 60_000);
		const workers = await Promise.all(executions.map(async (execution) => ((await cluster.workerOf(execution.id)) ?? -2) + 1));
		const live = [...spendApi.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode);
		const spent = live.reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
		const measured = { workers, confirmed: live.length, spentGbp: Number(spent.toFixed(2)), overshootGbp: Number(Math.max(0, spent - 100).toFixed(2)), drafts: spendApi.prints.jobs.size - live.length };
		await fs.outputJson(`${ROOT}/.e2e/queue-spending.json`, measured, { spaces: 2 });
		await annotate(JSON.stringify(measured));
		expect(new Set(workers).size, 'the two runs ran on the two workers').toBe(2);
		// Each worker's drafts are claims the other counts (docs/spending-limits.md): together they do not pass the limit.
		expect(spent, JSON.stringify(measured)).toBeLessThanOrEqual(100);
		expect(spent, JSON.stringify(measured)).toBeGreaterThan(100 - 1.02);
		// A draft is left only where a claim did not fit even alone, and then its worker drafts no more.
		expect(measured.drafts, JSON.stringify(measured)).toBeLessThanOrEqual(2);
	});
});

describe('queue mode: one keyed mail run started twice at once', () => {
	it('two executions of the same 200-row mail run, on two workers: each row one letter, the other run withdrawn', { timeout: 10 * 60_000 }, async ({ annotate }) => {
		const body = JSON.stringify({ people: people('M', 200) });
		const calls = await Promise.all([0, 1].map(async (processor) => await cluster.callWebhook(processor, MAIL_RUN.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body })));
		expect(calls.map((call) => call.status)).toEqual([200, 200]);
		const executions = await cluster.waitForExecutions(MAIL_RUN.id, 2, 8 * 60_000);
		const workers = await Promise.all(executions.map(async (execution) => ((await cluster.workerOf(execution.id)) ?? -2) + 1));
		const letters = new Map<string, number>();
		const kept = [...runApi.prints.jobs.values()];
		for (const job of kept.filter((one) => one.confirmed)) for (const letter of job.letters) letters.set(String(letter.address.name), (letters.get(String(letter.address.name)) ?? 0) + 1);
		const measured = { workers, jobsKept: kept.length, confirmed: kept.filter((job) => job.confirmed).length, people: letters.size, postedTwice: [...letters.values()].filter((count) => count > 1).length };
		await fs.outputJson(`${ROOT}/.e2e/queue-mail-run.json`, measured, { spaces: 2 });
		await annotate(JSON.stringify(measured));
		expect(new Set(workers).size, 'the two runs ran on the two workers').toBe(2);
		expect(measured).toMatchObject({ jobsKept: 1, confirmed: 1, people: 200, postedTwice: 0 });
	});
});

describe('queue mode: a scheduled mail run over a sheet that changes', () => {
	it.for([100, 10_000])('%i rows, parts of 1,000: day 1, day 2 (20 on top, 10 removed, 5 moved, 1 readdressed), day 2 again on the workers: each invoice one letter, each letter naming its rows', { timeout: 12 * 60_000 }, async (size, { annotate }) => {
		// Each size's keys apart from the other's on the one account.
		const rows = (day: number) => invoiceSheet(day, size, 0).map((row) => ({ ...row, reference: `${size}/${row.invoice}` }));
		const before = (await cluster.executions(MAIL_RUN_PARTS.id)).length;
		const lettersAfter: number[] = [];
		for (const [run, day] of [1, 2, 2].entries()) {
			const call = await cluster.callWebhook(run % 2, MAIL_RUN_PARTS.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ people: rows(day) }) });
			expect(call.status).toBe(200);
			await cluster.waitForExecutions(MAIL_RUN_PARTS.id, before + run + 1, 10 * 60_000);
			lettersAfter.push(ledger().posted.size);
		}
		const { posted, unnamed, misnamed } = ledger();
		const invoices = new Set([...rows(1), ...rows(2)].map((row) => row.reference));
		const measured = { size, lettersAfter, invoices: invoices.size, postedTwice: [...posted.values()].filter((count) => count > 1).length, neverPosted: [...invoices].filter((key) => !posted.has(key)).length, unnamed, misnamed };
		await fs.outputJson(`${ROOT}/.e2e/queue-mail-run-${size}.json`, measured, { spaces: 2 });
		await annotate(JSON.stringify(measured));
		expect(measured).toEqual({ size, lettersAfter: [size, size + 20, size + 20], invoices: size + 20, postedTwice: 0, neverPosted: 0, unnamed: 0, misnamed: 0 });

		/** This size's letters on the account (confirmed, not cancelled), by the Row IDs their records name. */
		function ledger() {
			const counted = new Map<string, number>();
			let badNames = 0;
			let noNames = 0;
			for (const stored of runApi.prints.jobs.values()) {
				if (!stored.confirmed) continue;
				const job = JSON.parse(JSON.stringify(stored)) as PrintJob;
				for (const letter of job.letters ?? []) {
					if (letter.status === 'cancelled') continue;
					// Only this size's jobs: their records name its keys.
					if (!JSON.stringify(job.metadata ?? {}).includes(`"${size}/`)) continue;
					const ids = (letterRow(job, letter.id).row_ids as Array<string | null>).filter((id) => id?.startsWith(`${size}/`));
					if (!ids.length) noNames++;
					for (const id of ids) {
						counted.set(id!, (counted.get(id!) ?? 0) + 1);
						if (customerOf(id!.split('/')[1], 0) !== letter.address?.name) badNames++;
					}
				}
			}
			return { posted: counted, unnamed: noNames, misnamed: badNames };
		}
	});
});

describe('queue mode: one rate budget, two workers', () => {
	it.for([
		['a quick API', VOLUME, 0, 'queue-volume.json'],
		[`a busy API (it takes requests in one at a time, ${BUSY_READ_MS} ms each)`, BUSY_VOLUME, BUSY_READ_MS, 'queue-volume-busy.json'],
	] as const)(
		`two ${PER_RUN}-letter runs started together on two workers, %s: every letter once, the budget shared`,
		{ timeout: 25 * 60_000 },
		async ([, volume, readEachMs, resultFile], { annotate }) => {
			// Each run posts the same references: only this run's letters count.
			api.resetRecording();
			api.prints.jobs.clear();
			api.prints.created.length = 0;
			api.readEachMs = readEachMs;
			const startedAt = Date.now();
			const calls = await Promise.all(
				['A', 'B'].map(async (batch, processor) => {
					const body = JSON.stringify({ people: people(batch, PER_RUN) });
					return await cluster.callWebhook(processor, volume.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
				}),
			);
			expect(calls.map((call) => call.status)).toEqual([200, 200]);
			const executions = await cluster.waitForExecutions(volume.id, 2, 20 * 60_000);
			const workers = await Promise.all(executions.map(async (execution) => ((await cluster.workerOf(execution.id)) ?? -2) + 1));
			const wanted = [...people('A', PER_RUN), ...people('B', PER_RUN)].map((person) => person.reference);
			const result = measure(api, { wanted, startedAt, executions, workers, limit: LIMIT, latencyMs: LATENCY_MS });
			await fs.outputJson(`${ROOT}/.e2e/${resultFile}`, result, { spaces: 2 });
			await annotate(JSON.stringify(result));

			expect(new Set(workers).size, 'the two runs ran on the two workers').toBe(2);
			expect(result.failedRuns).toBe(0);
			expect(result.duplicates).toBe(0);
			expect(result.lost).toBe(0);
			expect(result.created).toBe(wanted.length);
		},
	);
});

/** Sends one signed delivery (the same `webhook-id` and body every time it is repeated) to a webhook processor. */
async function deliver(processor: number, id: string, event: object): Promise<string> {
	const { body, headers } = signedDelivery(SECRET, id, event);
	const response = await cluster.callWebhook(processor, `${DELIVERIES.webhookId}/webhook`, { method: 'POST', headers, body });
	return `${response.status} ${await response.text()}`;
}

const event = (n: number) => ({ type: 'letter.updated', id: `ltr_queue${n}`, print_id: 'print_queue', status: 'returned' });

/** The ids the runs so far reported, once no new report has come for a few seconds (workers take a moment). */
async function settledReports(fake: FakeIntelliprint): Promise<string[]> {
	let last = -1;
	while (fake.notifications.length !== last) {
		last = fake.notifications.length;
		await sleep(4000);
	}
	return fake.notifications.map((notification) => String((notification as { id?: unknown }).id));
}

describe('queue mode: webhook deliveries across two webhook processors', () => {
	/** `QUEUE_DELIVERY_ROUNDS` sends more, for a longer proof of the same race. */
	const ROUNDS = Number(import.meta.env?.QUEUE_DELIVERY_ROUNDS || 25);

	it('a delivery retried to the other processor after our answer starts the workflow once; copies arriving together are counted', async ({
		annotate,
	}) => {
		api.notifications.length = 0;
		const answers: string[] = [];
		for (let n = 1; n <= ROUNDS; n++) {
			const first = await deliver(n % 2, `msg_seq_${n}`, event(n));
			const retry = await deliver((n + 1) % 2, `msg_seq_${n}`, event(n));
			answers.push(`${first} / ${retry}`);
		}
		const sequential = await settledReports(api);

		for (let n = ROUNDS + 1; n <= 2 * ROUNDS; n++) {
			await Promise.all([deliver(0, `msg_par_${n}`, event(n)), deliver(1, `msg_par_${n}`, event(n))]);
		}
		const concurrent = (await settledReports(api)).slice(sequential.length);
		const report = {
			afterAnswer: { events: ROUNDS, deliveries: 2 * ROUNDS, runs: sequential.length, startedTwice: sequential.length - new Set(sequential).size },
			atTheSameMoment: {
				events: ROUNDS,
				deliveries: 2 * ROUNDS,
				runs: concurrent.length,
				startedTwice: concurrent.length - new Set(concurrent).size,
			},
		};
		await fs.outputJson(`${ROOT}/.e2e/queue-deliveries.json`, report, { spaces: 2 });
		await annotate(JSON.stringify(report));

		const expected = '200 {"received":true} / 200 {"received":true,"ignored":"duplicate delivery"}';
		expect(answers.filter((answer) => answer !== expected)).toEqual([]);
		expect(sequential.sort()).toEqual(Array.from({ length: ROUNDS }, (_, i) => `ltr_queue${i + 1}`).sort());
		// Every event sent to both at once ran at least once; how many ran twice is what is measured.
		expect(new Set(concurrent).size).toBe(ROUNDS);
	});
});

describe('queue mode: the polling trigger across a restart of main', () => {
	it('keeps its state in the database and emits each returned letter once', { timeout: 10 * 60_000 }, async ({ annotate }) => {
		const letters = pollApi.prints.seed(2, { testmode: true }).map((job) => job.letters[0].id);
		const polls = () => pollApi.requests.filter((request) => request.method === 'GET').length;
		const waitForPolls = async (count: number) => {
			while (polls() < count) await sleep(1000);
		};
		const waitForReports = async (count: number) => {
			while (pollApi.notifications.length < count) await sleep(1000);
		};

		// The first poll records what is there (nothing returned yet); the next one sees the change.
		await waitForPolls(1);
		pollApi.prints.setLetterStatus(letters[0], 'returned', { returned: { date: Math.floor(Date.now() / 1000), reason: 'Gone away', acknowledged: false } });
		await waitForReports(1);
		// Returned while main is down: the first poll after the restart must emit it, and only it.
		await cluster.main.stop();
		pollApi.prints.setLetterStatus(letters[1], 'returned', { returned: { date: Math.floor(Date.now() / 1000), reason: 'Gone away', acknowledged: false } });
		await cluster.main.start();
		await waitForReports(2);
		// One more poll with nothing new, and time for any run it started to report.
		await waitForPolls(polls() + 1);
		const reports = await settledReports(pollApi);
		await annotate(`polls: ${polls()}, reports: ${JSON.stringify(reports)}, saved state: ${JSON.stringify(await cluster.staticData(POLLING.id))}`);
		expect(reports).toEqual(letters);
	});
});
