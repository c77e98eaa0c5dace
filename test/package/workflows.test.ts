import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}

interface Job {
	permissions?: Record<string, string>;
	strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown[]> };
	steps: Step[];
}

interface Workflow {
	on: Record<string, { tags?: string[]; branches?: string[] } | null>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

const packageJson = fs.readJsonSync(`${ROOT}package.json`) as {
	version: string;
	scripts: Record<string, string>;
	devDependencies: Record<string, string>;
};

/** A workflow file parsed strictly: a YAML error or warning (a duplicate key, say) fails the test. */
function workflow(file: string): Workflow {
	const document = parseDocument(fs.readFileSync(`${ROOT}.github/workflows/${file}`, 'utf8'), { uniqueKeys: true });
	expect(document.errors.map((e) => e.message)).toEqual([]);
	expect(document.warnings.map((w) => w.message)).toEqual([]);
	return document.toJS() as Workflow;
}

/** Every shell line the workflow's steps run, job by job, in order. */
function commands(job: Job): string[] {
	return job.steps.flatMap((step) =>
		(step.run ?? '')
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean),
	);
}

/** GitHub's filter pattern for tags: `*` matches anything but `/`. */
function tagFilter(pattern: string): RegExp {
	return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
}

const ci = workflow('ci.yml');
const publish = workflow('publish.yml');
const allJobs = [...Object.values(ci.jobs), ...Object.values(publish.jobs)];

describe('GitHub Actions workflows', () => {
	it('CI runs on pushes to main and on pull requests', () => {
		expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
		expect(ci.on.push?.branches).toContain('main');
	});

	it('CI lints, builds, type-checks and runs the unit tests, and runs the end-to-end suite after a build', () => {
		const run = Object.values(ci.jobs).flatMap(commands);
		for (const script of ['lint', 'build', 'typecheck', 'test:unit', 'test:e2e']) expect(run).toContain(`npm run ${script}`);
		const e2e = Object.values(ci.jobs).find((job) => commands(job).includes('npm run test:e2e'))!;
		expect(commands(e2e).indexOf('npm run build')).toBeGreaterThanOrEqual(0);
		expect(commands(e2e).indexOf('npm run build')).toBeLessThan(commands(e2e).indexOf('npm run test:e2e'));
	});

	it('CI runs the end-to-end suite on both n8n release lines, as `npm test` does: a matrix over 2 and 1 handed over as N8N_LINE', () => {
		const e2e = Object.values(ci.jobs).find((job) => commands(job).includes('npm run test:e2e'))!;
		expect((e2e.strategy?.matrix?.['n8n-line'] ?? []).map(String).sort()).toEqual(['1', '2']);
		expect(e2e.strategy?.['fail-fast']).toBe(false);
		const run = e2e.steps.find((step) => step.run?.trim() === 'npm run test:e2e');
		expect(run?.env?.N8N_LINE).toBe('${{ matrix.n8n-line }}');
		// Each line's downloads are cached under their own key, renewed when a pin changes.
		const key = String(e2e.steps.find((step) => step.uses?.startsWith('actions/cache@'))?.with?.key);
		expect(key).toContain('${{ matrix.n8n-line }}');
		for (const folder of ['n8n', 'n8n-1']) expect(key).toContain(`test/e2e/${folder}/package-lock.json`);
		// The cached folder is the one test/e2e/install-n8n.sh downloads into (its default cache, on a runner).
		const install = fs.readFileSync(`${ROOT}test/e2e/install-n8n.sh`, 'utf8');
		expect(install).toContain('cache="${N8N_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-intelliprint}"');
		expect(install).toContain('export npm_config_cache="$cache/npm-cache"');
		for (const job of Object.values(ci.jobs).filter((job) => commands(job).some((command) => command.startsWith('npm run test:e2e'))))
			expect(job.steps.find((step) => step.uses?.startsWith('actions/cache@'))?.with?.path).toBe('~/.cache/n8n-nodes-intelliprint/npm-cache');
		// Each line is pinned with a lockfile: 2.x in test/e2e/n8n, 1.x in test/e2e/n8n-1.
		for (const [folder, major] of [
			['n8n', '2'],
			['n8n-1', '1'],
		]) {
			const pin = fs.readJsonSync(`${ROOT}test/e2e/${folder}/package.json`) as { dependencies: { n8n: string } };
			expect(pin.dependencies.n8n).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
			const lock = fs.readJsonSync(`${ROOT}test/e2e/${folder}/package-lock.json`) as { packages: Record<string, { version?: string }> };
			expect(lock.packages['node_modules/n8n']?.version).toBe(pin.dependencies.n8n);
		}
		// Locally, and in .ci/run, `npm test` runs every phase: the checks, then the suites in lanes side by side
		// (unit then queue mode; 2.x; 1.x).
		expect(packageJson.scripts.test).toBe('node scripts/test-all.mjs');
		const phases = [...fs.readFileSync(`${ROOT}scripts/test-all.mjs`, 'utf8').matchAll(/'(npm run [\w:]+)'/g)].map((match) => match[1]);
		expect(phases).toEqual(['npm run build', 'npm run lint', 'npm run typecheck', 'npm run test:unit', 'npm run test:e2e:queue', 'npm run test:e2e', 'npm run test:e2e:n8n1']);
		expect(packageJson.scripts['test:e2e:n8n1']).toBe(`N8N_LINE=1 ${packageJson.scripts['test:e2e']}`);
	});

	it('CI runs the queue-mode suite after a build, as `npm test` does', () => {
		const queue = Object.values(ci.jobs).find((job) => commands(job).includes('npm run test:e2e:queue'))!;
		expect(queue).toBeDefined();
		expect(commands(queue).indexOf('npm run build')).toBeGreaterThanOrEqual(0);
		expect(commands(queue).indexOf('npm run build')).toBeLessThan(commands(queue).indexOf('npm run test:e2e:queue'));
		expect(packageJson.scripts['test:e2e:queue']).toBe('vitest run --config vitest.queue.config.mts');
	});

	it('publish runs only on version tags, vX.Y.Z as `npm version` makes them', () => {
		expect(Object.keys(publish.on)).toEqual(['push']);
		expect(publish.on.push?.branches).toBeUndefined();
		const tags = publish.on.push?.tags ?? [];
		expect(tags).toEqual(['v*.*.*']);
		const matches = (tag: string) => tags.some((pattern) => tagFilter(pattern).test(tag));
		expect(matches(`v${packageJson.version}`)).toBe(true);
		expect(matches('v1.12.0')).toBe(true);
		expect(matches('latest')).toBe(false);
		expect(matches('release/v1.0.0')).toBe(false);
	});

	it('publish may mint an OIDC token (id-token: write) and only read the repository', () => {
		const [job] = Object.values(publish.jobs);
		expect(Object.keys(publish.jobs)).toHaveLength(1);
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
		expect(publish.permissions ?? {}).toEqual({});
	});

	it('publish publishes with an npm provenance statement, authenticated by Trusted Publishing or NPM_TOKEN', () => {
		const [job] = Object.values(publish.jobs);
		const step = job.steps.find((s) => /\bnpm (publish|run release)\b/.test(s.run ?? ''));
		expect(step, 'a step that publishes').toBeDefined();
		const direct = /\bnpm publish\b.*--provenance/.test(step!.run!);
		// `npm run release` is n8n-node release, which in GitHub Actions lints, builds and runs npm publish.
		const viaRelease = /\bnpm run release\b/.test(step!.run!) && packageJson.scripts.release === 'n8n-node release';
		expect(direct || (viaRelease && String(step!.env?.NPM_CONFIG_PROVENANCE) === 'true')).toBe(true);
		expect(JSON.stringify(step!.env)).toContain('secrets.NPM_TOKEN');
		const setupNode = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
		expect(setupNode?.with?.['registry-url']).toBe('https://registry.npmjs.org');
	});

	it('publish refuses a tag that is not the version in package.json', () => {
		const [job] = Object.values(publish.jobs);
		const check = job.steps.find((s) => s.run?.includes('GITHUB_REF_NAME'));
		expect(check?.run).toMatch(/require\('\.\/package\.json'\)\.version/);
		expect(check?.run).toMatch(/"\$GITHUB_REF_NAME" != "v\$version"/);
		expect(check?.run).toMatch(/exit 1/);
	});

	it('every job installs as .ci/run does, on the Node major this repository pins', () => {
		const pinnedMajor = (fs.readJsonSync(`${ROOT}scripts/node24/package.json`) as { version: string }).version.split('.')[0];
		for (const job of allJobs) {
			const setupNode = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
			expect(String(setupNode?.with?.['node-version'])).toBe(pinnedMajor);
			expect(commands(job)).toContain('npm install --no-audit --no-fund');
			expect(commands(job).some((line) => /\bnpm ci\b/.test(line))).toBe(false);
		}
	});

	it('every `npm run` in the workflows names a script of package.json', () => {
		const scripts = allJobs.flatMap(commands).flatMap((line) => [...line.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1]));
		expect(scripts.length).toBeGreaterThan(0);
		for (const script of scripts) expect(Object.keys(packageJson.scripts)).toContain(script);
	});
});

describe('npm run dev on Windows, macOS and Linux', () => {
	it('is a plain `tsx scripts/dev.mjs`: no shell words, which cmd.exe (npm\'s script shell on Windows) lacks', () => {
		// It was `exec tsx scripts/dev.mjs`, so that on Linux tsx replaced npm's `sh -c`; cmd.exe has no `exec`, and
		// fails the script there. Without it, sh stays between npm and tsx: scripts/dev.mjs watches that shell too
		// (a SIGTERM npm passes on kills it) and npm above it, and stops n8n and the sandbox when one is gone, while
		// the shell that started `npm run dev` may exit. Ctrl-C reaches every process of the command from the terminal.
		expect(packageJson.scripts.dev).toBe('tsx scripts/dev.mjs');
		const dev = fs.readFileSync(`${ROOT}scripts/dev.mjs`, 'utf8');
		for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(dev).toContain(`process.on('${signal}'`);
		expect(dev).toContain('async function commandProcesses()');
	});
});
