import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter } from 'vitest/node';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'n8n-nodes-intelliprint-test-'));

/** Ends the run with one plain line ("tests: 61 passed, 0 failed, 0 skipped") that any CI can read. */
const summaryLine: Reporter = {
	onTestRunEnd(testModules) {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		for (const module of testModules) {
			for (const test of module.children.allTests()) {
				const state = test.result().state;
				if (state === 'passed') counts.passed++;
				else if (state === 'failed') counts.failed++;
				else counts.skipped++;
			}
		}
		process.stdout.write(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
	},
};

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
		reporters: ['default', summaryLine],
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
