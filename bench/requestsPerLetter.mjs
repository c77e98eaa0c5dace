#!/usr/bin/env node
// `npm run bench:requests`: requests per letter, per path, through real n8n 2.41.1 (issue 56 item 4). Rerun it whenever
// a change touches creating or confirming: the API allows 100 requests a minute, so requests per letter sets how many
// letters a minute a key can post.
//
// Every run is `n8n execute` (a fresh n8n process, sqlite) against the fake API (test/fake-api) on 127.0.0.1, answering
// at once (latency 0, no rate limit on either side: the credential lets the node send freely, so the counts are the
// node's own, not its waits). Requests are counted by kind from the fake's record of them (fake.requests), the file
// host's left out. "Letters a minute at 100/min" is 100 / requests a letter: the most a key can post at the real limit.
//
// 1. PDFs carrying their own address (Source: PDF File, Recipients: Addresses in the PDF), one print job per item,
//    Confirm on, live, no spending limit: BENCH_PDFS items (default 100), each its own one-page invoice PDF to its own
//    customer, downloaded by n8n's HTTP Request node as users do.
// 2. The same under a Daily Spending Limit, one process: a limit far away (every letter fits: the price of the check),
//    and one the run reaches (half the letters fit: nothing may pass it).
// 3. The same in 3 and 5 n8n processes at once (each an n8n of its own with its own database, as separate installs or
//    workers are) on one key's limit, each with BENCH_PDFS items: far, and reached (half of one process's letters fit).
// 4. A rerun on a big sender's account: 100 PDFs keyed INV-0001…INV-0100 (Skip Items Already Sent, Row Key =
//    {{ $json.ref }}), one job per item, on an account of BENCH_HISTORY_JOBS live jobs (default 510,000) in the 30-day
//    look-back seeded as bench/history.mjs seeds it, 50 of the keys already on it (spread over the 30 days): 50 new.
// 5. A keyed mail run (Source: Text or HTML, Recipients: All Input Items, Skip Items Already Sent and Row ID =
//    {{ $json.invoice_no }}, Confirm on, live, Letters per Print Job 1,000, Output: One Item per Letter), first run
//    of BENCH_MAIL_ROWS rows (default 1000,10000) on an empty account.
//
// BENCH_PART=pdf,limit,processes,history,mail runs only those; BENCH_PROCESSES=3,5 the process counts of (3), each run
// BENCH_REPEATS times (default 3: processes racing each other decide differently from run to run).
// BENCH_PACKAGE_DIR=<a clone with its dist built>: measure that build (packed as users get it) instead of this repo's.
// A run of other sizes or parts writes .bench/RESULTS-requests-per-letter.md instead (BENCH_RESULTS_FILE=<path> says
// where). JavaScript, run through tsx, for the reasons given in scripts/dev.mjs. No assertions: it reports.
import execa from 'execa';
import fs from 'fs-extra';
import os from 'node:os';

import serverModule from '../test/fake-api/server.ts';
import runnerModule from '../test/e2e/n8n.ts';
import pdfsModule from '../test/helpers/pdfs.ts';
import { keysOnMoreThanOneJob, markdownTable } from './measure.mjs';

const { startFakeIntelliprint } = serverModule;
const { installN8n, N8nInstance, ROOT, usePackage } = runnerModule;
const { mailMergePdf, recipients } = pdfsModule;
const say = (text) => process.stdout.write(`${text}\n`);
const started = Date.now();
const loadAtStart = os.loadavg();

const list = (name, fallback) => (process.env[name] || fallback).split(',').filter(Boolean);
const PDFS = Number(process.env.BENCH_PDFS || 100);
const PROCESSES = list('BENCH_PROCESSES', '3,5').map(Number);
const REPEATS = Number(process.env.BENCH_REPEATS || 3);
const HISTORY_JOBS = Number(process.env.BENCH_HISTORY_JOBS || 510_000);
const MAIL_ROWS = list('BENCH_MAIL_ROWS', '1000,10000').map(Number);
const PARTS = list('BENCH_PART', 'pdf,limit,processes,history,mail');
for (const [name, values] of Object.entries({ BENCH_PDFS: [PDFS], BENCH_PROCESSES: PROCESSES, BENCH_REPEATS: [REPEATS], BENCH_MAIL_ROWS: MAIL_ROWS })) {
	if (!values.length || values.some((value) => !(Number.isInteger(value) && value >= 1))) throw new Error(`${name}: whole numbers of at least 1`);
}
const KEYS = 100;
const SENT = 50;
/** A limit no run reaches: 5 processes × 100 one-page letters at the fake's £1.02 after tax is £510. */
const FAR = 1000;
const PACKAGE_DIR = process.env.BENCH_PACKAGE_DIR || ROOT;
const DEFAULT_RUN = ['BENCH_PDFS', 'BENCH_PROCESSES', 'BENCH_REPEATS', 'BENCH_HISTORY_JOBS', 'BENCH_MAIL_ROWS', 'BENCH_PART', 'BENCH_PACKAGE_DIR'].every((name) => !process.env[name]);
const RESULTS = process.env.BENCH_RESULTS_FILE || `${ROOT}/${DEFAULT_RUN ? 'bench' : '.bench'}/RESULTS-requests-per-letter.md`;

/** The package measured, as git says (and whether its tracked files differ from the commit). */
async function describePackage(dir) {
	const git = async (...args) => (await execa('git', ['-C', dir, ...args], { reject: false })).stdout.trim();
	const commit = await git('rev-parse', '--short', 'HEAD');
	const dirty = (await git('status', '--porcelain', '--untracked-files=no')) !== '';
	return `${commit || 'unknown'}${dirty ? ' with uncommitted changes' : ''}${dir === ROOT ? '' : ` (${dir})`}`;
}
// The bench's own folder: the e2e suites clear .e2e/runs/n8n<line> when they start, and may start while this runs.
const WORK = `${ROOT}/.e2e/bench-requests`;
await fs.emptyDir(WORK);
if (PACKAGE_DIR !== ROOT) {
	if (!(await fs.pathExists(`${PACKAGE_DIR}/dist/nodes/Intelliprint/Intelliprint.node.js`))) throw new Error(`${PACKAGE_DIR} has no dist: run npx n8n-node build there`);
	const { stdout } = await execa('npm', ['pack', '--pack-destination', WORK, '--json', '--ignore-scripts'], { cwd: PACKAGE_DIR });
	usePackage(`${WORK}/${JSON.parse(stdout)[0].filename}`);
}
const measuredPackage = await describePackage(PACKAGE_DIR);

// Workflows ---------------------------------------------------------------------------------------------------------
const node = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const chain = (...names) => Object.fromEntries(names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));
const ref = (i) => `INV-${String(i + 1).padStart(4, '0')}`;
const flow = (id, nodes) => ({ id, name: id, nodes, connections: chain(...nodes.map((n) => n.name)), settings: { executionOrder: 'v1' }, active: false, pinData: {} });
const intelliprint = (credentialId, parameters) =>
	node('Create', 'n8n-nodes-intelliprint.intelliprint', 1.2, [600, 0], { resource: 'printJob', operation: 'create', testmode: false, confirmed: true, ...parameters }, {
		credentials: { intelliprintApi: { id: credentialId, name: credentialId } },
		onError: 'continueRegularOutput',
	});
/** `count` rows, each downloading its own invoice PDF (the fake's file host), then one print job per item from it. */
const pdfWorkflow = (id, fileUrl, count, options = {}) =>
	flow(id, [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Rows', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: `return Array.from({ length: ${count} }, (_, i) => ({ json: { n: i + 1, ref: 'INV-' + String(i + 1).padStart(4, '0') } }));` }),
		node('Download PDF', 'n8n-nodes-base.httpRequest', 4.2, [400, 0], { url: `={{ '${fileUrl}/demo/invoice-' + $json.n + '.pdf' }}`, options: { response: { response: { responseFormat: 'file' } } } }),
		intelliprint(id, { source: 'pdf', recipientsFrom: 'inFile', binaryPropertyName: 'data', options }),
	]);
/** A keyed mail run of `count` invoice rows (bench/mailRuns.mjs's parameters, live). */
const mailWorkflow = (id, count) =>
	flow(id, [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Rows', 'n8n-nodes-base.code', 2, [200, 0], {
			jsCode: `return Array.from({ length: ${count} }, (_, i) => { const n = i + 1; return { json: { invoice_no: 'INV-' + String(n).padStart(6, '0'), name: 'Customer ' + n, address: n + ' Mill Lane\\nLeeds', postcode: 'LS1 4AP', amount_due: String(10 + (n % 90)) } }; });`,
		}),
		intelliprint(id, {
			source: 'content', content: '<p>Dear {{name}},</p><p>Invoice {{invoice_no}}: £{{amount_due}} is overdue.</p>', recipientsFrom: 'allItems',
			recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'all', output: 'letters',
			options: { sentKey: '={{ $json.invoice_no }}', rowId: '={{ $json.invoice_no }}', lettersPerJob: 1000 },
		}),
	]);

// Cases -------------------------------------------------------------------------------------------------------------
const cases = [];
/** The history's keys: the odd rows' keys (INV-0001, INV-0003…) spread evenly over its jobs, other keys elsewhere. */
const sentKeys = (count) => {
	const byIndex = new Map(Array.from({ length: SENT }, (_, k) => [Math.floor(((k + 0.5) * count) / SENT), ref(k * 2)]));
	return (i) => byIndex.get(i) ?? `hist-${i}`;
};
if (PARTS.includes('pdf')) cases.push({ path: '1. PDF with its own address, one job per item, no limit', processes: 1, items: PDFS, daily: 0, kind: 'pdf' });
if (PARTS.includes('limit')) {
	cases.push(
		{ path: `2. the same, daily limit £${FAR} (far: every letter fits)`, processes: 1, items: PDFS, daily: FAR, kind: 'pdf' },
		{ path: `2. the same, daily limit £${PDFS / 2} (reached)`, processes: 1, items: PDFS, daily: PDFS / 2, kind: 'pdf' },
	);
}
if (PARTS.includes('processes')) {
	// Processes racing each other decide differently from run to run: each configuration is run REPEATS times.
	for (const processes of PROCESSES) {
		for (const [daily, what] of [[FAR, 'far'], [PDFS / 2, 'reached']]) {
			for (let repeat = 1; repeat <= REPEATS; repeat++) {
				cases.push({ path: `3. ${processes} processes at once, one key, daily limit £${daily} (${what})`, repeat, processes, items: PDFS, daily, kind: 'pdf' });
			}
		}
	}
}
if (PARTS.includes('history')) {
	cases.push({
		path: `4. rerun of ${KEYS} keyed PDFs, ${HISTORY_JOBS.toLocaleString('en-GB')}-job account, ${KEYS - SENT} new, fresh process`, processes: 1, items: KEYS, daily: 0, kind: 'pdf',
		options: { sentKey: '={{ $json.ref }}' }, history: HISTORY_JOBS > 0 ? { count: HISTORY_JOBS, days: 30, sentKeys: sentKeys(HISTORY_JOBS) } : undefined,
	});
}
if (PARTS.includes('mail')) {
	for (const rows of MAIL_ROWS) cases.push({ path: `5. keyed mail run, ${rows.toLocaleString('en-GB')} rows, 1,000 letters a job`, processes: 1, items: rows, daily: 0, kind: 'mail' });
}
// A credential and workflow ID of n8n's 16 characters, unique per case.
cases.forEach((run, i) => (run.id = `ipRpl${run.kind}${run.processes}p`.slice(0, 12).padEnd(12, '0') + String(i).padStart(4, '0')));
if (!cases.length) throw new Error(`BENCH_PART=${PARTS.join(',')}: nothing to run (pdf, limit, processes, history, mail)`);

say(`bench:requests: measuring ${measuredPackage}; ${cases.length} cases`);
await installN8n();
// One fake per case (its own account, its own day), each invoice PDF published on its file host.
const invoicePdfs = await Promise.all(recipients(Math.max(PDFS, KEYS), 0).map(async (person) => await mailMergePdf([{ ...person, pages: 1 }])));
for (const run of cases) {
	run.fake = await startFakeIntelliprint({ rateLimit: false, latencyMs: 0 });
	invoicePdfs.forEach((pdf, i) => run.fake.publish(`invoice-${i + 1}.pdf`, pdf));
	if (run.history) run.fake.seedHistory(run.history);
}
const credentials = cases.map((run) => ({
	id: run.id, name: run.id, type: 'intelliprintApi',
	data: { apiKey: run.fake.apiKey, baseUrl: run.fake.url, dailySpendingLimit: run.daily, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60 },
}));
const files = await Promise.all(cases.map(async (run) => {
	const file = `${WORK}/workflows/${run.id}.json`;
	await fs.outputJson(file, run.kind === 'mail' ? mailWorkflow(run.id, run.items) : pdfWorkflow(run.id, run.fake.fileUrl, run.items, run.options));
	return file;
}));
// As many n8n installs as the most processes of a case, each with its own database; all hold every case.
const instances = await Promise.all(Array.from({ length: Math.max(...cases.map((run) => run.processes)) }, async (_, i) => {
	const instance = await N8nInstance.create(`bench-requests-${i}`, {}, `${WORK}/n8n-${i}`);
	await instance.importCredentials(credentials);
	await instance.importWorkflows(files);
	return instance;
}));

// Measuring ---------------------------------------------------------------------------------------------------------
const onPrints = (request) => /^\/v1\/prints\/?$/.test(request.path);
const onJob = (request) => /^\/v1\/prints\/[^/]+$/.test(request.path);
const confirming = (request) => [true, 'true'].includes(request.body?.confirmed);
const claimOf = (body) => body?.metadata?.n8n_spend_claim ?? body?.['metadata[n8n_spend_claim]'];
const KINDS = {
	'creates confirmed': (request) => request.method === 'POST' && onPrints(request) && confirming(request),
	'creates as draft': (request) => request.method === 'POST' && onPrints(request) && !confirming(request),
	confirms: (request) => request.method === 'POST' && onJob(request) && confirming(request),
	'hand-backs': (request) => request.method === 'POST' && onJob(request) && !confirming(request) && claimOf(request.body) === 'released',
	'other updates': (request) => request.method === 'POST' && onJob(request) && !confirming(request) && claimOf(request.body) !== 'released',
	lists: (request) => request.method === 'GET' && onPrints(request),
	reads: (request) => request.method === 'GET' && onJob(request),
	deletes: (request) => request.method === 'DELETE' && onJob(request),
};
const kindOf = (request) => Object.keys(KINDS).find((kind) => KINDS[kind](request)) ?? 'other';
const pounds = (value) => `£${value.toFixed(2)}`;

/** What the processes' runs said per item: failed (and the first failure's words), skipped as already sent. */
function outcomes(executions) {
	let failed = 0;
	let skipped = 0;
	let first;
	const problems = [];
	for (const executed of executions) {
		const { items, error } = N8nInstance.node(executed.result, 'Create');
		const runError = executed.result?.data.resultData.error ?? error;
		if (!executed.result || runError) problems.push(`run failed: ${runError?.message ?? `exit code ${executed.exitCode}, no output`}`);
		for (const { json } of items) {
			if (json.error !== undefined) {
				failed++;
				first ??= String(json.error?.message ?? json.error ?? json.message).replace(/\s+/g, ' ').slice(0, 140);
			} else if (json.already_sent === true) skipped++;
		}
	}
	return { failed, skipped, first, problems };
}

/** Requests a letter as the tables give it, and the letters a minute it allows at 100 requests a minute. */
const perLetterText = (value) => (value === undefined ? '-' : value.toFixed(value < 0.1 ? 4 : 2));
const perMinuteText = (value) => (value === undefined ? '-' : Math.floor(100 / value).toLocaleString('en-GB'));
const rows = [];
const figures = [];
for (const run of cases) {
	say(`running: ${run.path}${run.repeat ? `, run ${run.repeat}` : ''}, ${run.items} items${run.processes > 1 ? ' each' : ''}...`);
	const fake = run.fake;
	const t0 = Date.now();
	const executions = await Promise.all(instances.slice(0, run.processes).map(async (instance) => await instance.execute(run.id)));
	const wall = (Date.now() - t0) / 1000;
	// A run whose output held no run data: kept whole, to see why (the counts come from the fake all the same).
	for (const [i, executed] of executions.entries()) {
		if (executed.result) continue;
		const file = `${WORK}/output-${run.id}-${i + 1}.txt`;
		await fs.outputFile(file, executed.output);
		say(`  process ${i + 1}: no run data in its output (exit code ${executed.exitCode}, ${executed.output.length} characters, kept in ${file.replace(`${ROOT}/`, '')}); it ended:\n${executed.output.slice(-600)}`);
	}
	const requests = fake.requests.filter((request) => !request.path.startsWith('files:'));
	const kinds = Object.fromEntries([...Object.keys(KINDS), 'other'].map((kind) => [kind, 0]));
	for (const request of requests) kinds[kindOf(request)]++;
	// What the lists asked for (the query without paging), to tell a look-back read from a lookup or a day's read.
	const listQueries = {};
	for (const request of requests.filter(KINDS.lists)) {
		const asked = Object.keys(request.query).filter((name) => !/^(skip|limit)$/.test(name)).sort().join('&') || '(none)';
		listQueries[asked] = (listQueries[asked] ?? 0) + 1;
	}
	const otherPaths = [...new Set(requests.filter((request) => kindOf(request) === 'other').map((request) => `${request.method} ${request.path}`))];
	const created = fake.createdPrintJobs();
	const kept = created.filter((job) => fake.prints.jobs.get(job.id) === job);
	const confirmed = kept.filter((job) => job.confirmed);
	const letters = confirmed.reduce((sum, job) => sum + job.letters.filter((letter) => letter.status !== 'cancelled').length, 0);
	const drafts = kept.filter((job) => !job.confirmed);
	const spent = confirmed.filter((job) => !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
	const said = outcomes(executions);
	const perLetter = letters > 0 ? requests.length / letters : undefined;
	const span = requests.length ? (requests.at(-1).at - requests[0].at) / 1000 : 0;
	const steps = executions.map((executed) => executed.result?.data.resultData.runData.Create?.[0]?.executionTime).filter((ms) => typeof ms === 'number');
	const figure = {
		path: run.path, repeat: run.repeat, processes: run.processes, items: run.items, letters, requests: requests.length, perLetter, kinds, listQueries, otherPaths,
		jobsMade: created.length, draftsLeft: drafts.length, handedBack: drafts.filter((job) => job.metadata?.n8n_spend_claim === 'released').length,
		spent, daily: run.daily, failed: said.failed, skipped: said.skipped, firstFailure: said.first, problems: said.problems,
		duplicates: run.history ? keysOnMoreThanOneJob(fake, Array.from({ length: run.items }, (_, i) => ref(i))) : undefined, rateLimited: fake.rateLimited,
		spanSeconds: span, stepSeconds: steps.length ? Math.max(...steps) / 1000 : undefined, wallSeconds: wall, exitCodes: executions.map((executed) => executed.exitCode),
	};
	figures.push(figure);
	say(`  ${JSON.stringify(figure)}`);
	rows.push({
		path: run.path,
		run: run.repeat ?? 1,
		'items (per process)': run.items.toLocaleString('en-GB'),
		'letters confirmed': letters.toLocaleString('en-GB'),
		'API requests': requests.length.toLocaleString('en-GB'),
		'requests a letter': perLetterText(perLetter),
		'letters a minute at 100/min': perMinuteText(perLetter),
		'requests by kind': Object.entries(kinds).filter(([, count]) => count > 0).map(([kind, count]) => `${kind} ${count}`).join(', ') + (otherPaths.length ? ` (${otherPaths.slice(0, 3).join('; ')})` : ''),
		'drafts handed back': run.daily ? figure.handedBack : '-',
		'drafts left': figure.draftsLeft,
		'confirmed / limit': run.daily ? `${pounds(spent)} / ${pounds(run.daily)}${spent > run.daily ? ` (**${pounds(spent - run.daily)} past**)` : ''}` : pounds(spent),
		'items failed / skipped': `${said.failed} / ${said.skipped}${said.first ? ` ("${said.first}")` : ''}${said.problems.length ? `; ${said.problems[0]}` : ''}${figure.duplicates ? `; ${figure.duplicates} keys sent twice` : ''}`,
		'API span s': span.toFixed(1),
		'wall s': wall.toFixed(0),
	});
}
await Promise.all(cases.map((run) => run.fake.stop()));
const loadAtEnd = os.loadavg();

// Results -----------------------------------------------------------------------------------------------------------
// The summary: one line per path; a path run several times gives the range of its runs.
const range = (values, text) => {
	const low = Math.min(...values);
	const high = Math.max(...values);
	return low === high ? text(low) : `${text(low)}–${text(high)}`;
};
const short = [...new Set(figures.map((figure) => figure.path))].map((path) => {
	const runs = figures.filter((figure) => figure.path === path && figure.perLetter !== undefined).map((figure) => figure.perLetter);
	const several = runs.length > 1 ? ` (${runs.length} runs)` : '';
	return {
		path,
		'requests a letter': runs.length ? `${range(runs, perLetterText)}${several}` : '-',
		'letters a minute at 100/min': runs.length ? `${[...new Set([Math.max(...runs), Math.min(...runs)].map(perMinuteText))].join('–')}${several}` : '-',
	};
});
const seconds = Math.round((Date.now() - started) / 1000);
const load = (values) => values.map((value) => value.toFixed(2)).join(' / ');
const markdown = [
	'# Requests per letter, per path',
	'',
	'Written by `npm run bench:requests` (bench/requestsPerLetter.mjs) on the machine it last ran on. Rerun it whenever a change',
	'touches creating or confirming a print job. The API allows 100 requests a minute per key, so requests a letter sets',
	'the letters a minute a key can post: 100 / requests a letter.',
	'',
	`- **Measured**: ${measuredPackage}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, n8n 2.41.1 (sqlite), Node ${process.versions.node} (bench process).`,
	`- **Machine**: ${os.cpus().length} cores, load average (1 / 5 / 15 min) ${load(loadAtStart)} at the start and ${load(loadAtEnd)} at the end; the whole bench took ${seconds} s. Request counts do not depend on load; the times (API span, wall) do.`,
	'',
	'| path | requests a letter | letters a minute at 100/min |',
	'|---|---|---|',
	...short.map((row) => `| ${row.path} | ${row['requests a letter']} | ${row['letters a minute at 100/min']} |`),
	'',
	'## Method',
	'',
	'- **Real n8n**: every run is `n8n execute --id` of a saved workflow (a fresh n8n process with its own sqlite database,',
	'  the package installed from `npm pack` of its dist as users get it). Several processes at once are that many n8n',
	'  installs, each with its own database, running the same workflow with the same credential (one API key) at once.',
	'- **The API**: the fake (test/fake-api) on 127.0.0.1, one per case (its own account and day), answering at once',
	'  (latency 0, no rate limit); the credential lets the node send freely (100,000 requests a minute), so the counts are',
	'  what the node sends, not how it waits. Requests are every request to the API host (`fake.requests`), the file host',
	"  (the invoice PDFs n8n's HTTP Request node downloads) left out.",
	'- **Request kinds**: creates `POST /prints` (confirmed: `confirmed` true in the create; as draft: without it),',
	'  confirms `POST /prints/{id}` with `confirmed`, hand-backs `POST /prints/{id}` setting the spending claim to',
	'  `released`, lists `GET /prints`, reads `GET /prints/{id}`, deletes `DELETE /prints/{id}`.',
	'- **Letters confirmed**: letters (not cancelled) on the confirmed print jobs the run made. Requests a letter = API',
	'  requests / letters confirmed, items the limit refused included (their requests are the price of the limit).',
	`- **Paths 1-3**: ${PDFS} items per process, each downloading its own one-page invoice PDF (the customer's address in the`,
	'  envelope window; test/helpers/pdfs.ts), Source: PDF File, Recipients: Addresses in the PDF, one print job per item,',
	`  Test Mode off (live), Confirm on. Limits: £${FAR} (far: every letter of every process fits, £1.02 each after tax) and`,
	`  £${PDFS / 2} (reached: ${Math.floor(PDFS / 2 / 1.02)} letters fit, across all processes). Drafts handed back: drafts left with their claim`,
	'  released (a refused draft stays, named on its item, its claim handed back); drafts left: every unconfirmed job.',
	`- **Path 4**: ${KEYS} PDFs keyed INV-0001…INV-${String(KEYS).padStart(4, '0')} (Skip Items Already Sent, look-back 30 days), live, no limit, on an account`,
	`  of ${HISTORY_JOBS.toLocaleString('en-GB')} live jobs over the 30 days (test/fake-api/history.ts, as bench/history.mjs seeds it) with ${SENT} of the keys`,
	'  (the odd rows) already on it, spread over the 30 days: a right run makes 50 letters and skips 50. "Keys sent twice"',
	'  counts any row key on two jobs (goal 0).',
	'- **Path 5**: Source: Text or HTML, Recipients: All Input Items, Skip Items Already Sent = Row ID = `{{ $json.invoice_no }}`,',
	'  Letters per Print Job 1,000, Output: One Item per Letter, live, Confirm on, no limit; the first run of the sheet on an',
	'  empty account (every row new).',
	'',
	'## Results',
	'',
	...markdownTable(rows),
	'',
	'## How to rerun',
	'',
	'`npm run bench:requests` (builds, then `tsx bench/requestsPerLetter.mjs`). `BENCH_PART=pdf,limit,processes,history,mail`,',
	'`BENCH_PDFS=20`, `BENCH_PROCESSES=3`, `BENCH_REPEATS=1`, `BENCH_HISTORY_JOBS=10000` and `BENCH_MAIL_ROWS=1000` narrow it;',
	'`BENCH_PACKAGE_DIR=<a clone with its dist built>` measures that build. Those write .bench/RESULTS-requests-per-letter.md.',
	'',
];
// Notes written below the marker (findings, comparisons) are kept when the file is written again.
const KEEP = '<!-- bench/requestsPerLetter.mjs keeps what is below this line when it writes this file again -->';
const previous = (await fs.pathExists(RESULTS)) ? await fs.readFile(RESULTS, 'utf8') : '';
const kept = previous.includes(KEEP) ? previous.slice(previous.indexOf(KEEP) + KEEP.length) : '\n';
await fs.outputFile(RESULTS, `${markdown.join('\n')}\n${KEEP}${kept}`);
await fs.outputJson(`${ROOT}/.bench/requests-per-letter.json`, { package: measuredPackage, loadAtStart, loadAtEnd, seconds, figures }, { spaces: 1 });
say('');
console.table(short);
console.table(rows.map(({ path, 'requests by kind': kinds, 'drafts handed back': back, 'drafts left': left, 'confirmed / limit': spent, 'items failed / skipped': items }) => ({ path, kinds, back, left, spent, items })));
say(`bench:requests: ${seconds} s; written to ${RESULTS.replace(`${ROOT}/`, '')}`);
