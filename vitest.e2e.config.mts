import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

import { summaryLine } from './vitest.summary.mts';

const require = createRequire(import.meta.url);

/** The end-to-end suite: the packed package inside the real n8n from npm, driven through n8n's CLI. */
export default defineConfig({
	resolve: { alias: { 'n8n-workflow': require.resolve('n8n-workflow') } },
	test: {
		include: ['test/e2e/**/*.test.ts'],
		globalSetup: ['test/e2e/globalSetup.ts'],
		testTimeout: 300_000,
		hookTimeout: 900_000,
		fileParallelism: false,
		pool: 'forks',
		reporters: ['default', summaryLine('e2e')],
	},
});
