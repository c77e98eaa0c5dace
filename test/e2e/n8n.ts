import execa, { type ExecaChildProcess } from 'execa';
import fs from 'fs-extra';
import { sleep } from 'n8n-workflow';
import { randomBytes } from 'node:crypto';

import { node24 } from '../../scripts/node24/index.mjs';
import { atSuitePorts, LINE, type N8nLine } from './line';

export { LINE, parseLine, suitePort, type N8nLine } from './line';

/**
 * The repository root, and where runs keep their files (git-ignored, inside the repo). Decoded, and on Windows
 * without the slash before the drive (/C:/…), as node:url's fileURLToPath would (n8n's lint keeps node:url out).
 */
export const ROOT = decodeURIComponent(new URL('../../', import.meta.url).pathname).replace(/^\/(?=[A-Za-z]:)/, '').replace(/\/$/, '');
const E2E = `${ROOT}/.e2e`;

/**
 * Where a line's n8n instances keep their user folders: one folder per line, because the 2.x and 1.x suites run at
 * the same time and each clears only its own when it starts.
 */
export const runsFolder = (line: N8nLine = LINE) => `${E2E}/runs/n8n${line}`;

/** Where a line's pinned n8n is installed (by test/e2e/install-n8n.sh). */
export const n8nHome = (line: N8nLine = LINE) => `${E2E}/${line === 1 ? 'n8n-1' : 'n8n'}`;
const n8nBin = (line: N8nLine) => `${n8nHome(line)}/node_modules/n8n/bin/n8n`;

/** One output item as n8n's run data holds it. */
export interface RunItem {
	json: Record<string, unknown>;
	binary?: Record<string, { fileName?: string; mimeType: string; fileSize?: string }>;
}

/** One node's run: its outputs, or its error. */
export interface NodeRun {
	data?: { main: RunItem[][] };
	error?: { message: string; description?: string };
}

/** What `n8n execute --rawOutput` prints: the run's data. */
export interface ExecutionResult {
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: { message: string; description?: string; node?: { name: string } };
		};
	};
	status?: string;
}

export interface Credential {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

/**
 * Installs a line's pinned n8n (once) into .e2e/n8n (2.x) or .e2e/n8n-1 (1.x). Where sqlite3's prebuilt binary
 * cannot be downloaded (from GitHub), node-gyp compiles it: on every core (JOBS), not one.
 */
export async function installN8n(line: N8nLine = LINE): Promise<void> {
	await execa('bash', [`${ROOT}/test/e2e/install-n8n.sh`, String(line)], { stdio: 'inherit', env: { JOBS: 'max' } });
}

let tarball: string | undefined;

/** Installs this tarball instead of packing the repo: a bench comparing an earlier build of the package on one run. */
export function usePackage(packed: string): void {
	tarball = packed;
}

/**
 * Packs this package as users get it (npm pack of the built dist), once per process. The suites run at the same
 * time and each test file packs: the tarball is written aside and renamed into place, so a reader never sees a
 * half-written one.
 */
export async function packPackage(): Promise<string> {
	if (tarball) return tarball;
	const aside = `${E2E}/pack-${randomBytes(6).toString('hex')}`;
	await fs.ensureDir(aside);
	const { stdout } = await execa('npm', ['pack', '--pack-destination', aside, '--json', '--ignore-scripts'], { cwd: ROOT });
	const name = (JSON.parse(stdout) as Array<{ filename: string }>)[0].filename;
	await fs.rename(`${aside}/${name}`, `${E2E}/${name}`);
	await fs.remove(aside);
	tarball = `${E2E}/${name}`;
	return tarball;
}

/**
 * One n8n instance: a fresh user folder with this package unpacked into its community nodes folder,
 * driven through n8n's own CLI.
 */
export class N8nInstance {
	readonly userFolder: string;
	private server?: ExecaChildProcess;
	/** Each instance encrypts its credentials with its own throwaway key. */
	private instanceKey = randomBytes(24).toString('hex');
	port = 0;

	private constructor(
		readonly name: string,
		private readonly extraEnv: Record<string, string>,
		folder?: string,
		/** The n8n line this instance runs: the suite's (LINE) unless a caller outside the test files says. */
		readonly line: N8nLine = LINE,
	) {
		this.userFolder = folder ?? `${runsFolder(line)}/${name}-${Date.now()}`;
	}

	/**
	 * A fresh instance under .e2e/runs/n8n<line>, or one kept in `folder` across starts (the package is
	 * reinstalled from the current build every time).
	 */
	static async create(name: string, env: Record<string, string> = {}, folder?: string, line: N8nLine = LINE): Promise<N8nInstance> {
		const instance = new N8nInstance(name, env, folder, line);
		const stored = `${instance.userFolder}/.n8n/encryption-key`;
		if (await fs.pathExists(stored)) instance.instanceKey = (await fs.readFile(stored, 'utf8')).trim();
		else await fs.outputFile(stored, instance.instanceKey);
		const target = `${instance.userFolder}/.n8n/nodes/node_modules/n8n-nodes-intelliprint`;
		await fs.emptyDir(target);
		await execa('tar', ['-xzf', await packPackage(), '-C', target, '--strip-components=1']);
		// n8n writes its editor (about 700 JavaScript files) into the user folder at every start. In the repo, the
		// strict lint config (which ignores only dist) would lint them all, so there they go to one folder per n8n
		// line beside its install, through a link ESLint does not follow. (The editor's REST routes stay on: the
		// tests drive n8n through them.)
		if (instance.userFolder.startsWith(`${ROOT}/`)) {
			const editorFiles = `${n8nHome(line)}/.editor-files`;
			await fs.ensureDir(editorFiles);
			await fs.remove(`${instance.userFolder}/.cache/n8n/public`);
			// A junction on Windows (no administrator rights needed); elsewhere the type is ignored.
			await fs.ensureSymlink(editorFiles, `${instance.userFolder}/.cache/n8n/public`, 'junction');
		}
		await fs.writeJson(`${instance.userFolder}/.n8n/nodes/package.json`, { name: 'installed-nodes', private: true, dependencies: { 'n8n-nodes-intelliprint': `file:${await packPackage()}` } });
		return instance;
	}

	env(extra: Record<string, string> = {}): Record<string, string> {
		return {
			// Node 24 first on PATH (scripts/node24), for anything n8n starts by the name `node`.
			...node24().env,
			HOME: this.userFolder,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: this.instanceKey,
			DB_TYPE: 'sqlite',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			// 1.x has no mcp-registry module and refuses every command when asked to disable it.
			...(this.line === 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_SECURE_COOKIE: 'false',
			// --rawOutput is printed through n8n's logger at info level: anything quieter hides the result.
			N8N_LOG_LEVEL: 'info',
			// Each n8n's task runner broker needs a port of its own: the suite's n8n runs beside the ones tests start,
			// so the range is wide (below Linux's ephemeral ports) to make two alike unlikely.
			N8N_RUNNERS_BROKER_PORT: String(20_000 + Math.floor(Math.random() * 10_000)),
			// Node 24 keeps the compiled n8n modules beside the install: each later start of n8n or its CLI loads faster.
			NODE_COMPILE_CACHE: `${n8nHome(this.line)}/.compile-cache`,
			...this.extraEnv,
			...extra,
		};
	}

	/** Runs an n8n CLI command to its end. */
	async cli(args: string[], extraEnv: Record<string, string> = {}) {
		return await this.cliProcess(args, extraEnv);
	}

	/** Starts an n8n CLI command and hands back the running process (for measuring it). */
	cliProcess(args: string[], extraEnv: Record<string, string> = {}): ExecaChildProcess {
		return execa(node24().node, [n8nBin(this.line), ...args], { env: this.env(extraEnv), extendEnv: false, reject: false, all: true });
	}

	async importCredentials(credentials: Credential[]): Promise<void> {
		const file = `${this.userFolder}/credentials.json`;
		await fs.writeJson(file, credentials);
		const result = await this.cli(['import:credentials', `--input=${file}`]);
		if (result.exitCode !== 0) throw new Error(`import:credentials failed:\n${result.all}`);
	}

	/** Imports workflow JSON files (kept in the repo), the sandbox's address moved to this line's ports. */
	async importWorkflows(files: string[]): Promise<void> {
		const folder = `${this.userFolder}/workflows`;
		await fs.ensureDir(folder);
		for (const file of files) await fs.outputFile(`${folder}/${file.split('/').pop()}`, atSuitePorts(await fs.readFile(file, 'utf8'), this.line));
		const result = await this.cli(['import:workflow', '--separate', `--input=${folder}`]);
		if (result.exitCode !== 0) throw new Error(`import:workflow failed:\n${result.all}`);
	}

	/**
	 * Runs a saved workflow with `n8n execute --id` and returns its run data. (`execute` without
	 * --id exits 0 having run nothing, so the data itself is what a test checks.)
	 */
	async execute(workflowId: string, extraEnv: Record<string, string> = {}): Promise<{ result?: ExecutionResult; exitCode: number; output: string }> {
		const run = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], extraEnv);
		const output = String(run.all ?? '');
		// Log lines come before the JSON, and a failed run's error summary after it.
		const lines = output.split('\n');
		const start = lines.findIndex((line) => line.startsWith('{'));
		const end = lines.lastIndexOf('}');
		let result: ExecutionResult | undefined;
		if (start !== -1 && end > start) {
			try {
				result = JSON.parse(lines.slice(start, end + 1).join('\n')) as ExecutionResult;
			} catch {
				result = undefined;
			}
		}
		return { result, exitCode: run.exitCode ?? -1, output };
	}

	/** Makes a workflow live: 2.x publishes it; 1.x, which has no publishing, activates it. */
	async publish(workflowId: string): Promise<void> {
		const args = this.line === 2 ? ['publish:workflow', `--id=${workflowId}`] : ['update:workflow', `--id=${workflowId}`, '--active=true'];
		const result = await this.cli(args);
		if (result.exitCode !== 0) throw new Error(`${args[0]} failed:\n${result.all}`);
	}

	/** Starts `n8n start` and waits until it is ready; `showOutput` passes n8n's own output through. */
	async start(port: number, extraEnv: Record<string, string> = {}, showOutput = false): Promise<void> {
		this.port = port;
		this.server = execa(node24().node, [n8nBin(this.line), 'start'], {
			env: this.env({ N8N_PORT: String(port), ...extraEnv }), extendEnv: false, reject: false,
			...(showOutput ? { stdio: 'inherit' as const } : { all: true }),
		});
		// The end of n8n's output, to say why when it does not come up.
		let tail = '';
		this.server.all?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-3000)));
		const deadline = Date.now() + 90_000;
		while (Date.now() < deadline) {
			try {
				if ((await fetch(`http://127.0.0.1:${port}/healthz/readiness`)).ok) return;
			} catch {
				// not listening yet
			}
			if (this.server.exitCode !== null) break;
			await sleep(500);
		}
		throw new Error(`n8n did not become ready on port ${port} (exit code ${this.server.exitCode ?? 'none yet'}); its output ended:\n${tail}`);
	}

	/** The process ID of `n8n start`, while it runs (to read its memory). */
	get pid(): number | undefined {
		return this.server?.pid;
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		this.server.kill('SIGTERM');
		await this.server;
		this.server = undefined;
	}

	/** The items a node output in a run, or its error. */
	static node(result: ExecutionResult | undefined, name: string) {
		const task = result?.data.resultData.runData[name]?.[0];
		return { items: task?.data?.main[0] ?? [], error: task?.error };
	}
}
