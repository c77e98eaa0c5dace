import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

import { summaryLine } from './vitest.summary.mts';

const require = createRequire(import.meta.url);

/**
 * The n8n release line under test: N8N_LINE=1 for the newest n8n 1.x (test/e2e/n8n-1), otherwise
 * 2.x (test/e2e/n8n). Handed to the global setup and the test files through `env`.
 */
const line = process.env.N8N_LINE || '2';
if (line !== '1' && line !== '2') throw new Error(`N8N_LINE=${line}: the end-to-end suite runs on n8n line 1 or 2`);

/**
 * `npm test` runs the 2.x and 1.x suites side by side on two cores, so they take turns with their two long files:
 * 2.x starts with them and 1.x ends with them, and the two busy-host tests (each with a CPU hog per core) do not
 * run at once. The package's check comes last on both: it looks at every instance the suite started.
 */
const HEAVY = ['webhookDelivery', 'webhookTrigger'];
/**
 * The editor test draws n8n's editor in Chromium: starved by the busy-host tests' CPU hogs, its canvas once took over a
 * minute. So it runs where the other line is doing light work: first on 2.x, and on 1.x after its busy-host tests.
 */
const EDITOR = 'editorExamples';
class LineOrder extends BaseSequencer {
	async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const name = (file: TestSpecification) => basename(file.moduleId, '.test.ts');
		const rank = (file: TestSpecification) => {
			if (name(file) === 'package') return 3;
			if (name(file) === EDITOR) return line === '2' ? -1 : 2.5;
			const heavy = HEAVY.indexOf(name(file));
			if (heavy === -1) return 1;
			return line === '2' ? heavy / 10 : 2 + (HEAVY.length - heavy) / 10;
		};
		return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
	}
}

/** The end-to-end suite: the packed package inside the real n8n from npm, driven through n8n's CLI. */
export default defineConfig({
	resolve: { alias: { 'n8n-workflow': require.resolve('n8n-workflow') } },
	test: {
		include: ['test/e2e/**/*.test.ts'],
		// The queue-mode suite has its own config (vitest.queue.config.mts): it needs PostgreSQL and Redis.
		exclude: ['test/e2e/queue/**', 'node_modules/**'],
		globalSetup: ['test/e2e/globalSetup.ts'],
		setupFiles: ['test/e2e/httpClient.ts'],
		env: { N8N_LINE: line },
		testTimeout: 300_000,
		hookTimeout: 900_000,
		fileParallelism: false,
		sequence: { sequencer: LineOrder },
		pool: 'forks',
		reporters: ['default', summaryLine(line === '1' ? 'e2e n8n 1.x' : 'e2e')],
	},
});
