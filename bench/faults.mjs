#!/usr/bin/env node
// `npm run bench` (second part): the fault matrix's totals. Every row of test/faults/matrix.ts (the
// fake API's bad habits: redirects, garbage 2xx, resets, hangs, 429 storms, endless lists, a failing
// file host) runs through n8n-core's engine, as in the test suite, and the counts are printed and
// added to bench/RESULTS.md.
//
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import fs from 'fs-extra';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { markdownTable } from './measure.mjs';

// n8n-core reads its settings from the environment when first used: set them before it loads.
const scratch = mkdtempSync(join(tmpdir(), 'intelliprint-bench-faults-'));
Object.assign(process.env, { N8N_USER_FOLDER: scratch, N8N_ENCRYPTION_KEY: 'bench', N8N_LOG_LEVEL: 'silent', N8N_DIAGNOSTICS_ENABLED: 'false' });
// tsx hands CommonJS-compiled modules over either as named exports or under `default`.
const load = async (path) => {
	const module = await import(path);
	return module.default ?? module;
};
const { ROWS, runRow } = await load('../test/faults/matrix.ts');
const { startFakeIntelliprint } = await load('../test/fake-api/server.ts');
const { simplePdf } = await load('../test/helpers/pdfs.ts');

const say = (text) => process.stdout.write(`${text}\n`);
const fake = await startFakeIntelliprint({ rateLimit: false });
const pdf = await simplePdf(1);
const rows = [];
for (const [index, row] of ROWS.entries()) {
	say(`fault: ${row.name}...`);
	const tally = await runRow(fake, row, pdf, `bench${index}`);
	rows.push({
		fault: row.name, items: tally.items, requests: tally.requests, 'jobs created': tally.jobsCreated,
		succeeded: tally.successes, 'error items': tally.errors, duplicates: tally.duplicates, vanished: tally.vanished,
		'fake successes': tally.fakeSuccesses, 'keys sent elsewhere': tally.keyLeaks,
	});
}
await fake.stop();
await fs.remove(scratch);

const sum = (column) => rows.reduce((total, row) => total + row[column], 0);
const totals = { fault: `TOTAL (${rows.length} faults)`, ...Object.fromEntries(Object.keys(rows[0]).slice(1).map((column) => [column, sum(column)])) };
rows.push(totals);
say('');
say('Fault matrix (Continue On Fail on, so every item shows what became of it):');
console.table(rows);

const markdown = [
	'',
	'## Fault matrix',
	'',
	'Each fault injected into the fake API while the node creates, gets or lists through n8n-core\'s engine (test/faults/matrix.ts). "fake successes": success items without a real job; "vanished": input items with no output at all; "keys sent elsewhere": requests carrying the API key that reached the file host or a foreign host.',
	'',
	...markdownTable(rows),
	'',
];
await fs.appendFile(new URL('./RESULTS.md', import.meta.url), markdown.join('\n'));
