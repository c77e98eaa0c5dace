import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { ROOT } from '../e2e/n8n';

/**
 * Files short enough to read in one sitting (under 250 lines), and the spending gate a maintainer can check by hand
 * against docs/spending-limits.md: at most 600 lines in all (issue 47; it was 906 with a protocol that could stall).
 */
const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').length - 1;
const sources = (dir: string): string[] =>
	fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? sources(`${dir}/${entry.name}`) : entry.name.endsWith('.ts') ? [`${dir}/${entry.name}`] : []));

describe('rooms a newcomer can read', () => {
	it('no source file in nodes/ or credentials/ is 250 lines or more', () => {
		const long = [...sources(`${ROOT}/nodes`), ...sources(`${ROOT}/credentials`)].filter((file) => lines(file) >= 250).map((file) => `${file.slice(ROOT.length + 1)}: ${lines(file)}`);
		expect(long).toEqual([]);
	});

	it('the spending gate is at most 600 lines', () => {
		const files = sources(`${ROOT}/nodes/Intelliprint/spending`);
		const total = files.reduce((sum, file) => sum + lines(file), 0);
		expect(total, files.map((file) => `${file.slice(ROOT.length + 1)}: ${lines(file)}`).join('\n')).toBeLessThanOrEqual(600);
	});
});
