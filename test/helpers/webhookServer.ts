import express from 'express';
import { WebhookContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters, IWebhookData, WorkflowExecuteMode } from 'n8n-workflow';

import { IntelliprintTrigger } from '../../nodes/IntelliprintTrigger/IntelliprintTrigger.node';
import { singleNodeWorkflow, testAdditionalData } from './n8n';

type Server = ReturnType<ReturnType<typeof express>['listen']>;

/**
 * Serves the Intelliprint Trigger the way n8n's webhook server does: Express keeps the raw body
 * (and a parsed one), n8n-core's WebhookContext runs the node's webhook(), and the result decides
 * between the node's own answer, a plain acknowledgement that starts nothing, or a started run.
 */
export class TriggerServer {
	/** The items of every workflow run the trigger started. */
	readonly started: INodeExecutionData[][] = [];
	url = '';
	private server?: Server;

	constructor(
		private parameters: INodeParameters,
		private signingSecret: string,
	) {}

	configure(parameters: INodeParameters, signingSecret = this.signingSecret): void {
		this.parameters = parameters;
		this.signingSecret = signingSecret;
	}

	async start(): Promise<this> {
		const trigger = new IntelliprintTrigger();
		const app = express();
		app.post('/webhook/:id/webhook', express.raw({ type: '*/*' }), async (req, res) => {
			const raw = req.body as Buffer;
			Object.assign(req, { rawBody: raw, body: safeJson(raw) });
			const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprintTrigger', this.parameters);
			const additionalData = testAdditionalData({}, undefined, { intelliprintWebhookApi: { signingSecret: this.signingSecret } });
			Object.assign(additionalData, { httpRequest: req, httpResponse: res });
			const webhookData = {
				httpMethod: 'POST', node: node.name, path: 'webhook', workflowId: workflow.id,
				webhookDescription: trigger.description.webhooks![0], workflowExecuteAdditionalData: additionalData,
			} as IWebhookData;
			const context = new WebhookContext(workflow, node, additionalData, 'webhook' as WorkflowExecuteMode, webhookData, [], null);
			const result = await trigger.webhook.call(context);
			if (result.noWebhookResponse) return;
			if (result.workflowData === undefined) {
				res.status(200).json(result.webhookResponse ?? { message: 'Webhook call received' });
				return;
			}
			this.started.push(result.workflowData[0]);
			res.status(200).json({ message: 'Workflow was started' });
		});
		await new Promise<void>((resolve) => {
			this.server = app.listen(0, '127.0.0.1', () => resolve());
		});
		this.url = `http://127.0.0.1:${(this.server!.address() as { port: number }).port}/webhook/wh-1/webhook`;
		return this;
	}

	async stop(): Promise<void> {
		await new Promise((resolve) => this.server?.close(resolve));
	}
}

function safeJson(raw: Buffer): IDataObject {
	try {
		return JSON.parse(raw.toString('utf8')) as IDataObject;
	} catch {
		return {};
	}
}
