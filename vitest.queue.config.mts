import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

import { summaryLine } from './vitest.summary.mts';

const require = createRequire(import.meta.url);

/**
 * The queue-mode suite: the packed package in real n8n 2.x scaled out (main, workers, webhook
 * processors) on PostgreSQL and Redis running on this machine, no containers. Its ports are fixed
 * (test/e2e/queue/cluster.ts), so its files run one after another.
 */
export default defineConfig({
	resolve: { alias: { 'n8n-workflow': require.resolve('n8n-workflow') } },
	test: {
		include: ['test/e2e/queue/**/*.test.ts'],
		globalSetup: ['test/e2e/queue/globalSetup.ts'],
		setupFiles: ['test/e2e/httpClient.ts'],
		env: { N8N_LINE: '2' },
		testTimeout: 300_000,
		hookTimeout: 900_000,
		fileParallelism: false,
		pool: 'forks',
		reporters: ['default', summaryLine('e2e queue mode')],
	},
});
