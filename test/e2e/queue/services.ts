import execa from 'execa';
import fs from 'fs-extra';

import { Server } from './processes';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest PostgreSQL server on the machine (Debian keeps each major version in its own folder). */
async function postgresBin(): Promise<string> {
	const versions = (await fs.readdir(PG_ROOT).catch(() => [] as string[])).sort((a, b) => Number(b) - Number(a));
	const found = versions.map((version) => `${PG_ROOT}/${version}/bin`).find((bin) => fs.existsSync(`${bin}/initdb`));
	if (!found) throw new Error(`No PostgreSQL server under ${PG_ROOT}: run test/e2e/queue/install-services.sh`);
	return found;
}

/** initdb and postgres refuse to run as root: as root they run as Debian's `postgres` system user. */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
	if ((await execa('id', ['-u'])).stdout !== '0') return undefined;
	const [uid, gid] = await Promise.all(['-u', '-g'].map(async (flag) => await execa('id', [flag, 'postgres'], { reject: false })));
	if (uid.exitCode !== 0 || gid.exitCode !== 0) {
		throw new Error(
			'Running as root, PostgreSQL needs the `postgres` system user, which the Debian package creates: run test/e2e/queue/install-services.sh',
		);
	}
	return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

/**
 * Where the data goes: `dir`/pgdata, unless the server's user cannot reach `dir` (a checkout under
 * root's private home): then a folder of its own under /tmp.
 */
async function dataFolder(dir: string, user: { uid: number; gid: number } | undefined): Promise<string> {
	if (!user || (await execa('test', ['-x', dir], { reject: false, ...user })).exitCode === 0) return `${dir}/pgdata`;
	return await fs.mkdtemp('/tmp/n8n-queue-pgdata-');
}

/** A throwaway PostgreSQL: a fresh cluster in `dir`, trusting local TCP connections, fsync off; its data is removed when it stops. */
export class Postgres {
	private constructor(
		private readonly bin: string,
		readonly port: number,
		private readonly server: Server,
		readonly data: string,
	) {}

	static async start(dir: string, port: number, database: string): Promise<Postgres> {
		const bin = await postgresBin();
		const user = await serverUser();
		const data = await dataFolder(dir, user);
		await fs.emptyDir(data);
		await fs.chmod(data, 0o700);
		if (user) await fs.chown(data, user.uid, user.gid);
		const env = { PATH: `${bin}:/usr/bin:/bin`, LC_ALL: 'C' };
		const init = await execa(`${bin}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
			env,
			extendEnv: false,
			cwd: data,
			reject: false,
			all: true,
			...user,
		});
		if (init.exitCode !== 0) {
			await fs.remove(data);
			throw new Error(`initdb failed:\n${init.all}`);
		}
		// The socket goes into the data folder: the system's /var/run/postgresql may be missing or another server's.
		const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${data}`, 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
		const server = new Server(
			'postgres',
			`${dir}/logs/postgres.log`,
			`${bin}/postgres`,
			['-D', data, '-p', String(port), ...settings.flatMap((s) => ['-c', s])],
			{ env, cwd: data, user },
		);
		const postgres = new Postgres(bin, port, server, data);
		let ready = false;
		try {
			await server.waitUntil('accepting connections', async () => (await postgres.psql('SELECT 1', 'postgres')).exitCode === 0, 60_000);
			await postgres.exec(`CREATE DATABASE ${database}`, 'postgres');
			ready = true;
		} finally {
			if (!ready) await postgres.stop();
		}
		return postgres;
	}

	private async psql(query: string, database: string) {
		const args = [
			'-h',
			'127.0.0.1',
			'-p',
			String(this.port),
			'-U',
			'postgres',
			'-d',
			database,
			'-X',
			'-q',
			'-A',
			'-t',
			'-v',
			'ON_ERROR_STOP=1',
			'-c',
			query,
		];
		return await execa(`${this.bin}/psql`, args, {
			env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
			extendEnv: false,
			reject: false,
			all: true,
			maxBuffer: 256 * 1024 * 1024,
		});
	}

	/** The rows a query returns, as objects keyed by column name (JSON types: timestamps are ISO strings). */
	async rows<T = Record<string, unknown>>(query: string, database: string): Promise<T[]> {
		const result = await this.psql(`SELECT coalesce(json_agg(q), '[]'::json) FROM (${query}) q`, database);
		if (result.exitCode !== 0) throw new Error(`psql failed on ${query}:\n${result.all}`);
		return JSON.parse(result.stdout) as T[];
	}

	/** Runs a statement that returns nothing. */
	async exec(statement: string, database: string): Promise<void> {
		const result = await this.psql(statement, database);
		if (result.exitCode !== 0) throw new Error(`psql failed on ${statement}:\n${result.all}`);
	}

	/** Fast shutdown (SIGINT): open sessions are ended rather than waited for. */
	async stop(): Promise<void> {
		await this.server.stop('SIGINT');
		await fs.remove(this.data);
	}
}

/** Whether the Redis server on `port` answers PING. */
async function pong(port: number): Promise<boolean> {
	const { stdout } = await execa('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], { reject: false, timeout: 2000 });
	return stdout.trim() === 'PONG';
}

/** A throwaway Redis in the foreground: nothing saved to disk, gone when stopped. */
export class Redis {
	private constructor(
		readonly port: number,
		private readonly server: Server,
	) {}

	static async start(dir: string, port: number): Promise<Redis> {
		const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
		const server = new Server('redis', `${dir}/logs/redis.log`, 'redis-server', args, { env: { PATH: '/usr/local/bin:/usr/bin:/bin' }, cwd: dir });
		const redis = new Redis(port, server);
		let ready = false;
		try {
			await server.waitUntil('PONG', async () => await pong(port), 30_000);
			ready = true;
		} finally {
			if (!ready) await redis.stop();
		}
		return redis;
	}

	async stop(): Promise<void> {
		await this.server.stop('SIGTERM');
	}
}
