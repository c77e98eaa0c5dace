#!/usr/bin/env node
// `npm test`: every check, then a table of how long each took, so every CI log says where its minutes went.
//
// The quick checks run one after another. The test suites then run in lanes side by side: alone, each keeps the
// two cores only about 60% busy (waits for n8n to start, rate windows, timers), so together they end sooner
// (bench/RESULTS-ci.md: 22.7 to about 15.5 minutes) though each takes longer. The 2.x and 1.x suites have their
// own ports and folders; unit tests then queue mode form the third lane. Each suite's output is held
// and printed whole when it ends, so logs do not interleave. After a failure no new phase starts; the ones
// running finish, so one run reports every failing suite.
//
// `npm test -- --serial` runs everything one after another with live output, as before.
//
// A command-line tool, so JavaScript: n8n's node rules (applied to every TypeScript file here) forbid `process`.
import { spawn } from 'node:child_process';

const CHECKS = [
	['build', 'npm run build'],
	['lint (n8n-node lint, strict)', 'npm run lint'],
	['type-check', 'npm run typecheck'],
];
const LANES = [
	[
		['unit and engine tests', 'npm run test:unit'],
		['end-to-end, queue mode', 'npm run test:e2e:queue'],
	],
	[['end-to-end, n8n 2.x', 'npm run test:e2e']],
	[['end-to-end, n8n 1.x', 'npm run test:e2e:n8n1']],
];

const serial = process.argv.includes('--serial');
const began = Date.now();
const rows = [];
const failures = [];
const minutes = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
const clock = () => minutes((Date.now() - began) / 1000);

/** Runs one phase to its end; `live` passes its output straight through, otherwise it is printed whole at the end. */
function run([phase, command], live) {
	return new Promise((resolve) => {
		const started = Date.now();
		if (!live) process.stdout.write(`[${clock()}] started: ${phase}\n`);
		const child = spawn(command, { shell: true, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
		const output = [];
		child.stdout?.on('data', (chunk) => output.push(chunk));
		child.stderr?.on('data', (chunk) => output.push(chunk));
		child.on('close', (status, signal) => {
			const seconds = (Date.now() - started) / 1000;
			rows.push([phase, seconds]);
			if (!live) {
				const rule = '─'.repeat(8);
				process.stdout.write(`\n${rule} ${phase}: ${status === 0 ? 'passed' : 'FAILED'} in ${minutes(seconds)} (ended at ${clock()}) ${rule}\n`);
				process.stdout.write(Buffer.concat(output));
				process.stdout.write(`${rule} end of ${phase} ${rule}\n\n`);
			}
			if (status !== 0) failures.push(`${phase} failed (${signal ?? `exit code ${status}`}): ${command}`);
			resolve(status === 0);
		});
	});
}

async function lane(phases, live) {
	for (const phase of phases) {
		if (failures.length > 0) return;
		await run(phase, live);
	}
}

await lane(CHECKS, true);
if (serial) await lane(LANES.flat(), true);
else await Promise.all(LANES.map((phases) => lane(phases, false)));

const wall = (Date.now() - began) / 1000;
const table = rows.map(([phase, seconds]) => `  ${minutes(seconds).padStart(6)}  ${phase}`).join('\n');
process.stdout.write(`\nnpm test, time per phase (${serial ? 'one after another' : 'the suites side by side'}):\n${table}\n  ${minutes(wall).padStart(6)}  in all, wall clock\n`);
if (failures.length > 0) {
	process.stderr.write(`\n${failures.join('\n')}\n`);
	process.exit(1);
}
