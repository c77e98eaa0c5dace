import type { Reporter } from 'vitest/node';

/**
 * Ends a run with one plain line ("unit: 105 passed, 0 failed, 0 skipped") that any CI can read, after
 * each test file's wall time, slowest first: where the suite's minutes go, in every CI log.
 */
export function summaryLine(label: string): Reporter {
	return {
		onTestRunEnd(testModules) {
			const counts = { passed: 0, failed: 0, skipped: 0 };
			const times: Array<[string, number, number]> = [];
			for (const module of testModules) {
				const { duration, collectDuration, setupDuration } = module.diagnostic();
				times.push([module.relativeModuleId, duration, collectDuration + setupDuration]);
				for (const test of module.children.allTests()) {
					const state = test.result().state;
					if (state === 'passed') counts.passed++;
					else if (state === 'failed') counts.failed++;
					else counts.skipped++;
				}
			}
			times.sort((a, b) => b[1] - a[1]);
			const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
			const sum = (column: 1 | 2) => times.reduce((total, row) => total + row[column], 0);
			const rows = times.map(([file, ms, loading]) => `${seconds(ms)} ${seconds(loading)}  ${file}`);
			const head = `${label}: time per test file, its tests then its loading (sums ${seconds(sum(1)).trim()} and ${seconds(sum(2)).trim()})`;
			process.stdout.write(`\n${head}\n${rows.join('\n')}\n`);
			process.stdout.write(`\n${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
		},
	};
}
