import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

import { summaryLine } from './vitest.summary.mts';

const require = createRequire(import.meta.url);

/**
 * The n8n release line under test: N8N_LINE=1 for the newest n8n 1.x (test/e2e/n8n-1), otherwise
 * 2.x (test/e2e/n8n). Handed to the global setup and the test files through `env`.
 */
const line = process.env.N8N_LINE || '2';
if (line !== '1' && line !== '2') throw new Error(`N8N_LINE=${line}: the end-to-end suite runs on n8n line 1 or 2`);

/** The end-to-end suite: the packed package inside the real n8n from npm, driven through n8n's CLI. */
export default defineConfig({
	resolve: { alias: { 'n8n-workflow': require.resolve('n8n-workflow') } },
	test: {
		include: ['test/e2e/**/*.test.ts'],
		// The queue-mode suite has its own config (vitest.queue.config.mts): it needs PostgreSQL and Redis.
		exclude: ['test/e2e/queue/**', 'node_modules/**'],
		globalSetup: ['test/e2e/globalSetup.ts'],
		env: { N8N_LINE: line },
		testTimeout: 300_000,
		hookTimeout: 900_000,
		fileParallelism: false,
		pool: 'forks',
		reporters: ['default', summaryLine(line === '1' ? 'e2e n8n 1.x' : 'e2e')],
	},
});
