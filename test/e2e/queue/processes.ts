import execa, { type ExecaChildProcess } from 'execa';
import fs from 'fs-extra';
import { sleep } from 'n8n-workflow';

import { node24 } from '../../../scripts/node24/index.mjs';
import { n8nHome, ROOT, type N8nInstance } from '../n8n';

const N8N = `${n8nHome(2)}/node_modules/n8n/bin/n8n`;

/**
 * One file per running server, named by its process group, holding its command and the test
 * process that started it: servers outliving a crashed test process are found and ended by the
 * global teardown or the next run.
 */
const PIDS = `${ROOT}/.e2e/queue-pids`;
/** This process's id (from /proc: this code may not touch `process`). */
const SELF = fs.readlinkSync('/proc/self');

interface PidFile {
	command: string;
	owner: string;
}

/** Signals a whole process group (the `kill` command, for the same reason). */
async function signalGroup(pid: number, signal: string): Promise<boolean> {
	return (await execa('kill', ['-s', signal, '--', `-${pid}`], { reject: false })).exitCode === 0;
}

const cmdline = async (pid: string) => await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');

/**
 * Ends the servers whose test process is gone (each pid checked to still be that server first):
 * SIGINT, which PostgreSQL takes as a fast shutdown that also frees its shared memory, then SIGKILL
 * for what is still there after 10 s. Returns the pids of servers whose test process still runs
 * (another run of the suite), which are left alone.
 */
export async function killLeftovers(): Promise<string[]> {
	const alive = async (pid: string, { command }: PidFile) => command !== '' && (await cmdline(pid)).includes(command);
	const left: Array<[string, PidFile]> = [];
	const busy: string[] = [];
	for (const pid of await fs.readdir(PIDS).catch(() => [] as string[])) {
		const file = (await fs.readJson(`${PIDS}/${pid}`).catch(() => ({ command: '', owner: '' }))) as PidFile;
		if (!(await alive(pid, file))) await fs.remove(`${PIDS}/${pid}`);
		else if (file.owner !== '' && (await cmdline(file.owner)) !== '') busy.push(pid);
		else left.push([pid, file]);
	}
	for (const [pid] of left) await signalGroup(Number(pid), 'SIGINT');
	for (let wait = 0; wait < 100; wait++) {
		const still = await Promise.all(left.map(async ([pid, file]) => await alive(pid, file)));
		if (!still.includes(true)) break;
		await sleep(100);
	}
	for (const [pid, file] of left) {
		if (await alive(pid, file)) await signalGroup(Number(pid), 'SIGKILL');
		await fs.remove(`${PIDS}/${pid}`);
	}
	return busy;
}

export interface ServerOptions {
	env: Record<string, string>;
	cwd?: string;
	/** Run as this user (PostgreSQL refuses to run as root). */
	user?: { uid: number; gid: number };
}

/**
 * A long-running server started in its own process group, its output going straight into a log
 * file. The group matters: n8n starts task runners and PostgreSQL its backends, and stopping
 * signals the whole group, so nothing outlives a stop.
 */
export class Server {
	private readonly child: ExecaChildProcess;

	constructor(
		readonly name: string,
		readonly logFile: string,
		command: string,
		args: string[],
		options: ServerOptions,
	) {
		fs.ensureFileSync(logFile);
		const out = fs.openSync(logFile, 'a');
		try {
			this.child = execa(command, args, {
				env: options.env,
				extendEnv: false,
				cwd: options.cwd,
				reject: false,
				detached: true,
				stdio: ['ignore', out, out],
				...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
			});
		} finally {
			fs.closeSync(out);
		}
		if (this.child.pid !== undefined) fs.outputJsonSync(`${PIDS}/${this.child.pid}`, { command, owner: SELF } satisfies PidFile);
	}

	get exited(): boolean {
		return this.child.exitCode !== null || this.child.signalCode !== null;
	}

	/**
	 * Stops the server with `signal` and waits for it; if it is still there after `graceMs` it is
	 * killed. Whatever is left of its group afterwards (a child it did not wait for) goes too.
	 */
	async stop(signal = 'SIGTERM', graceMs = 20_000): Promise<void> {
		const pid = this.child.pid;
		if (pid === undefined) return;
		if (!this.exited) {
			await signalGroup(pid, signal);
			const deadline = Date.now() + graceMs;
			while (!this.exited && Date.now() < deadline) await sleep(100);
			if (!this.exited) await signalGroup(pid, 'SIGKILL');
			await this.child;
		}
		await signalGroup(pid, 'SIGKILL');
		await fs.remove(`${PIDS}/${pid}`);
	}

	/** The end of the log, for error messages. */
	async tail(lines = 40): Promise<string> {
		const text = await fs.readFile(this.logFile, 'utf8').catch(() => '');
		return text.split('\n').slice(-lines).join('\n');
	}

	/** Waits until `ready()` holds, failing early (with the log's end) when the server exits first. */
	async waitUntil(what: string, ready: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (await ready().catch(() => false)) return;
			if (this.exited) throw new Error(`${this.name} exited (code ${this.child.exitCode}) before ${what}; its log ends:\n${await this.tail()}`);
			await sleep(250);
		}
		throw new Error(`${this.name}: no ${what} within ${timeoutMs / 1000} s; its log ends:\n${await this.tail()}`);
	}

	/** Waits until `url` answers 2xx. */
	async waitForHttp(url: string, timeoutMs?: number): Promise<void> {
		await this.waitUntil(`an answer from ${url}`, async () => (await fetch(url)).ok, timeoutMs);
	}
}

/** One n8n process: its own user folder with the packed package installed, its own log (kept across restarts). */
export class N8nProcess {
	private server?: Server;

	constructor(
		readonly name: string,
		readonly instance: N8nInstance,
		private readonly command: string[],
		private readonly readyUrl: string,
		readonly logFile: string,
	) {}

	async start(): Promise<void> {
		if (this.server && !this.server.exited) throw new Error(`${this.name} is already running`);
		this.server = new Server(this.name, this.logFile, node24().node, [N8N, ...this.command], { env: this.instance.env(), cwd: this.instance.userFolder });
		await this.server.waitForHttp(this.readyUrl, 120_000);
	}

	/** SIGTERM, as an orchestrator stops n8n: it finishes what it runs first (N8N_GRACEFUL_SHUTDOWN_TIMEOUT). */
	async stop(): Promise<void> {
		await this.server?.stop('SIGTERM', 40_000);
		this.server = undefined;
	}

	get running(): boolean {
		return this.server !== undefined && !this.server.exited;
	}

	async log(): Promise<string> {
		return await fs.readFile(this.logFile, 'utf8').catch(() => '');
	}
}
