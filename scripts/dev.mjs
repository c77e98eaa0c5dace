#!/usr/bin/env node
// `npm run dev`: real n8n with this package loaded, the sandbox API, a ready credential and the
// example workflows. Ctrl-C stops everything it started.
//
// A command-line tool, so JavaScript: it prints and handles signals, which n8n's node rules
// (applied to every TypeScript file here) rightly forbid in node code. Run through tsx, so it can
// use the TypeScript sandbox and n8n runner the tests use.
import execa from 'execa';
import fs from 'fs-extra';
import { randomBytes } from 'node:crypto';

import sandboxModule from '../test/fake-api/sandbox.ts';
import runnerModule from '../test/e2e/n8n.ts';
import { node24OrExit } from './node24/index.mjs';

// The package is CommonJS, so tsx loads these TypeScript modules as CommonJS: take their exports whole.
const { SANDBOX, startSandbox } = sandboxModule;
const { installN8n, N8nInstance, ROOT } = runnerModule;

const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const realKey = process.env.INTELLIPRINT_API_KEY;
const say = (text) => process.stdout.write(`${text}\n`);

// Node 24 for n8n (scripts/node24): say what to install before building anything, rather than fail halfway.
node24OrExit();

/**
 * What n8n prints at every start that a newcomer takes for a fault, switched off where n8n has a switch: the
 * deprecation notices that ask for a default to be set explicitly (each is set to the value it has now), the directory
 * of verified community nodes it fetches from n8n's servers (this package is installed from the build), and the n8n
 * Assistant, a paid model whose page 2.x opens on instead of the workflows (mcp-registry is off in every run here, as
 * in test/e2e/n8n.ts). What has no switch is explained in docs/troubleshooting.md.
 */
const QUIET = {
	N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
	N8N_RUNNERS_TASK_TIMEOUT: '300',
	N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(2 * 1024 ** 3),
	N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '5000',
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
	N8N_DISABLED_MODULES: 'mcp-registry,instance-ai',
};

/** The package's sources, each file's path, size and time: unchanged since the last build, the build is skipped. */
async function sources() {
	const files = ['package.json', 'tsconfig.json'];
	for (const folder of ['nodes', 'credentials']) for (const name of await fs.readdir(`${ROOT}/${folder}`, { recursive: true })) files.push(`${folder}/${name}`);
	const stats = await Promise.all(files.sort().map(async (file) => [file, (await fs.stat(`${ROOT}/${file}`)).size, (await fs.stat(`${ROOT}/${file}`)).mtimeMs]));
	return JSON.stringify(stats);
}
const built = `${ROOT}/.e2e/dev/built-from.json`;
async function build() {
	const now = await sources();
	if (now === (await fs.readFile(built, 'utf8').catch(() => '')) && (await fs.pathExists(`${ROOT}/dist/package.json`))) return;
	say('Building the package...');
	await execa('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
	await fs.outputFile(built, now);
}
// The first time, n8n's install takes minutes and the build seconds: side by side.
await Promise.all([build(), installN8n()]);

// The sandbox always runs: the example workflows download their sample PDFs from its file host.
const sandbox = await startSandbox();
const n8n = await N8nInstance.create('dev', QUIET, `${ROOT}/.e2e/dev`);

const apiCredential = realKey
	? { apiKey: realKey, baseUrl: process.env.INTELLIPRINT_BASE_URL || 'https://api.intelliprint.net/v1' }
	: { apiKey: SANDBOX.apiKey, baseUrl: SANDBOX.apiUrl };
await n8n.importCredentials([
	{ id: 'ipSandboxCred001', name: realKey ? 'Intelliprint (your account)' : 'Intelliprint sandbox', type: 'intelliprintApi', data: apiCredential },
	{ id: 'ipWebhookCred001', name: 'Intelliprint webhook (sandbox)', type: 'intelliprintWebhookApi', data: { signingSecret: `whsec_${Buffer.from('sandbox-webhook-signing-secret-32').toString('base64')}` } },
]);
const examples = ['rows-to-letters', 'scheduled-mail-run', 'failure-alert', 'merge-then-send', 'pdf-to-mailing-list', 'template-to-rows', 'approve-before-posting', 'ai-agent-letters'].map((name) => `${ROOT}/examples/${name}.json`);
if (realKey) {
	// "Approve before posting" drafts live letters to made-up customers: on a real account one click on Approve
	// would post and charge them, so there it comes in Test Mode, as the other examples are.
	const approval = examples.findIndex((file) => file.endsWith('/approve-before-posting.json'));
	const workflow = await fs.readJson(examples[approval]);
	for (const node of workflow.nodes) if (node.parameters?.operation === 'create') node.parameters.testmode = true;
	examples[approval] = `${n8n.userFolder}/examples/approve-before-posting.json`;
	await fs.outputJson(examples[approval], workflow, { spaces: '\t' });
}
await n8n.importWorkflows(examples);

/**
 * The owner of this local n8n, made over n8n's REST API (2.x and 1.x) the first time, so that the editor opens at
 * its sign-in page, not at the owner form and, in 2.x, the n8n Assistant's page after it. The password is kept in the
 * dev folder (git-ignored) and printed at every start; undefined when an owner was made by hand before. (n8n 1.x
 * says it is ready a moment before its REST routes answer: until then, 404.)
 */
async function ownerAccount(url) {
	const file = `${n8n.userFolder}/owner.json`;
	let settings = await fetch(`${url}/rest/settings`);
	for (let tries = 0; settings.status === 404 && tries < 120; tries++) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		settings = await fetch(`${url}/rest/settings`);
	}
	// Asked first, not tried: n8n logs a refused second setup as an error.
	if (!(await settings.json()).data?.userManagement?.showSetupOnFirstLoad) return await fs.readJson(file).catch(() => undefined);
	const account = { email: 'owner@example.com', firstName: 'Sandbox', lastName: 'Owner', password: `Sandbox1-${randomBytes(6).toString('hex')}` };
	const made = await fetch(`${url}/rest/owner/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
	if (!made.ok) return undefined;
	await fs.outputJson(file, { email: account.email, password: account.password });
	return account;
}

let stopping = false;
async function stop(code = 0, why = '') {
	if (stopping) return;
	stopping = true;
	say(`\n${why ? `${why}: stopping` : 'Stopping n8n and'} the sandbox...`);
	await n8n.stop();
	await sandbox.stop();
	process.exit(code);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
process.on('SIGHUP', () => void stop());

/**
 * Ctrl-C reaches every process of the command (the terminal signals them all), this one included. A SIGTERM sent to
 * the `npm run dev` process alone ends npm, or the shell npm runs the script with, and leaves this one running, its
 * own parent (tsx) still alive. So watch the processes of this command, tsx, that shell and the npm that runs it, and
 * stop when one of them is gone. Only those: the shell or script that started `npm run dev` may exit and leave it
 * running (a script that starts it in the background, waits for n8n and exits). (A SIGINT sent to npm alone, not by
 * a terminal, stops nothing on Linux: npm passes it to that shell, which waits for tsx. Send SIGTERM.)
 */
async function commandProcesses() {
	const watched = [process.ppid];
	// Started by npm (or another package manager), which runs the script through a shell: `sh -c` on macOS and Linux,
	// cmd.exe on Windows. The script is a plain `tsx scripts/dev.mjs`, no `exec` (cmd.exe has none), so on Linux that
	// shell stays between npm and tsx: a SIGTERM sent to npm alone reaches the shell (npm passes it to its child),
	// which dies of it and leaves tsx running, and this watch sees it gone. So follow the parents up to npm, shell
	// included, and no further. `ps` is missing or different on Windows: there only tsx is watched.
	if (!process.env.npm_lifecycle_event) return watched;
	const about = async (pid) => {
		const { stdout, exitCode } = await execa('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { reject: false });
		const match = exitCode === 0 ? /^\s*(\d+)\s+(.*)$/.exec(stdout.trim()) : null;
		return match ? { ppid: Number(match[1]), args: match[2] } : undefined;
	};
	const above = [];
	for (let pid = (await about(process.ppid))?.ppid; pid > 1 && above.length < 3; ) {
		const info = await about(pid);
		if (!info) break;
		above.push(pid);
		if (/(?:^|[\s/\\])(?:npm|npm-cli\.js|pnpm|pnpm\.cjs|yarn|yarn\.js)(?:\s|$)/.test(info.args)) return [...watched, ...above];
		pid = info.ppid;
	}
	// No package manager found just above: watch tsx alone rather than a shell that may exit.
	return watched;
}
const watched = await commandProcesses();
const alive = (pid) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};
// n8n puts a terminal in raw mode (for its "o" key), so there Ctrl-C reaches n8n alone, as a key, and n8n stops: then
// stop the sandbox too, and end, rather than hold the terminal with n8n gone.
let n8nStarted = false;
setInterval(() => {
	if (!watched.every(alive)) void stop();
	else if (n8nStarted && !(n8n.pid && alive(n8n.pid))) void stop(0, 'n8n has stopped');
}, 1000).unref();

say(`Starting n8n on port ${N8N_PORT} (10 seconds to a minute)...`);
// n8n's own log goes to this terminal: what a workflow run did, and why n8n refused something.
await n8n.start(N8N_PORT, {}, true);
n8nStarted = true;
const owner = await ownerAccount(`http://127.0.0.1:${N8N_PORT}`);
say('');
say(`  n8n:        http://localhost:${N8N_PORT}/workflow/ipExampleRowsLet   (rows to letters: start here)`);
say(owner
	? `  Sign in:    ${owner.email}, password ${owner.password}   (the owner of this local n8n, made for you)`
	: '  Sign in:    with the owner account you made in this n8n (to start afresh, stop it and delete .e2e/dev)');
say(realKey
	? `  API:        your Intelliprint account (${apiCredential.baseUrl}); the examples use Test Mode`
	: `  Sandbox:    ${SANDBOX.apiUrl} (a fake Intelliprint API; API key ${SANDBOX.apiKey})`);
say(`  Demo PDFs:  ${SANDBOX.filesUrl}/demo/mail-merge-100.pdf and others`);
say('  Workflows:  8 examples: "Intelliprint example: ..." (rows to letters; scheduled mail run, failure alert, merge then send, a PDF to a mailing list, a template to rows, approve before posting) and "Example: an AI agent posts letters (test jobs only)"');
say(`  Check:      INTELLIPRINT_API_KEY=${SANDBOX.apiKey} INTELLIPRINT_BASE_URL=${SANDBOX.apiUrl} npm run check:api  (what the node assumes of the API, tried on it)`);
say('  Messages:   what the examples send to the sandbox\'s /notify (alerts, approval links) is printed here.');
say('  Credential: "Intelliprint sandbox" is ready to use.');
say('  Warnings:   n8n\'s Python runner and N8N_RUNNERS_MODE warnings above are expected (docs/troubleshooting.md#what-npm-run-dev-prints).');
say('');
say('Press Ctrl-C to stop.');

// The examples' messages stand in for Slack or email: shown here, so that a person trying "approve before
// posting" can follow its Approve or Reject link.
let shown = 0;
setInterval(() => {
	for (; shown < sandbox.notifications.length; shown++) {
		const { text } = sandbox.notifications[shown] ?? {};
		say(`\n--- message to /notify ---\n${typeof text === 'string' ? text : JSON.stringify(sandbox.notifications[shown])}\n---`);
	}
}, 1000).unref();
