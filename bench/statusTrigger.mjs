#!/usr/bin/env node
// `npm run bench:status-trigger`: what a poll of the Intelliprint Status Trigger costs a big sender (issue 55, item 4),
// before and after it read only what changed since the last poll.
//
// The account: a year of print jobs on the fake API (test/fake-api/history.ts, 100,000 by default, held compactly), of
// which 10,000 have a letter that came back a week after it was posted (the newest came back today). The trigger as a
// user leaves it: Statuses Returned and Failed (Wrong Address), live jobs, Simplify on, its default look-back. Four
// polls per side, each in a workflow built afresh from the static data the poll before saved (as n8n does): the first
// after activation (it records what is there, and emits nothing), one after 5 more letters came back (it emits them),
// one with nothing new, and one after a burst of 500 returns. Per poll: requests to the API, bytes received (response
// bodies), wall time (the fake's work included: it runs in this process), items emitted, and the size of the state
// saved with the workflow.
//
// Both sides run the package's built code (dist/, so `npm run build` first) through n8n-core's PollContext, the harness
// the tests use (test/nodes/IntelliprintStatusTrigger/poller.ts), against one fake through a proxy that counts bytes.
// "before" is the trigger of BENCH_BEFORE_REF (default a42d86b, the last commit before this change): its source, with
// its imports pointed at this dist, compiled by tsx.
//
// BENCH_JOBS (default 100000), BENCH_RETURNS (default 10000), BENCH_NEW (default 5), BENCH_BURST (default 500) change the
// account and what comes back.
//
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import execa from 'execa';
import fs from 'fs-extra';
import http from 'node:http';
import { createRequire } from 'node:module';

import serverModule from '../test/fake-api/server.ts';
import credentialsModule from '../test/helpers/credentials.ts';
import harnessModule from '../test/helpers/n8n.ts';
import { markdownTable } from './measure.mjs';

const require = createRequire(import.meta.url);
const { PollContext } = require('n8n-core');
const { Workflow } = require('n8n-workflow');
const { startFakeIntelliprint } = serverModule;
const { TestCredentialsHelper } = credentialsModule;
const { testAdditionalData } = harnessModule;

const say = (text) => process.stdout.write(`${text}\n`);
const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const RESULTS = `${ROOT}/bench/RESULTS-status-trigger.md`;
const BEFORE_REF = process.env.BENCH_BEFORE_REF || 'a42d86b';
const JOBS = Number(process.env.BENCH_JOBS || 100_000);
const RETURNS = Number(process.env.BENCH_RETURNS || 10_000);
const NEW = Number(process.env.BENCH_NEW || 5);
const BURST = Number(process.env.BENCH_BURST || 500);
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

// The two triggers -------------------------------------------------------------------------------------------------
const dist = (path) => `${ROOT}/dist/${path}`;
if (!(await fs.pathExists(dist('nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node.js')))) throw new Error('No dist: run npm run build first');
const { IntelliprintStatusTrigger: After } = require(dist('nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node.js'));
const { IntelliprintApi } = require(dist('credentials/IntelliprintApi.credentials.js'));
const beforeSource = (await execa('git', ['-C', ROOT, 'show', `${BEFORE_REF}:nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node.ts`])).stdout;
// Inside the repo (.bench/ is ignored by git), so that its `n8n-workflow` resolves as the package's does.
const beforeFile = `${ROOT}/.bench/status-trigger/IntelliprintStatusTrigger.before.ts`;
await fs.outputFile(beforeFile, beforeSource.replaceAll("'../Intelliprint/", `'${dist('nodes/Intelliprint/')}`));
const beforeModule = await import(beforeFile);
const Before = beforeModule.IntelliprintStatusTrigger ?? beforeModule.default.IntelliprintStatusTrigger;

// The account, behind a proxy that counts what the node receives ---------------------------------------------------
const started = Date.now();
const fake = await startFakeIntelliprint({ rateLimit: false });
const history = fake.seedHistory({ count: JOBS, days: 365 });
// Returns up to today: those of the jobs posted at least a week ago, spread evenly over them, each a week after posting.
let posted = JOBS;
while (posted > 0 && history.confirmedAtOf(posted - 1) + 7 * DAY > now() - 60) posted--;
const returnLetter = (id, date) => fake.prints.setLetterStatus(id, 'returned', { returned: { date, reason: 'Addressee gone away', acknowledged: false } });
for (let k = 0; k < RETURNS; k++) {
	const index = Math.floor((k * posted) / RETURNS);
	returnLetter(history.letterIdAt(index, 0), history.confirmedAtOf(index) + 7 * DAY);
}
// The letters that come back between the first poll and the next, and in a burst later: jobs of the last week, none
// of them returned yet.
const fresh = Array.from({ length: NEW }, (_, k) => history.letterIdAt(posted + k, 0));
const burst = Array.from({ length: BURST }, (_, k) => history.letterIdAt(posted + NEW + k, 0));
if (posted + NEW + BURST > JOBS) throw new Error('BENCH_NEW and BENCH_BURST need more jobs of the last week: raise BENCH_JOBS');
say(`bench:status-trigger: ${JOBS.toLocaleString('en-GB')} jobs over a year, ${RETURNS.toLocaleString('en-GB')} returned, seeded in ${Math.round((Date.now() - started) / 1000)} s`);

const counted = { requests: 0, bytes: 0 };
const upstream = new URL(fake.url);
const proxy = http.createServer((req, res) => {
	counted.requests++;
	const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
		res.writeHead(answer.statusCode ?? 502, answer.headers);
		answer.on('data', (chunk) => {
			counted.bytes += chunk.length;
			res.write(chunk);
		});
		answer.on('end', () => res.end());
	});
	req.pipe(forward);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const credentials = { apiKey: fake.apiKey, baseUrl: `http://127.0.0.1:${proxy.address().port}/v1`, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60 };
const additionalData = { ...testAdditionalData(credentials), credentialsHelper: new TestCredentialsHelper({ intelliprintApi: new IntelliprintApi() }, { intelliprintApi: credentials }) };

// A poller as n8n runs one (test/nodes/IntelliprintStatusTrigger/poller.ts) ------------------------------------------
const PARAMETERS = { statuses: ['returned', 'failed_wrong_address'], testmode: false, emitExisting: false, simplify: true };
function poller(Trigger) {
	const trigger = new Trigger();
	const nodeTypes = { getByName: () => trigger, getByNameAndVersion: () => trigger, getKnownTypes: () => ({}) };
	let saved = {};
	return async () => {
		const node = {
			id: 'n1', name: 'Status Trigger', type: 'n8n-nodes-intelliprint.intelliprintStatusTrigger', typeVersion: 1, position: [0, 0], parameters: PARAMETERS,
			credentials: { intelliprintApi: { id: 'cred-1', name: 'Intelliprint account' } },
		};
		const workflow = new Workflow({ id: 'wf-bench', nodes: [node], connections: {}, nodeTypes, active: true, settings: { executionOrder: 'v1' }, staticData: JSON.parse(JSON.stringify(saved)) });
		Object.assign(counted, { requests: 0, bytes: 0 });
		const start = process.hrtime.bigint();
		const result = await trigger.poll.call(new PollContext(workflow, node, additionalData, 'trigger', 'activate'));
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		saved = JSON.parse(JSON.stringify(workflow.staticData));
		return { requests: counted.requests, bytes: counted.bytes, ms, emitted: result?.[0]?.length ?? 0, stateBytes: JSON.stringify(saved).length };
	};
}

const polls = [];
for (const [side, Trigger] of [['before', Before], ['after', After]]) {
	const poll = poller(Trigger);
	polls.push({ side, poll: 'first after activation', ...(await poll()) });
	for (const id of fresh) returnLetter(id, now());
	polls.push({ side, poll: `later, ${NEW} newly returned`, ...(await poll()) });
	polls.push({ side, poll: 'later, nothing new', ...(await poll()) });
	for (const id of burst) returnLetter(id, now());
	polls.push({ side, poll: `later, ${BURST} newly returned`, ...(await poll()) });
	// The account as it was, for the other side.
	for (const id of [...fresh, ...burst]) fake.prints.setLetterStatus(id, 'sent', { returned: null });
	say(`${side}: done`);
}
proxy.close();
await fake.stop();

// Results ----------------------------------------------------------------------------------------------------------
const int = (value) => Math.round(value).toLocaleString('en-GB');
const size = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`);
const rows = polls.map((p) => ({ poll: p.poll, side: p.side, requests: int(p.requests), 'bytes received': size(p.bytes), ms: int(p.ms), emitted: int(p.emitted), 'state saved': size(p.stateBytes) }));
const expected = (p) => (p.poll.includes(`${BURST} newly`) ? BURST : p.poll.includes('newly') ? NEW : 0);
const wrong = polls.filter((p) => p.emitted !== expected(p));
const commit = (await execa('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { reject: false })).stdout.trim();
const dirty = (await execa('git', ['-C', ROOT, 'status', '--porcelain', '--untracked-files=no', '--', 'nodes'], { reject: false })).stdout.trim() !== '';
const markdown = [
	'# The Status Trigger at a big sender\'s volume (issue 55, item 4)',
	'',
	`What a poll of the Intelliprint Status Trigger costs an account holding a year of print jobs (${int(JOBS)}) of which ${int(RETURNS)} have a`,
	'letter that came back (a week after it was posted; the newest today). Statuses Returned and Failed (Wrong Address), live',
	'jobs, Simplify on, the default look-back. The first poll after activation records what is there (emits nothing); the',
	`next comes after ${NEW} more letters came back (emits them); the third finds nothing new; the fourth comes after a burst of ${BURST}`,
	'returns. Requests are to the API; bytes are the response bodies the node received; ms is the poll\'s wall time with the',
	'fake API working in the same process; "state saved" is the static data n8n writes with the workflow after the poll.',
	'',
	`- **before**: the trigger of ${BEFORE_REF} (every job with a letter in a watched status, whole, every poll).`,
	`- **after**: ${commit}${dirty ? ' with uncommitted changes' : ''} (returned letters newest return first, down to the newest return date read less two days;`,
	'  the other statuses in jobs of the look-back, newest first; each job trimmed with `fields[]` to what an item shows).',
	`- Measured ${new Date().toISOString().replace(/:\d\d\.\d+Z$/, ' UTC').replace('T', ' ')} by \`bench/statusTrigger.mjs\`: the built package (dist/) through n8n-core's PollContext, the tests' harness.`,
	...(wrong.length ? ['', `**Emitted other than expected**: ${wrong.map((p) => `${p.side} ${p.poll}: ${p.emitted}`).join('; ')}.`] : []),
	'',
	...markdownTable(rows),
	'',
	'To rerun: `npm run bench:status-trigger` (it builds first), or `npm run build && npx tsx bench/statusTrigger.mjs`.',
	'`BENCH_JOBS`, `BENCH_RETURNS`, `BENCH_NEW` and `BENCH_BURST` change the account; `BENCH_BEFORE_REF` the commit measured as "before".',
	'',
];
await fs.outputFile(RESULTS, markdown.join('\n'));
say('');
say(markdown.join('\n'));
say(`bench:status-trigger: ${Math.round((Date.now() - started) / 1000)} s; written to bench/RESULTS-status-trigger.md`);
