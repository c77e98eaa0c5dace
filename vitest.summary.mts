import type { Reporter } from 'vitest/node';

/** Ends a run with one plain line ("unit: 105 passed, 0 failed, 0 skipped") that any CI can read. */
export function summaryLine(label: string): Reporter {
	return {
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
			process.stdout.write(`\n${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
		},
	};
}
