import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

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
		setupFiles: ['test/setup.ts'],
		pool: 'forks',
	},
});
