import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { LETTER_STATUSES } from '../Intelliprint/helpers/letterStatuses';
import { firstDelivery } from './deliveries';
import { intelliprintWebhookSecretTest } from './secretTest';
import { verifySignature } from './signature';

type RawRequest = ReturnType<IWebhookFunctions['getRequestObject']> & {
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
};

const ANY_EVENT = '*';

export class IntelliprintTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Intelliprint Trigger',
		name: 'intelliprintTrigger',
		icon: { light: 'file:../Intelliprint/intelliprint.svg', dark: 'file:../Intelliprint/intelliprint.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"]}}',
		description: 'Starts the workflow when Intelliprint sends a mail event (letter updated, mail failed)',
		defaults: { name: 'Intelliprint Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'intelliprintWebhookApi',
				required: true,
				testedBy: 'intelliprintWebhookSecretTest',
				displayOptions: { show: { verifySignatures: [true] } },
			},
		],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName:
					'In the Intelliprint dashboard, open Webhooks, add an endpoint and paste this node\'s Production URL (shown above under "Webhook URLs"). While building, paste the Test URL instead and click "Listen for test event". Copy the endpoint\'s signing secret (whsec_…) into the credential.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				default: 'mail.failed',
				options: [
					{ name: 'Any Event', value: ANY_EVENT, description: 'Every event Intelliprint sends' },
					{ name: 'Letter Updated', value: 'letter.updated', description: 'A confirmed letter changed status' },
					{ name: 'Mail Failed', value: 'mail.failed', description: 'A mail item failed to process or deliver' },
				],
			},
			{
				displayName: 'Letter Statuses',
				name: 'letterStatuses',
				type: 'multiOptions',
				default: [],
				options: LETTER_STATUSES,
				displayOptions: { show: { event: ['letter.updated', ANY_EVENT] } },
				description: 'Only letter updates to one of these statuses start the workflow; leave empty for all',
			},
			{
				displayName: 'Verify Signatures',
				name: 'verifySignatures',
				type: 'boolean',
				default: true,
				description:
					'Whether to accept only events signed with the endpoint\'s signing secret. Without it anyone who learns this URL can start the workflow.',
			},
			{
				displayName:
					'Events are NOT verified: anyone who knows this URL can start the workflow with made-up data. Turn on "Verify Signatures" and add the signing secret.',
				name: 'unverifiedNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { verifySignatures: [false] } },
			},
		],
	};

	methods = { credentialTest: { intelliprintWebhookSecretTest } };

	// Endpoints are registered by hand in the Intelliprint dashboard: there is nothing to create here.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject() as RawRequest;
		const res = this.getResponseObject();
		if (!req.rawBody && req.readRawBody) await req.readRawBody();
		const raw = req.rawBody ?? Buffer.from(JSON.stringify(req.body ?? {}));
		const headers = this.getHeaderData() as Record<string, string>;

		let deliveryId = headers['webhook-id'] ?? headers['svix-id'];
		if (this.getNodeParameter('verifySignatures', true) as boolean) {
			const { signingSecret } = await this.getCredentials<{ signingSecret: string }>('intelliprintWebhookApi');
			const verification = verifySignature(signingSecret, headers, raw);
			if (!verification.valid) {
				res.status(401).json({ error: `Signature check failed: ${verification.reason}` });
				return { noWebhookResponse: true };
			}
			deliveryId = verification.id;
		}

		let event: IDataObject;
		try {
			event = JSON.parse(raw.toString('utf8')) as IDataObject;
		} catch {
			res.status(400).json({ error: 'The body is not JSON' });
			return { noWebhookResponse: true };
		}

		const wanted = this.getNodeParameter('event') as string;
		const type = String(event.type ?? '');
		if (wanted !== ANY_EVENT && type !== wanted) return { webhookResponse: { received: true, ignored: `event ${type}` } };
		const statuses = this.getNodeParameter('letterStatuses', []) as string[];
		const status = String(event.status ?? (event.data as IDataObject | undefined)?.status ?? '');
		if (type === 'letter.updated' && statuses.length && !statuses.includes(status)) {
			return { webhookResponse: { received: true, ignored: `status ${status}` } };
		}
		if (deliveryId && !firstDelivery(`${this.getWorkflow().id}:${this.getNode().id}:${deliveryId}`)) {
			return { webhookResponse: { received: true, ignored: 'duplicate delivery' } };
		}
		return { workflowData: [this.helpers.returnJsonArray([event])] };
	}
}
