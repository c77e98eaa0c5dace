import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

import { summaryLine } from './vitest.summary.mts';

const require = createRequire(import.meta.url);
// Removed again when the run ends (test/scratch.ts).
const scratch = mkdtempSync(join(tmpdir(), 'n8n-nodes-intelliprint-test-'));

export default defineConfig({
	resolve: {
		// n8n-core is CommonJS; the node under test must see the very same n8n-workflow classes
		// (NodeApiError, NodeOperationError…), not the package's separate ESM build.
		alias: { 'n8n-workflow': require.resolve('n8n-workflow') },
	},
	test: {
		include: ['test/**/*.test.ts'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		testTimeout: 120_000,
		hookTimeout: 120_000,
		pool: 'forks',
		// Most of the long files wait (retry backoffs, timeouts, rate windows) rather than compute, so one more
		// fork than there are cores overlaps them: on 2 cores, 3 forks took 187 s where vitest's default took 401 s
		// (and about 100 s since they share n8n-core, below).
		maxWorkers: Math.ceil(availableParallelism() * 1.5),
		// n8n-core and n8n-workflow load once per fork instead of once per test file (199 s and 316 s of CPU on
		// 2 cores, now about 100 s and 110 s); test/freshModules.ts loads this package's own modules afresh for
		// each file, so no state passes from one file to the next.
		isolate: false,
		setupFiles: ['test/freshModules.ts'],
		globalSetup: ['test/scratch.ts'],
		reporters: ['default', summaryLine('unit')],
		// n8n-core reads its instance settings (and so its binary data folder) from the environment.
		env: {
			N8N_USER_FOLDER: join(scratch, 'user'),
			N8N_ENCRYPTION_KEY: 'test-encryption-key',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			// Failed items are the point of many tests: keep n8n-core from echoing each one.
			N8N_LOG_LEVEL: 'silent',
		},
	},
});
