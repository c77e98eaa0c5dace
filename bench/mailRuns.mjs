#!/usr/bin/env node
// `npm run bench:mail-runs`: what a keyed mail run costs (issue 55). Print Job → Create, Recipients: All Input Items,
// from content, Skip Items Already Sent = Row ID = {{ $json.invoice_no }}, Confirm on, Test Mode on, Letters per Print
// Job 1000, Output: One Item per Letter; against the local fake API (test/fake-api), no rate limit on either side (the
// figures are request counts; "minutes at 100/min" is the least time a run takes at the API's real limit).
//
// (1) 100 / 10,000 / 100,000 rows (BENCH_MAIL_RUN_SIZES): day 1 (all new), then day 2 (the same sheet with 20 rows on
//     top, 10 removed, 5 moved, 1 address corrected), then day 2 again (nothing new). Each rerun both ways, each on an
//     account of its own in the same state: in the same n8n process as day 1 (the node's sent-key index warm), and in a
//     fresh one. Per run: requests in all and by kind, print jobs and letters made, what the node said per row,
//     invoices with more than one letter on the account (counted from the fake's letters: must be 0), node time.
// (2) A big sender's account (BENCH_BIG_JOBS, default 510,000 test-mode jobs in the 30-day look-back, seeded as
//     bench/history.mjs does): 50 of 100 rows sent by the node first, then the 100 in a fresh process (and, beside it,
//     in the same process).
// (3) What a user does without the node: n8n's HTTP Request node, one POST /prints per row, no dedupe. n8n itself is
//     not run here: its equivalent calls (one JSON create per row, one at a time, as the HTTP Request node sends them)
//     are made against the fake and counted the same way.
//
// An n8n process is a child process (bench/mailRunWorker.mjs) that runs the built node (dist/) through n8n-core's
// WorkflowExecute, as the unit tests' harness does (test/helpers/n8n.ts). A fresh process is a new child: the node's
// module state (the sent-key index of reruns/sentKeyIndex.ts, keyLookups.ts's cache, the pacer) starts empty, as in
// `n8n execute`, a restarted n8n or another queue worker.
//
// BENCH_MAIL_RUN_SIZES=100,10000 sizes table (1); BENCH_BIG_JOBS=0 skips (2); BENCH_PART=runs,big,http picks parts.
// BENCH_NODE_DIR=<package folder with dist/> measures that build (BENCH_PACKAGE_LABEL names it); BENCH_FROM=source runs
// the TypeScript sources (no build).
// A run of other sizes, parts or builds writes .bench/RESULTS-mail-runs.md instead of bench/RESULTS-mail-runs.md
// (BENCH_RESULTS_FILE=<path> writes there).
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs. No timed assertions: it reports.
import execa from 'execa';
import fs from 'fs-extra';
import { fork } from 'node:child_process';
import os from 'node:os';

import serverModule from '../test/fake-api/server.ts';
import { markdownTable } from './measure.mjs';
import { dayTwoChange, sheetRows } from './mailRunWorker.mjs';

const { startFakeIntelliprint } = serverModule;
const say = (text) => process.stdout.write(`${text}\n`);
const started = Date.now();

const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const SIZES = (process.env.BENCH_MAIL_RUN_SIZES || '100,10000,100000').split(',').map(Number);
const BIG_JOBS = Number(process.env.BENCH_BIG_JOBS ?? 510_000);
const PARTS = (process.env.BENCH_PART || 'runs,big,http').split(',');
const FROM = process.env.BENCH_FROM === 'source' ? 'source' : 'dist';
const PACKAGE_DIR = process.env.BENCH_NODE_DIR || ROOT;
const DEFAULT_RUN = !process.env.BENCH_MAIL_RUN_SIZES && !process.env.BENCH_BIG_JOBS && !process.env.BENCH_PART && !process.env.BENCH_NODE_DIR && FROM === 'dist';
const RESULTS = process.env.BENCH_RESULTS_FILE || (DEFAULT_RUN ? `${ROOT}/bench/RESULTS-mail-runs.md` : `${ROOT}/.bench/RESULTS-mail-runs.md`);
const loadAtStart = os.loadavg();
const LETTERS_PER_JOB = 1000;
const BIG_ROWS = 100;
const BIG_SENT = 50;
const HTTP_ROWS = 100;

if (FROM === 'dist' && !(await fs.pathExists(`${PACKAGE_DIR}/dist/nodes/Intelliprint/Intelliprint.node.js`))) throw new Error(`${PACKAGE_DIR} has no dist: npm run build first`);
if (SIZES.some((size) => !(size >= 30))) throw new Error('BENCH_MAIL_RUN_SIZES: each size at least 30 (day 2 removes 10 rows and moves 10)');

/** The package measured, as git says (and whether its tracked files differ from the commit). */
async function describePackage(dir) {
	const git = async (...args) => (await execa('git', ['-C', dir, ...args], { reject: false })).stdout.trim();
	const commit = await git('rev-parse', '--short', 'HEAD');
	const dirty = (await git('status', '--porcelain', '--untracked-files=no')) !== '';
	return `${commit || 'unknown'}${dirty ? ' with uncommitted changes' : ''}${dir === ROOT ? '' : ` (${dir})`}, ${FROM === 'source' ? 'TypeScript sources' : 'built dist/'}`;
}
// BENCH_PACKAGE_LABEL names a build that is no git checkout (a copy of a working tree, say).
const measuredPackage = process.env.BENCH_PACKAGE_LABEL || (await describePackage(PACKAGE_DIR));

// n8n processes ------------------------------------------------------------------------------------------------------
const WORKER = new URL('./mailRunWorker.mjs', import.meta.url).pathname;
/** One n8n process: a child running the node, runs sent to it one at a time. */
class N8nProcess {
	static async start() {
		const child = fork(WORKER, [], {
			execArgv: FROM === 'source' ? ['--import', 'tsx'] : [],
			env: { ...process.env, BENCH_NODE_DIR: PACKAGE_DIR, BENCH_FROM: FROM },
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
			serialization: 'advanced',
		});
		const ready = await new Promise((resolve, reject) => {
			child.once('message', resolve);
			child.once('exit', (code) => reject(new Error(`the n8n process exited (${code}) before it was ready`)));
		});
		return new N8nProcess(child, ready.pid);
	}
	constructor(child, pid) {
		this.child = child;
		this.pid = pid;
		this.runs = 0;
	}
	async run(fake, sheet) {
		const id = ++this.runs;
		const answer = new Promise((resolve, reject) => {
			const onMessage = (message) => {
				if (message.id !== id) return;
				this.child.off('message', onMessage);
				if (message.type === 'failed') reject(new Error(`the n8n process failed: ${message.message}`));
				else resolve(message);
			};
			this.child.on('message', onMessage);
		});
		this.child.send({ type: 'run', id, sheet, typeVersion: 1.2, parameters: mailRun, credentials: credentialsOf(fake) });
		return await answer;
	}
	async stop() {
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		this.child.send({ type: 'exit' });
		await exited;
	}
}

/** The node as a user sets it up for a scheduled run of an invoice sheet (docs/every-letter-once.md). */
const mailRun = {
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}},</p><p>Invoice {{invoice_no}}: £{{amount_due}} is overdue.</p>',
	recipientsFrom: 'allItems', recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'all', testmode: true, confirmed: true, output: 'letters',
	options: { sentKey: '={{ $json.invoice_no }}', rowId: '={{ $json.invoice_no }}', lettersPerJob: LETTERS_PER_JOB },
};
/** The node's own pacing out of the way (the fake has no limit either): the bench counts requests, it does not wait. */
const credentialsOf = (fake) => ({ apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60 });

// Measuring -----------------------------------------------------------------------------------------------------------
const isApi = (request) => !request.path.startsWith('files:');
const onPrints = (request) => /^\/v1\/prints\/?$/.test(request.path);
const onJob = (request) => /^\/v1\/prints\/[^/]+$/.test(request.path);
const confirming = (request) => [true, 'true'].includes(request.body?.confirmed);
const KINDS = {
	lists: (request) => request.method === 'GET' && onPrints(request),
	reads: (request) => request.method === 'GET' && onJob(request),
	creates: (request) => request.method === 'POST' && onPrints(request),
	confirms: (request) => request.method === 'POST' && onJob(request) && confirming(request),
	deletes: (request) => request.method === 'DELETE' && onJob(request),
};
const kindOf = (request) => Object.keys(KINDS).find((kind) => KINDS[kind](request)) ?? 'other';

/** Milliseconds the fake had at least one of `requests` in hand (arrival to answer), overlaps counted once. */
function busyMs(requests) {
	const spans = requests.filter((request) => request.at && request.answeredAt).map((request) => [request.at, request.answeredAt]).sort((a, b) => a[0] - b[0]);
	let total = 0;
	let [from, to] = spans[0] ?? [0, 0];
	for (const [start, end] of spans.slice(1)) {
		if (start > to) {
			total += to - from;
			[from, to] = [start, end];
		} else to = Math.max(to, end);
	}
	return total + (to - from);
}

/** Letters per invoice on the account (jobs that exist, letters not cancelled): a letter's name is its invoice's customer. */
function lettersPerInvoice(fake) {
	const count = new Map();
	for (const job of fake.prints.created) {
		if (fake.prints.jobs.get(job.id) !== job) continue;
		for (const letter of job.letters) {
			if (letter.status === 'cancelled') continue;
			const n = Number(/^Customer (\d+)$/.exec(letter.address?.name ?? '')?.[1]);
			const key = `INV-${String(n).padStart(6, '0')}`;
			count.set(key, (count.get(key) ?? 0) + 1);
		}
	}
	return count;
}

/** Invoices with more than one letter, and invoices of the sheets sent so far with none. */
function accountCheck(fake, invoices) {
	const count = lettersPerInvoice(fake);
	return { twice: [...count.values()].filter((letters) => letters > 1).length, never: [...invoices].filter((invoice) => !count.has(invoice)).length };
}

/** One run's figures: what it added to its fake's requests and jobs. */
async function measuredRun(n8n, fake, sheet, invoices) {
	const mark = { requests: fake.requests.length, created: fake.prints.created.length };
	for (const row of sheetRows(sheet)) invoices.add(row.invoice_no);
	const done = await n8n.run(fake, sheet);
	const requests = fake.requests.slice(mark.requests).filter(isApi);
	const kinds = Object.fromEntries([...Object.keys(KINDS), 'other'].map((kind) => [kind, 0]));
	for (const request of requests) kinds[kindOf(request)]++;
	const created = fake.prints.created.slice(mark.created);
	const kept = created.filter((job) => fake.prints.jobs.has(job.id));
	const figures = {
		requests: requests.length,
		...kinds,
		createsConfirming: requests.filter((request) => KINDS.creates(request) && confirming(request)).length,
		rateLimited: requests.filter((request) => request.status === 429).length,
		failedRequests: requests.filter((request) => request.status >= 400 || request.status <= 0).length,
		jobsMade: kept.length,
		draftsLeft: kept.filter((job) => !job.confirmed).length,
		withdrawn: created.length - kept.length,
		lettersMade: kept.filter((job) => job.confirmed).reduce((sum, job) => sum + job.letters.length, 0),
		out: done.items,
		error: done.error,
		nodeMs: done.nodeMs,
		fakeMs: busyMs(requests),
		...accountCheck(fake, invoices),
	};
	say(`    ${JSON.stringify(figures)}`);
	return figures;
}

// (1) Day 1, day 2, day 2 again -------------------------------------------------------------------------------------
const DAY_SECONDS = 86_400;
/**
 * Day 1 was yesterday: every job made through the API moved a day back (created, confirmed), as the account stands
 * when the schedule runs again. (The node's reads go back 15 minutes before what they read last, and a keyed mail run's
 * part looks 15 minutes back for a job racing it: a rerun a minute after day 1 would read day 1 again.)
 */
function ageAccount(fake, seconds) {
	for (const job of fake.prints.created) {
		job.created -= seconds;
		if (typeof job.confirmed_at === 'number') job.confirmed_at -= seconds;
		if (typeof job._createdAtMs === 'number') job._createdAtMs -= seconds * 1000;
		if (typeof job._confirmedAtMs === 'number') job._confirmedAtMs -= seconds * 1000;
	}
}
/**
 * A second account in the state `from` is in (its print store copied: each job made through the API, whole; their
 * PDFs shared), so that a rerun in the same process and one in a fresh process each start from the same account
 * without sending day 1 twice (100,000 letters take the fake minutes to make).
 */
async function copyOfAccount(from) {
	if (from.prints.history) throw new Error('copyOfAccount: an account with a seeded history is not copied');
	const to = await startFakeIntelliprint({ rateLimit: false });
	for (const job of from.prints.created) {
		const copy = structuredClone(job);
		to.prints.created.push(copy);
		if (from.prints.jobs.get(job.id) === job) to.prints.jobs.set(job.id, copy);
		if (from.prints.files.has(job.id)) to.prints.files.set(job.id, from.prints.files.get(job.id));
		if (from.prints.contents.has(job.id)) to.prints.contents.set(job.id, from.prints.contents.get(job.id));
	}
	if (to.prints.jobs.size !== from.prints.jobs.size) throw new Error('copyOfAccount: the account holds jobs not made through the API');
	return to;
}

const runs = {};
if (PARTS.includes('runs')) {
	for (const size of SIZES) {
		runs[size] = {};
		say(`${size} rows:`);
		const warm = await startFakeIntelliprint({ rateLimit: false });
		const warmInvoices = new Set();
		const n8n = await N8nProcess.start();
		say('  day 1, in a new n8n process...');
		runs[size].day1 = await measuredRun(n8n, warm, { size, day: 1 }, warmInvoices);
		ageAccount(warm, DAY_SECONDS);
		const fresh = await copyOfAccount(warm);
		const freshInvoices = new Set(warmInvoices);
		// In the same n8n process as day 1: its sent-key index warm.
		for (const [name, sheet] of [['day2', { size, day: 2 }], ['day2again', { size, day: 2 }]]) {
			say(`  ${name}, same process...`);
			runs[size][`${name} same`] = await measuredRun(n8n, warm, sheet, warmInvoices);
		}
		await n8n.stop();
		await warm.stop();
		// A fresh n8n process for each run, on the copy of the account.
		for (const [name, sheet] of [['day2', { size, day: 2 }], ['day2again', { size, day: 2 }]]) {
			say(`  ${name}, fresh process...`);
			const another = await N8nProcess.start();
			runs[size][`${name} fresh`] = await measuredRun(another, fresh, sheet, freshInvoices);
			await another.stop();
		}
		await fresh.stop();
	}
}

// (2) A big sender's account -------------------------------------------------------------------------------------------
const big = {};
if (PARTS.includes('big') && BIG_JOBS > 0) {
	for (const way of ['fresh', 'same']) {
		say(`${BIG_ROWS} rows, ${BIG_SENT} sent before, on an account of ${BIG_JOBS.toLocaleString('en-GB')} test jobs, ${way === 'fresh' ? 'in a fresh n8n process' : 'in the same n8n process'}:`);
		const fake = await startFakeIntelliprint({ rateLimit: false });
		// The history is test jobs, as the run is: a test-mode run reads only test jobs (a live history would not be in its way).
		fake.seedHistory({ count: BIG_JOBS, days: 30, testmode: true, sentKeys: (i) => `hist-${i}` });
		const invoices = new Set();
		let n8n = await N8nProcess.start();
		say('  the first 50 rows...');
		big[`before ${way}`] = await measuredRun(n8n, fake, { size: BIG_ROWS, day: 1, first: BIG_SENT }, invoices);
		ageAccount(fake, DAY_SECONDS);
		if (way === 'fresh') {
			// The index forgotten: that process ends, the rerun is another's.
			await n8n.stop();
			n8n = await N8nProcess.start();
		}
		say('  the 100 rows...');
		big[way] = await measuredRun(n8n, fake, { size: BIG_ROWS, day: 1 }, invoices);
		await n8n.stop();
		await fake.stop();
	}
}

// (3) Without the node: the HTTP Request node's calls -----------------------------------------------------------------
const http = {};
if (PARTS.includes('http')) {
	say(`HTTP Request node's calls, ${HTTP_ROWS} rows, day 1 then day 2:`);
	const fake = await startFakeIntelliprint({ rateLimit: false });
	const invoices = new Set();
	for (const [name, sheet] of [['day1', { size: HTTP_ROWS, day: 1 }], ['day2', { size: HTTP_ROWS, day: 2 }]]) {
		const mark = { requests: fake.requests.length, created: fake.prints.created.length };
		const rows = sheetRows(sheet);
		for (const row of rows) invoices.add(row.invoice_no);
		// One item after another, as the HTTP Request node sends them: a JSON create per row, confirmed, nothing looked up.
		for (const row of rows) {
			const body = {
				content: `<p>Dear ${row.name},</p><p>Invoice ${row.invoice_no}: £${row.amount_due} is overdue.</p>`,
				recipients: [{ address: { name: row.name, line: row.address, postcode: row.postcode, country: 'GB' } }],
				testmode: true, confirmed: true,
			};
			const answer = await fetch(`${fake.url}/prints`, { method: 'POST', headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
			if (!answer.ok) throw new Error(`HTTP equivalent: create answered ${answer.status}: ${await answer.text()}`);
			await answer.arrayBuffer();
		}
		const requests = fake.requests.slice(mark.requests).filter(isApi);
		const created = fake.prints.created.slice(mark.created);
		http[name] = {
			requests: requests.length, lists: 0, reads: 0, creates: requests.filter(KINDS.creates).length, confirms: 0, deletes: 0, other: 0,
			jobsMade: created.length, lettersMade: created.reduce((sum, job) => sum + job.letters.length, 0), rows: rows.length, ...accountCheck(fake, invoices),
		};
		say(`    ${name}: ${JSON.stringify(http[name])}`);
	}
	await fake.stop();
}

// Results ---------------------------------------------------------------------------------------------------------------
const int = (value) => (value === undefined || value === null ? '-' : Number(value).toLocaleString('en-GB'));
const ms = (value) => (typeof value === 'number' ? Math.round(value).toLocaleString('en-GB') : '-');
const minutes = (f) => (f.requests / 100).toFixed(2);
const said = (f) => `${int(f.out.sentNow)} / ${int(f.out.alreadySent)} / ${int(f.out.addressChanged)} / ${int(f.out.failed)}`;
const extraKinds = (f) => [f.never ? `${f.never} invoices of the sheets with no letter` : '', f.deletes ? `${f.deletes} deletes` : '', f.other ? `${f.other} other` : '', f.withdrawn ? `${f.withdrawn} drafts withdrawn` : '', f.draftsLeft ? `${f.draftsLeft} drafts left` : '', f.failedRequests ? `${f.failedRequests} requests failed` : '', f.error ? `error: ${f.error}` : '', f.out?.firstError ? `first failed row: ${f.out.firstError}` : ''].filter(Boolean).join('; ') || '-';
const RUN_LABELS = { day1: 'day 1 (all new)', day2: 'day 2, a day later (+20 on top, 10 removed, 5 moved, 1 readdressed)', day2again: 'day 2 again, at once (nothing new)' };
const WAY_LABELS = { same: 'same process', fresh: 'fresh process' };
const figureRow = (f) => ({
	'requests': int(f.requests),
	'list pages': int(f.lists),
	'job reads (GET /prints/{id})': int(f.reads),
	'creates (POST /prints)': int(f.creates),
	'confirms (POST /prints/{id})': int(f.confirms),
	'print jobs made': int(f.jobsMade),
	'letters made': int(f.lettersMade),
	'rows: sent now / already sent / of those readdressed / failed': said(f),
	'invoices with 2+ letters on the account': int(f.twice),
	'node ms': ms(f.nodeMs),
	'of it in the fake API ms': ms(f.fakeMs),
	'minutes at 100/min': minutes(f),
	'also': extraKinds(f),
});
const runRows = Object.entries(runs).flatMap(([size, figures]) =>
	['day1', 'day2 same', 'day2 fresh', 'day2again same', 'day2again fresh'].filter((key) => figures[key]).map((key) => {
		const [run, way] = key.split(' ');
		return { rows: int(Number(size)), run: RUN_LABELS[run], process: way ? WAY_LABELS[way] : 'a new process (its first run)', ...figureRow(figures[key]) };
	}),
);
const bigRows = ['before fresh', 'fresh', 'before same', 'same'].filter((key) => big[key]).map((key) => ({
	account: `${int(BIG_JOBS)} test jobs in the look-back`,
	run: key.startsWith('before') ? `the first ${BIG_SENT} rows, sent by the node (${key.endsWith('fresh') ? 'then the process ends' : 'the process stays'})` : `${BIG_ROWS} rows, ${BIG_SENT} of them sent before: ${WAY_LABELS[key]}`,
	...figureRow(big[key]),
}));
const ours = runs[HTTP_ROWS];
const httpRows = http.day1 ? [
	...['day1', 'day2'].flatMap((run) => [
		ours?.[run] ? { way: 'this node', run: RUN_LABELS[run], f: ours[run] } : undefined,
		ours?.[`${run} same`] ? { way: 'this node, same process', run: RUN_LABELS[run], f: ours[`${run} same`] } : undefined,
		ours?.[`${run} fresh`] ? { way: 'this node, fresh process', run: RUN_LABELS[run], f: ours[`${run} fresh`] } : undefined,
		{ way: 'HTTP Request node, one POST /prints per row (its calls made against the fake, not through n8n)', run: RUN_LABELS[run], f: http[run] },
	]).filter(Boolean).map(({ way, run, f }) => ({
		[`${HTTP_ROWS} rows`]: way, run,
		'requests': int(f.requests), 'list pages': int(f.lists), 'job reads': int(f.reads), 'creates': int(f.creates), 'confirms': int(f.confirms),
		'print jobs made': int(f.jobsMade), 'letters made': int(f.lettersMade), 'invoices with 2+ letters on the account': int(f.twice), 'minutes at 100/min': minutes(f),
	})),
] : [];

const cpus = os.cpus();
const load = (values) => values.map((value) => value.toFixed(1)).join(' / ');
const machine = `${cpus.length} cores (${cpus[0]?.model?.trim() ?? 'unknown CPU'}), ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}; load average (1 / 5 / 15 min) ${load(loadAtStart)} at the start, ${load(os.loadavg())} at the end (above the core count, other work shared the cores and the times are longer than on a quiet machine; the request counts are not affected)`;
const dayTwo = (size) => {
	const change = dayTwoChange(size);
	return `removed ${[...change.removed].join(', ')}; readdressed ${change.corrected}`;
};
const tables = [];
if (runRows.length) tables.push('### Day 1, day 2, day 2 again', '', ...markdownTable(runRows), '');
if (bigRows.length) tables.push(`### A big sender's account: ${int(BIG_JOBS)} jobs`, '', ...markdownTable(bigRows), '');
if (httpRows.length) tables.push(`### Beside what a user does without the node (${HTTP_ROWS} rows)`, '', ...markdownTable(httpRows), '');
say('');
for (const line of tables) say(line);

const seconds = Math.round((Date.now() - started) / 1000);
const markdown = [
	'# Mail run benchmark results',
	'',
	`Written by \`npm run bench:mail-runs\` (bench/mailRuns.mjs) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, measuring ${measuredPackage}; the whole bench took ${seconds} s.`,
	`Machine: ${machine}.`,
	'',
	'## What was measured',
	'',
	'A keyed mail run as the docs advise it (docs/every-letter-once.md): Print Job → Create, from content, Recipients: All Input',
	'Items, Skip Items Already Sent = Row ID = `{{ $json.invoice_no }}`, Confirm on, Test Mode on, Letters per Print Job 1000,',
	'Output: One Item per Letter (Continue on error). The input is an invoice sheet: `INV-000001`… each to its own customer.',
	'Day 2 is the same sheet with 20 new invoices on top, 10 removed, 5 moved (the first five now after the next five) and 1',
	`address corrected (at ${int(SIZES[0] ?? 100)} rows: ${SIZES[0] ? dayTwo(SIZES[0]) : '-'}). Day 2 again is the day 2 sheet once more.`,
	'',
	'- **Where it runs.** Each n8n process is a child process (bench/mailRunWorker.mjs) that runs the built node (dist/) through',
	"  n8n-core's own WorkflowExecute, the unit tests' harness (test/helpers/n8n.ts): a Sheet node emits the rows, the",
	"  Intelliprint node sends them. Real n8n (`n8n execute` per run, `n8n start` for a process kept, as bench:history",
	"  does) would add its start-up to every run and store 100,000-item executions; what is counted here, the node's",
	'  requests, does not depend on it.',
	'- **Same process / fresh process.** Day 1 runs in a new child. "Same process": day 2 and day 2 again run in that',
	'  child, so they find the sent-key index day 1 left (reruns/sentKeyIndex.ts). "Fresh process": a new child for each',
	"  of them, so the node's module state (the index, keyLookups.ts's cache of looked-up jobs, the pacer) starts empty, as",
	'  in `n8n execute`, after a restart, or on another queue worker. A child process rather than vitest\'s',
	'  `vi.resetModules`: it is a real new process (nothing kept anywhere), and the bench needs no test runner. The two',
	'  ways run on accounts of their own in the same state: after day 1 the fake\'s account is copied (its print store,',
	'  job by job), so day 1 is sent once (100,000 letters take the fake minutes to make) and each day 2 starts from it.',
	'- **A day later.** Before day 2, every job day 1 made is moved a day back (created, confirmed), as the account stands',
	'  when the schedule runs again: the node reads 15 minutes back from what it read last (jobs listed late), and a',
	"  keyed mail run's new part looks 15 minutes back for a job racing it, so a rerun a minute after day 1 would read",
	'  day 1 again. Day 2 again runs at once after day 2 (a retry): its reads do go back over day 2\'s job.',
	'- **The API** is the local fake (test/fake-api) in the bench\'s own process, with no rate limit; the node\'s pacing is',
	'  set out of the way (100,000 requests a minute). "Minutes at 100/min" is requests / 100: the least time the run',
	'  takes at the real limit. "Node ms" is the Intelliprint node\'s execution time from n8n\'s run data; "of it in the',
	'  fake API" is the time the fake had one of its requests in hand (it renders every letter\'s PDF on create).',
	'- **Request kinds.** List pages: `GET /prints` (the look-back window, the jobs under `n8n mail run`, and any other',
	'  list); job reads: `GET /prints/{id}`; creates: `POST /prints`; confirms: `POST /prints/{id}` with `confirmed`.',
	'- **Rows sent twice** are counted on the account, not from the node\'s output: letters per invoice over every job the',
	'  fake holds that was made through the API (letters not cancelled); "invoices with 2+ letters" must be 0. Every',
	'  invoice of the sheets sent so far had a letter after every run unless "also" says otherwise.',
	'- **Rows: sent now / already sent / of those readdressed / failed** is what the node output said for the rows',
	'  (`already_sent`, `address_changed`, an error).',
	`- **The big account**: ${int(BIG_JOBS)} test-mode jobs over the 30-day look-back, seeded as bench/history.mjs seeds`,
	'  (test/fake-api/history.ts; each with a key of its own, none of this run\'s). Test jobs because the run is in test',
	'  mode: a test-mode run lists only test jobs, so a live history would not be in its way. The node first sends 50 of',
	'  the 100 rows (one job under `n8n mail run`), which is then moved a day back; then a new child (the index forgotten)',
	'  runs the 100, and beside it, on an account of its own, the child that sent the 50 runs them.',
	'- **Without the node**: n8n\'s HTTP Request node makes one `POST /prints` per item and cannot skip anything. n8n is not',
	'  run here: the same calls (a JSON create per row with its one recipient, `confirmed: true`, one at a time) are made',
	'  against a fake and counted the same way.',
	'',
	'## Tables',
	'',
	...tables,
	'## How to rerun',
	'',
	'`npm run bench:mail-runs` (builds, then `tsx bench/mailRuns.mjs`). `BENCH_MAIL_RUN_SIZES=100,10000`, `BENCH_BIG_JOBS=0`,',
	'`BENCH_PART=runs,big,http` narrow it; `BENCH_NODE_DIR=<a package folder with dist/>` measures another build;',
	'`BENCH_FROM=source` runs the TypeScript sources without a build. Those write .bench/RESULTS-mail-runs.md instead.',
	'',
];
// Notes written below the marker (comparisons with other builds, findings) are kept when the file is written again.
const KEEP = '<!-- bench/mailRuns.mjs keeps what is below this line when it writes this file again -->';
const previous = (await fs.pathExists(RESULTS)) ? await fs.readFile(RESULTS, 'utf8') : '';
const kept = previous.includes(KEEP) ? previous.slice(previous.indexOf(KEEP) + KEEP.length) : '\n';
await fs.outputFile(RESULTS, `${markdown.join('\n')}\n${KEEP}${kept}`);
say(`\nwrote ${RESULTS.replace(`${ROOT}/`, '')} (${seconds} s)`);
