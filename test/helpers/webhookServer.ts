import express from 'express';
import { WebhookContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters, IWebhookData, IWebhookResponseData, WorkflowExecuteMode } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { vi } from 'vitest';

import { IntelliprintTrigger } from '../../nodes/IntelliprintTrigger/IntelliprintTrigger.node';
import { runFromWebhook, singleNodeWorkflow, testAdditionalData } from './n8n';

type Server = ReturnType<ReturnType<typeof express>['listen']>;
type Request = Parameters<Parameters<ReturnType<typeof express>['post']>[1]>[0];
type Response = Parameters<Parameters<ReturnType<typeof express>['post']>[1]>[1];

/** How one request was answered, seen from n8n's side. */
export interface Answer {
	workflowId: string;
	status: number;
	/** The answer's body: parsed when it is JSON, else the text. */
	body: unknown;
	/** The items of the run it started, if it started one. */
	started?: INodeExecutionData[];
	/** What webhook() threw, if it threw (n8n then answers 500 and saves an error execution). */
	threw?: unknown;
}

interface HostedWorkflow {
	parameters: INodeParameters;
	signingSecret: string;
	/** 'webhook' is the production URL; 'manual' the Test URL, whose static data n8n never saves. */
	mode: WorkflowExecuteMode;
	/** The static data as n8n's database holds it: plain JSON, written after each answer that changed it. */
	saved: IDataObject;
}

const DEFAULT_WORKFLOW = 'wf-1';

/**
 * Serves the Intelliprint Trigger the way n8n's webhook server does (n8n 2.41 and 1.123
 * live-webhooks and webhook-helpers, responseMode "responseNode"): the raw body is read whatever its
 * type, n8n-core's WebhookContext runs the node's webhook() on a workflow loaded with its saved
 * static data. A result without items is answered by the node (or with n8n's defaults); items start
 * a run through n8n-core's WorkflowExecute, and the answer is whatever the run hands back with
 * sendResponse, a Buffer body written as it is. Changed static data is saved right after the answer
 * is written (n8n's responseCallback), its changed mark cleared once the save has landed, and not
 * when n8n could not create the run (`failRuns`: answered 500, as n8n does when its database
 * refuses the execution). Several workflows can be hosted at once, each at
 * /webhook/<workflow id>/webhook with its own static data.
 */
export class TriggerServer {
	/** The items of every workflow run the trigger started. */
	readonly started: INodeExecutionData[][] = [];
	/** Every request's answer, in order. */
	readonly answers: Answer[] = [];
	url = '';
	private base = '';
	private server?: Server;
	private trigger = new IntelliprintTrigger();
	private readonly workflows = new Map<string, HostedWorkflow>();
	private readonly inFlight = new Set<Promise<void>>();
	/** While true, n8n "cannot create" runs: every delivery that would start one is answered 500. */
	failRuns = false;
	/** How long the database takes to save static data (a busy or remote database). */
	saveDelayMs = 0;
	/** While true, every static data save fails: n8n logs it and leaves the data marked changed. */
	failSaves = false;
	/** While true, the node cannot read n8n's changed mark (as on an n8n that keeps it elsewhere). */
	hideChangeMark = false;
	/** The Intelliprint API credential the runs' Add Letter Details reads print jobs with. */
	apiCredentials: Record<string, unknown> = {};

	constructor(parameters: INodeParameters, signingSecret: string) {
		this.host(DEFAULT_WORKFLOW, parameters, signingSecret);
	}

	/** Changes the default workflow's parameters (its saved static data stays). */
	configure(parameters: INodeParameters, signingSecret = this.workflows.get(DEFAULT_WORKFLOW)!.signingSecret): void {
		Object.assign(this.workflows.get(DEFAULT_WORKFLOW)!, { parameters, signingSecret });
	}

	/** Hosts (or reconfigures) a workflow and returns its webhook URL. */
	host(workflowId: string, parameters: INodeParameters, signingSecret: string, mode: WorkflowExecuteMode = 'webhook'): string {
		const saved = this.workflows.get(workflowId)?.saved ?? {};
		this.workflows.set(workflowId, { parameters, signingSecret, mode, saved });
		return this.urlOf(workflowId);
	}

	urlOf(workflowId: string): string {
		return `${this.base}/webhook/${workflowId}/webhook`;
	}

	/** The static data n8n would have in its database for the workflow. */
	savedStaticData(workflowId = DEFAULT_WORKFLOW): IDataObject {
		return this.workflows.get(workflowId)!.saved;
	}

	/** A restarted n8n: the node's modules load afresh (nothing kept in memory), the saved static data stays. */
	async restart(): Promise<void> {
		await this.idle();
		vi.resetModules();
		const fresh = await import('../../nodes/IntelliprintTrigger/IntelliprintTrigger.node');
		this.trigger = new fresh.IntelliprintTrigger();
	}

	/** Waits until every request received so far has been answered and recorded. */
	async idle(): Promise<void> {
		await Promise.all([...this.inFlight]);
	}

	/** Posts a request and returns how it was answered. */
	async deliver(request: { body: string | Buffer; headers: Headers | Record<string, string> }, workflowId = DEFAULT_WORKFLOW): Promise<Answer> {
		const body = typeof request.body === 'string' ? request.body : new Uint8Array(request.body);
		await fetch(this.urlOf(workflowId), { method: 'POST', body, headers: request.headers }).then(async (r) => await r.arrayBuffer());
		await this.idle();
		return this.answers[this.answers.length - 1];
	}

	async start(): Promise<this> {
		const app = express();
		app.post('/webhook/:id/webhook', (req, res) => {
			const handled = this.handle(req, res);
			this.inFlight.add(handled);
			void handled.finally(() => this.inFlight.delete(handled));
		});
		await new Promise<void>((resolve) => {
			this.server = app.listen(0, '127.0.0.1', () => resolve());
		});
		this.base = `http://127.0.0.1:${(this.server!.address() as { port: number }).port}`;
		this.url = this.urlOf(DEFAULT_WORKFLOW);
		return this;
	}

	async stop(): Promise<void> {
		await new Promise((resolve) => this.server?.close(resolve));
	}

	private async handle(req: Request, res: Response): Promise<void> {
		const workflowId = String(req.params.id);
		const hosted = this.workflows.get(workflowId);
		if (!hosted) {
			res.status(404).json({ message: 'not registered' });
			return;
		}
		const raw = await readBody(req);
		Object.assign(req, { rawBody: raw, body: safeJson(raw), readRawBody: async () => {} });
		let sentBody: string | undefined;
		const send = res.send.bind(res);
		res.send = ((body?: unknown) => {
			sentBody = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : JSON.stringify(body);
			return send(body);
		}) as typeof res.send;
		const end = res.end.bind(res) as (chunk?: unknown) => Response;
		res.end = ((chunk?: unknown) => {
			if (Buffer.isBuffer(chunk)) sentBody = chunk.toString('utf8');
			return end(chunk);
		}) as typeof res.end;

		const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprintTrigger', hosted.parameters, structuredClone(hosted.saved));
		workflow.id = workflowId;
		const additionalData = testAdditionalData(this.apiCredentials as never, undefined, { intelliprintWebhookApi: { signingSecret: hosted.signingSecret } });
		Object.assign(additionalData, { httpRequest: req, httpResponse: res });
		const description = this.trigger.description.webhooks![0];
		const webhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: 'webhook',
			workflowId,
			webhookDescription: description,
			workflowExecuteAdditionalData: additionalData,
		} as IWebhookData;
		const context = new WebhookContext(workflow, node, additionalData, hosted.mode, webhookData, [], null);
		const given = this.hideChangeMark ? withoutWorkflow(context) : context;

		// n8n's WorkflowStaticDataService.saveStaticData: the mark is cleared only once the write has landed.
		const saveStaticData = async () => {
			if (hosted.mode !== 'webhook' || workflow.staticData.__dataChanged !== true) return;
			const copy = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
			await sleep(this.saveDelayMs);
			if (this.failSaves) return;
			hosted.saved = copy;
			workflow.staticData.__dataChanged = false;
		};
		const answer: Answer = { workflowId, status: 0, body: undefined };
		let result: IWebhookResponseData | undefined;
		try {
			result = await this.trigger.webhook!.call(given);
		} catch (error) {
			answer.threw = error;
		}
		let save = result !== undefined;
		if (result === undefined) {
			if (!res.headersSent) res.status(500).json({ code: 0, message: 'Workflow Webhook Error: Workflow could not be started!' });
		} else if (result.workflowData === undefined) {
			if (!result.noWebhookResponse && !res.headersSent) res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
		} else if (this.failRuns) {
			save = false;
			res.status(500).json({ code: 0, message: 'There was a problem executing the workflow' });
		} else {
			// Setting up the run re-wraps the static data and clears its changed mark (n8n's ObservableObject.create).
			workflow.staticData.__dataChanged = false;
			let saving: Promise<void> | undefined;
			const run = await runFromWebhook(workflow, node, result.workflowData, additionalData, hosted.mode, (response) => {
				if (res.headersSent) return;
				res.status(response.statusCode ?? 200);
				for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
				if (Buffer.isBuffer(response.body)) res.end(response.body);
				else res.json(response.body);
				saving = saveStaticData();
			});
			await saving;
			answer.started = run.data.resultData.runData[node.name]?.[0]?.data?.main[0] ?? [];
			this.started.push(answer.started);
			// A run that never answered: n8n's responseNode default once it ends.
			if (!res.headersSent) res.status(200).end();
		}
		if (save) await saveStaticData();
		// The node may answer a moment later; n8n would leave a request nobody answers hanging: make that visible.
		for (let waited = 0; !res.headersSent && waited < 10_000; waited += 5) await sleep(5);
		if (!res.headersSent) res.status(504).json({ message: 'The node answered nothing' });
		answer.status = res.statusCode;
		answer.body = safeJson(Buffer.from(sentBody ?? ''), sentBody);
		this.answers.push(answer);
	}
}

/** The context as the node sees it, without n8n-core's `workflow` field (its methods still use it). */
function withoutWorkflow(context: WebhookContext): WebhookContext {
	return new Proxy(context, {
		get(target, name) {
			if (name === 'workflow') return undefined;
			const value: unknown = Reflect.get(target, name);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
		},
	});
}

async function readBody(req: Request): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function safeJson(raw: Buffer, fallback: unknown = {}): IDataObject {
	try {
		return JSON.parse(raw.toString('utf8')) as IDataObject;
	} catch {
		return fallback as IDataObject;
	}
}
