import fs from 'fs-extra';
import { sleep } from 'n8n-workflow';
import { randomBytes } from 'node:crypto';

import { ENDED_STATUSES } from '../executions';
import { N8nInstance, ROOT, type Credential } from '../n8n';
import { N8nProcess } from './processes';
import { Postgres, Redis } from './services';

export { N8nProcess } from './processes';

const DATABASE = 'n8n';

/**
 * The suite's fixed ports, clear of 5678 and of the 2.x and 1.x suites that `npm test` runs beside
 * this one (the sandbox at 5680/5681 and 5780/5781, their n8n at 5689–5695 and 5789–5795; other
 * n8n instances pick task runner ports above 20000). Index i is the i-th worker or webhook
 * processor. 5943 and 5948–5949 are left for a test's own servers.
 */
export const QUEUE_PORTS = {
	postgres: 5940,
	redis: 5941,
	main: 5942,
	fakeApi: 5944,
	fakeFiles: 5945,
	webhook: (i: number) => (i < 2 ? 5946 + i : 5970 + i),
	workerHealth: (i: number) => 5950 + i,
	/** Task runner brokers: every n8n process must have its own. */
	broker: (process: number) => 5980 + process,
};

/** One execution row, as Postgres has it (timestamps as ISO strings). */
export interface QueueExecution {
	id: number;
	workflowId: string;
	status: string;
	finished: boolean;
	mode: string;
	startedAt: string | null;
	stoppedAt: string | null;
}

/** A value as an SQL string literal. */
const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;

export interface QueueClusterOptions {
	workers?: number;
	webhookProcessors?: number;
	/** Jobs a worker runs at once. 1 makes two executions started together land on different workers. */
	concurrency?: number;
	/** Added to every n8n process's environment (and the CLI's). */
	env?: Record<string, string>;
}

/**
 * n8n in queue mode on this machine: PostgreSQL, Redis, one main, workers and webhook processors.
 * `create` brings up the databases and the n8n folders; import and publish through the CLI, then
 * `start` the n8n processes (n8n reads published workflows when it starts). `stop` ends everything.
 */
export class QueueCluster {
	readonly dir = `${ROOT}/.e2e/queue/run-${Date.now()}`;
	main!: N8nProcess;
	readonly workers: N8nProcess[] = [];
	readonly webhooks: N8nProcess[] = [];
	private postgres?: Postgres;
	private redis?: Redis;

	private constructor() {}

	static async create(options: QueueClusterOptions = {}): Promise<QueueCluster> {
		const cluster = new QueueCluster();
		let prepared = false;
		try {
			await cluster.prepare(options);
			prepared = true;
		} finally {
			if (!prepared) await cluster.stop().catch(() => undefined);
		}
		return cluster;
	}

	private async prepare({ workers = 2, webhookProcessors = 2, concurrency = 1, env = {} }: QueueClusterOptions): Promise<void> {
		await fs.ensureDir(`${this.dir}/logs`);
		this.postgres = await Postgres.start(this.dir, QUEUE_PORTS.postgres, DATABASE);
		this.redis = await Redis.start(this.dir, QUEUE_PORTS.redis);
		const shared = {
			// Credentials are encrypted by whichever process saves them and decrypted by the worker that runs.
			N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(QUEUE_PORTS.postgres),
			DB_POSTGRESDB_DATABASE: DATABASE,
			DB_POSTGRESDB_USER: 'postgres',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(QUEUE_PORTS.redis),
			// n8n 2.x warns that manual runs on main are deprecated in queue mode; offloaded, main needs no task runner either.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '20',
			...env,
		};
		let broker = 0;
		const make = async (name: string, command: string[], readyUrl: string, own: Record<string, string>) => {
			const instanceEnv = { ...shared, N8N_RUNNERS_BROKER_PORT: String(QUEUE_PORTS.broker(broker++)), ...own };
			const instance = await N8nInstance.create(`queue-${name}`, instanceEnv, `${this.dir}/${name}`);
			return new N8nProcess(name, instance, command, readyUrl, `${this.dir}/logs/${name}.log`);
		};
		const mainUrl = `http://127.0.0.1:${QUEUE_PORTS.main}`;
		// Production webhooks only on the webhook processors, as in a scaled deployment behind a load balancer.
		this.main = await make('main', ['start'], `${mainUrl}/healthz/readiness`, {
			N8N_PORT: String(QUEUE_PORTS.main),
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		});
		for (let i = 0; i < workers; i++) {
			const port = QUEUE_PORTS.workerHealth(i);
			// The worker server (health checks) listens on 5678 unless told otherwise.
			const own = {
				N8N_PORT: String(QUEUE_PORTS.main),
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(port),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			};
			this.workers.push(await make(`worker-${i + 1}`, ['worker', `--concurrency=${concurrency}`], `http://127.0.0.1:${port}/healthz/readiness`, own));
		}
		for (let i = 0; i < webhookProcessors; i++) {
			const port = QUEUE_PORTS.webhook(i);
			this.webhooks.push(await make(`webhook-${i + 1}`, ['webhook'], `http://127.0.0.1:${port}/healthz/readiness`, { N8N_PORT: String(port) }));
		}
	}

	/** Main first, alone: it runs the database migrations the others would otherwise race to run. */
	async start(): Promise<void> {
		await this.main.start();
		await Promise.all([...this.workers, ...this.webhooks].map(async (one) => await one.start()));
	}

	async importCredentials(credentials: Credential[]): Promise<void> {
		await this.main.instance.importCredentials(credentials);
	}

	async importWorkflows(files: string[]): Promise<void> {
		await this.main.instance.importWorkflows(files);
	}

	/** Publishes through the CLI: a running main takes it up only when it starts again. */
	async publish(workflowId: string): Promise<void> {
		await this.main.instance.publish(workflowId);
	}

	/** A production webhook URL on webhook processor `index` (0-based). */
	webhookUrl(index: number, path: string): string {
		return `http://127.0.0.1:${QUEUE_PORTS.webhook(index)}/webhook/${path}`;
	}

	/** Calls a production webhook, asking again while n8n still answers 404 (main registers webhooks shortly after it is ready). */
	async callWebhook(index: number, path: string, init: RequestInit = {}, timeoutMs = 20_000): Promise<Response> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const response = await fetch(this.webhookUrl(index, path), init);
			if (response.status !== 404 || Date.now() > deadline) return response;
			await response.arrayBuffer();
			await sleep(250);
		}
	}

	/** The rows of a query on n8n's database. */
	async sql<T = Record<string, unknown>>(query: string): Promise<T[]> {
		if (!this.postgres) throw new Error('PostgreSQL is not running');
		return await this.postgres.rows<T>(query, DATABASE);
	}

	async executions(workflowId: string): Promise<QueueExecution[]> {
		return await this.sql<QueueExecution>(
			`SELECT id, "workflowId", status, finished, mode, "startedAt", "stoppedAt" FROM execution_entity WHERE "workflowId" = ${sqlText(workflowId)} ORDER BY id`,
		);
	}

	/** Waits until at least `count` executions of the workflow have ended (any status), and returns them all. */
	async waitForExecutions(workflowId: string, count: number, timeoutMs = 60_000): Promise<QueueExecution[]> {
		const deadline = Date.now() + timeoutMs;
		let executions: QueueExecution[] = [];
		while (Date.now() < deadline) {
			executions = await this.executions(workflowId);
			if (executions.filter((execution) => ENDED_STATUSES.has(execution.status)).length >= count) return executions;
			await sleep(250);
		}
		const seen = executions.map((execution) => `${execution.id}:${execution.status}`).join(', ');
		throw new Error(
			`${count} ended executions of ${workflowId} not seen within ${timeoutMs / 1000} s; there are: ${seen || 'none'} (logs in ${this.dir}/logs)`,
		);
	}

	/** A workflow's static data (where polling triggers keep their state). */
	async staticData(workflowId: string): Promise<unknown> {
		const [row] = await this.sql<{ staticData: unknown }>(`SELECT "staticData" FROM workflow_entity WHERE id = ${sqlText(workflowId)}`);
		return row?.staticData;
	}

	/** Which worker (0-based) ran an execution, from the line each worker logs when it takes one; undefined if none did. */
	async workerOf(executionId: number | string): Promise<number | undefined> {
		const line = `Worker started execution ${executionId} (job `;
		const logs = await Promise.all(this.workers.map(async (worker) => await worker.log()));
		const index = logs.findIndex((log) => log.includes(line));
		return index === -1 ? undefined : index;
	}

	/** Stops every process it started, n8n first, then Redis and PostgreSQL, and removes the database files (logs stay). */
	async stop(): Promise<void> {
		const failures: unknown[] = [];
		const attempt = async (step: () => Promise<void>) => {
			try {
				await step();
			} catch (error) {
				failures.push(error);
			}
		};
		const n8n = [this.main, ...this.workers, ...this.webhooks].filter((one): one is N8nProcess => one !== undefined);
		await Promise.all(n8n.map(async (one) => await attempt(async () => await one.stop())));
		await attempt(async () => await this.redis?.stop());
		await attempt(async () => await this.postgres?.stop());
		this.postgres = undefined;
		if (failures.length > 0) throw new AggregateError(failures, `stopping the queue cluster: ${failures.length} step(s) failed`);
	}
}
