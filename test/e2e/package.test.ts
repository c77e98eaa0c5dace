import execa from 'execa';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { LINE, packPackage, ROOT } from './n8n';

/**
 * What `npm pack` ships is what users download: only what n8n loads (compiled code, its types and
 * source maps, icons, codex files), the README and the licence. Build leftovers such as the
 * TypeScript build info and the README's screenshots stay out.
 */
// The tarball is the same whatever n8n loads it: checked once, on the 2.x run.
describe.skipIf(LINE === 1)('the packed package', () => {
	it('holds what n8n loads and nothing else', async () => {
		const tarball = await packPackage();
		const { stdout } = await execa('tar', ['-tzf', tarball]);
		const files = stdout.split('\n').filter(Boolean).map((file) => file.replace(/^package\//, ''));
		const manifest = (await fs.readJson(`${ROOT}/package.json`)) as { main: string; n8n: { nodes: string[]; credentials: string[] } };
		for (const loaded of [...manifest.n8n.nodes, ...manifest.n8n.credentials, manifest.main, 'package.json', 'README.md', 'LICENSE.md']) {
			expect(files).toContain(loaded);
		}
		expect(files).toEqual(expect.arrayContaining(['dist/nodes/Intelliprint/intelliprint.svg', 'dist/nodes/Intelliprint/intelliprint.dark.svg', 'dist/nodes/Intelliprint/Intelliprint.node.json']));
		// dist/package.json is the build's own copy of the manifest.
		const unexpected = files.filter((file) => !/^(package\.json|README\.md|LICENSE\.md|index\.js|dist\/package\.json|dist\/.+\.(js|d\.ts|js\.map|svg|node\.json))$/.test(file));
		expect(unexpected).toEqual([]);
		expect((await fs.stat(tarball)).size).toBeLessThan(150_000);
	});
});
