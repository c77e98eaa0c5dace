#!/usr/bin/env node
// `npm test`: every check, then a table of how long each took, so every CI log says where its minutes went.
//
// The quick checks run one after another. The test suites then run in lanes side by side: alone, each keeps the
// two cores only about 60% busy (waits for n8n to start, rate windows, timers), so together they end sooner
// (bench/RESULTS-ci.md: 22.7 minutes one after another at the time, 15.5 side by side), though each takes longer;
// together they keep both cores busy, so less CPU is what makes the suite shorter. The 2.x and 1.x suites have their
// own ports and folders; unit tests then queue mode form the third lane. Each suite's output is held
// and printed whole when it ends, so logs do not interleave. After a failure no new phase starts; the ones
// running finish, so one run reports every failing suite.
//
// `npm test -- --serial` runs everything one after another with live output, as before.
//
// A command-line tool, so JavaScript: n8n's node rules (applied to every TypeScript file here) forbid `process`.
import { spawn } from 'node:child_process';

import { node24OrExit } from './node24/index.mjs';

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

/** The CPU seconds (user and system) of a phase's processes, from bash's `times` on descriptor 3 (see run). */
function cpuSeconds(text) {
	const children = text.trim().split('\n')[1] ?? '';
	return [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, m, s]) => sum + Number(m) * 60 + Number(s), 0);
}

/**
 * Runs one phase to its end; `live` passes its output straight through, otherwise it is printed whole at the end.
 * Bash's `times` reports the CPU its children used (n8n, PostgreSQL and the CPU hogs included: each is waited
 * for), so the table shows where the two cores went as well as where the minutes did.
 */
function run([phase, command], live) {
	return new Promise((resolve) => {
		const started = Date.now();
		if (!live) process.stdout.write(`[${clock()}] started: ${phase}\n`);
		const script = `( ${command} ) 3>&-\nstatus=$?\ntimes >&3\nexit $status`;
		const child = spawn('bash', ['-c', script], { stdio: [live ? 'inherit' : 'ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe', 'pipe'] });
		const output = [];
		let times = '';
		child.stdout?.on('data', (chunk) => output.push(chunk));
		child.stderr?.on('data', (chunk) => output.push(chunk));
		child.stdio[3].on('data', (chunk) => (times += chunk));
		child.on('close', (status, signal) => {
			const seconds = (Date.now() - started) / 1000;
			rows.push([phase, seconds, cpuSeconds(times)]);
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

// The suites run n8n on Node 24 (scripts/node24): without one, say what to install now rather than after the checks.
node24OrExit();

await lane(CHECKS, true);
if (serial) await lane(LANES.flat(), true);
else await Promise.all(LANES.map((phases) => lane(phases, false)));

const wall = (Date.now() - began) / 1000;
const table = rows.map(([phase, seconds, cpu]) => `  ${minutes(seconds).padStart(6)}  ${String(Math.round(cpu)).padStart(6)}  ${phase}`).join('\n');
const cpu = rows.reduce((sum, [, , seconds]) => sum + seconds, 0);
process.stdout.write(
	`\nnpm test, time per phase (${serial ? 'one after another' : 'the suites side by side'}): wall clock, then CPU seconds\n${table}\n` +
		`  ${minutes(wall).padStart(6)}  ${String(Math.round(cpu)).padStart(6)}  in all (on average ${(cpu / wall).toFixed(2)} cores busy)\n`,
);
if (failures.length > 0) {
	process.stderr.write(`\n${failures.join('\n')}\n`);
	process.exit(1);
}
