import fs from 'fs-extra';
import { randomUUID } from 'node:crypto';
import { sleep } from 'n8n-workflow';
import { inject } from 'vitest';

import { atSuitePorts } from './line';
import { N8nInstance, runsFolder, type Credential, type ExecutionResult, type N8nLine } from './n8n';

/** Where a test file finds the suite's running n8n: handed over by the global setup (vitest's provide/inject). */
export interface ServerAddress {
	url: string;
	/** The running n8n's own user folder: its database, for reading saved executions. */
	userFolder: string;
	cookie: string;
	browserId: string;
}

declare module 'vitest' {
	export interface ProvidedContext {
		n8nServer: ServerAddress;
	}
}

/** The suite's running n8n, for the test file `name` (from inside a test file only: it asks vitest's inject). */
export function suiteN8n(name: string): N8nServer {
	return new N8nServer(inject('n8nServer'), name);
}

/**
 * What most test files do once: their credentials and one workflow imported into the suite's n8n, run once with
 * `n8n execute`; a run that did not end well stops the file with n8n's own output.
 */
export async function executeOnce(name: string, credentials: Credential[], workflow: { id: string }): Promise<ExecutionResult | undefined> {
	const n8n = suiteN8n(name);
	await n8n.importCredentials(credentials);
	const file = `${n8n.files}/${workflow.id}.json`;
	await fs.outputJson(file, workflow);
	await n8n.importWorkflows([file]);
	const run = await n8n.execute(workflow.id);
	if (run.exitCode !== 0) throw new Error(`n8n execute ${workflow.id} ended with ${run.exitCode}:\n${run.output}`);
	return run.result;
}

/** A node's main output to the nodes named, as a workflow's connections write it. */
export const mainTo = (names: string[]) => ({ main: [names.map((name) => ({ node: name, type: 'main', index: 0 }))] });

/**
 * Run data as n8n stores it: flatted, a JSON array whose first entry is the value and in which every string
 * inside an object or array is the index of the entry holding it (so shared and circular references survive).
 */
export function parseRunData(text: string): ExecutionResult['data'] {
	const table = JSON.parse(text) as unknown[];
	const built = new Map<number, unknown>();
	const entry = (index: number): unknown => {
		const value = table[index];
		if (typeof value !== 'object' || value === null) return value;
		if (built.has(index)) return built.get(index);
		const out: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {};
		built.set(index, out);
		for (const [key, inner] of Object.entries(value)) out[key] = typeof inner === 'string' ? entry(Number(inner)) : inner;
		return out;
	};
	return entry(0) as ExecutionResult['data'];
}

/** n8n's start nodes, in the order `n8n execute` looks for them (its findCliWorkflowStart). */
const START_TYPES = ['n8n-nodes-base.executeWorkflowTrigger', 'n8n-nodes-base.manualTrigger', '@n8n/n8n-nodes-langchain.manualChatTrigger', 'n8n-nodes-base.start'];

interface WorkflowJson {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; credentials?: Record<string, { id: string; name: string }> }>;
	[key: string]: unknown;
}

/**
 * The suite's one running n8n (`n8n start`), driven over n8n's own REST API as its editor does: credentials
 * and workflows are created, and a workflow is run as the editor's "Execute workflow" button runs it, so a
 * test costs its workflow's own time instead of a boot of n8n. Tests about the process itself (a restart,
 * two processes, a lock) keep their own N8nInstance.
 *
 * n8n gives created credentials and (on 1.x) workflows IDs of its own: the test's IDs are mapped, and the
 * credential references inside each workflow rewritten, so tests keep naming things by their own IDs.
 */
export class N8nServer {
	private readonly credentialIds = new Map<string, string>();
	private readonly workflows = new Map<string, WorkflowJson>();

	/** Where a test file writes its workflow files: a folder of its own. */
	readonly files: string;

	constructor(
		private readonly address: ServerAddress,
		name: string,
	) {
		this.files = `${runsFolder()}/${name}-${Date.now()}`;
	}

	/** The running n8n's user folder (its database). */
	get userFolder(): string {
		return this.address.userFolder;
	}

	get url(): string {
		return this.address.url;
	}

	private imported(workflowId: string): WorkflowJson {
		const workflow = this.workflows.get(workflowId);
		if (!workflow) throw new Error(`workflow ${workflowId} was not imported into this n8n`);
		return workflow;
	}

	/** The ID n8n gave a workflow the test knows by its own ID. */
	idOf(workflowId: string): string {
		return this.imported(workflowId).id;
	}

	/**
	 * Drives an instance a test started itself (a test about the process: a restart, say): its owner account is
	 * made here, so the instance must be fresh and running. The session outlives restarts.
	 */
	static async attach(instance: N8nInstance): Promise<N8nServer> {
		const address = await setUpOwner(`http://127.0.0.1:${instance.port}`);
		return new N8nServer({ ...address, userFolder: instance.userFolder }, instance.name);
	}

	/** Makes a workflow live (its production webhooks listen), as the editor's Publish (2.x) or Active switch (1.x) does. */
	async publish(workflowId: string): Promise<void> {
		const workflow = this.imported(workflowId);
		await this.rest('POST', `/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	}

	/** Starts n8n in a fresh user folder and makes its owner account: what the global setup hands to test files. */
	static async boot(line: N8nLine, port: number, env: Record<string, string> = {}): Promise<{ instance: N8nInstance; address: ServerAddress }> {
		const instance = await N8nInstance.create(`server-n8n${line}`, env, undefined, line);
		await instance.start(port);
		let address: Omit<ServerAddress, 'userFolder'> | undefined;
		try {
			address = await setUpOwner(`http://127.0.0.1:${port}`);
		} finally {
			if (!address) await instance.stop();
		}
		return { instance, address: { ...address, userFolder: instance.userFolder } };
	}

	private async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.address.url}/rest${path}`, {
			method,
			headers: { cookie: this.address.cookie, 'browser-id': this.address.browserId, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`n8n ${method} /rest${path}: HTTP ${response.status} ${text.slice(0, 500)}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	/** Creates credentials; a later credential with the same test ID replaces the mapping (a fresh fake API, say). */
	async importCredentials(credentials: Credential[]): Promise<void> {
		for (const { id, name, type, data } of credentials) {
			const created = await this.rest<{ id: string }>('POST', '/credentials', { name, type, data });
			this.credentialIds.set(id, created.id);
		}
	}

	/** Creates workflows from JSON files (kept in the repo or written by the test), their credentials mapped and the sandbox's address moved to this line's ports. */
	async importWorkflows(files: string[]): Promise<void> {
		for (const file of files) {
			const workflow = JSON.parse(atSuitePorts(await fs.readFile(file, 'utf8'))) as WorkflowJson;
			const nodes = workflow.nodes.map((node) => ({
				...node,
				...(node.credentials
					? { credentials: Object.fromEntries(Object.entries(node.credentials).map(([type, ref]) => [type, { ...ref, id: this.credentialIds.get(ref.id) ?? ref.id }])) }
					: {}),
			}));
			const { id, ...rest } = workflow;
			const created = await this.rest<WorkflowJson>('POST', '/workflows', { ...rest, nodes, active: false });
			this.workflows.set(id, created);
		}
	}

	/**
	 * Runs a workflow from its start node as the editor's "Execute workflow" does, waits for it to end and reads
	 * its run data back: the same shape `N8nInstance.execute` returns (exit code 0 for a run without an error).
	 */
	async execute(workflowId: string, timeoutMs = 280_000): Promise<{ result?: ExecutionResult; exitCode: number; output: string }> {
		const workflow = this.imported(workflowId);
		const start = START_TYPES.map((type) => workflow.nodes.find((node) => node.type === type)).find(Boolean);
		if (!start) throw new Error(`workflow ${workflowId} has no node n8n starts a run from`);
		const started = await this.rest<{ executionId?: string }>('POST', `/workflows/${workflow.id}/run`, { workflowData: workflow, triggerToStartFrom: { name: start.name } });
		if (!started.executionId) throw new Error(`n8n did not start workflow ${workflowId}: ${JSON.stringify(started)}`);
		const deadline = Date.now() + timeoutMs;
		for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
			// A database another test holds locked a moment (sqliteLock.ts) answers 503 "Database is not ready": read again.
			const execution = await this.rest<{ status: string; finished: boolean; data: string }>('GET', `/executions/${started.executionId}`).catch((error: Error) => {
				if (/HTTP 503/.test(error.message) && Date.now() < deadline) return undefined;
				throw error;
			});
			if (!execution) {
				await sleep(wait);
				continue;
			}
			// n8n 1.x can mark a failed run ended a moment before its run data is saved: wait for that too.
			const data = execution.data ? parseRunData(execution.data) : undefined;
			if (!['new', 'running', 'waiting'].includes(execution.status) && data?.resultData) {
				const error = data.resultData.error;
				const output = error ? `${error.message}\n${error.description ?? ''}` : '';
				return { result: { data, status: execution.status }, exitCode: execution.status === 'success' && !error ? 0 : 1, output };
			}
			if (Date.now() > deadline) throw new Error(`workflow ${workflowId} still ${execution.status} after ${timeoutMs} ms`);
			await sleep(wait);
		}
	}
}

/**
 * Makes the owner account of a fresh n8n and signs in as it. n8n 1.x reports ready before its REST routes
 * exist, and a request it takes in that moment can go unanswered: wait for its settings to answer first.
 */
async function setUpOwner(url: string): Promise<Omit<ServerAddress, 'userFolder'>> {
	const deadline = Date.now() + 90_000;
	while ((await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined))?.status !== 200) {
		if (Date.now() > deadline) throw new Error(`n8n at ${url} never answered /rest/settings`);
		await sleep(250);
	}
	const browserId = randomUUID();
	const owner = { email: 'owner@example.com', firstName: 'Test', lastName: 'Owner', password: 'Suite-owner-1' };
	const headers = { 'content-type': 'application/json', 'browser-id': browserId };
	const response = await fetch(`${url}/rest/owner/setup`, { method: 'POST', headers, body: JSON.stringify(owner), signal: AbortSignal.timeout(30_000) });
	const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
	if (!response.ok || !cookie.startsWith('n8n-auth=')) throw new Error(`n8n owner setup failed: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
	return { url, cookie, browserId };
}
