#!/usr/bin/env node
// `npm test`: every check, one after another, stopping at the first that fails (as `a && b && …` would), then a
// table of how long each took, so every CI log says where its minutes went.
//
// A command-line tool, so JavaScript: n8n's node rules (applied to every TypeScript file here) forbid `process`.
import { spawnSync } from 'node:child_process';

const PHASES = [
	['build', 'npm run build'],
	['lint (n8n-node lint, strict)', 'npm run lint'],
	['type-check', 'npm run typecheck'],
	['unit and engine tests', 'npm run test:unit'],
	['end-to-end, n8n 2.x', 'npm run test:e2e'],
	['end-to-end, n8n 1.x', 'npm run test:e2e:n8n1'],
	['end-to-end, queue mode', 'npm run test:e2e:queue'],
];

const rows = [];
let failed;
for (const [phase, command] of PHASES) {
	const started = Date.now();
	const { status, signal } = spawnSync(command, { shell: true, stdio: 'inherit' });
	rows.push([phase, (Date.now() - started) / 1000]);
	if (status !== 0) {
		failed = `${phase} failed (${signal ?? `exit code ${status}`}): ${command}`;
		break;
	}
}

const minutes = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
const total = rows.reduce((sum, [, seconds]) => sum + seconds, 0);
process.stdout.write(`\nnpm test, time per phase:\n${rows.map(([phase, seconds]) => `  ${minutes(seconds).padStart(6)}  ${phase}`).join('\n')}\n  ${minutes(total).padStart(6)}  in all\n`);
if (failed) {
	process.stderr.write(`\n${failed}\n`);
	process.exit(1);
}
