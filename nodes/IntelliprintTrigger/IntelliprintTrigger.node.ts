import type { IExecuteFunctions, IHookFunctions, INodeExecutionData, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { intelliprintApiTest } from '../Intelliprint/methods/credentialTest';
import { LETTER_STATUSES } from '../Intelliprint/results/letterStatuses';
import { ANY_EVENT } from './event';
import { withLetterDetails } from './letterDetails';
import { handleDelivery } from './receive';
import { intelliprintWebhookSecretTest } from './secretTest';

const EVENTS = [
	{
		name: 'Addresses Validated',
		value: 'mailing_list.addresses_validated',
		description: "A mailing list's address validation finished; the event is passed on whole",
	},
	{ name: 'Any Event', value: ANY_EVENT, description: 'Every event Intelliprint sends' },
	{ name: 'Letter Updated', value: 'letter.updated', description: 'A confirmed letter changed status' },
	{ name: 'Mail Failed', value: 'mail.failed', description: 'A mail item failed to process or deliver' },
];
/** What the canvas shows under the trigger: the event's name, not its wire value. */
/**
 * What an accepted delivery is answered with. As bytes: n8n writes a Buffer body straight to the
 * response (an object body it would hand to its request handler, and end the response empty a tick
 * later, before that handler has written it).
 */
const ACCEPTED = { body: Buffer.from('{"received":true}'), headers: { 'content-type': 'application/json; charset=utf-8' }, statusCode: 200 };

const EVENT_TITLES = Object.fromEntries(EVENTS.map((event) => [event.value, event.name]));

export class IntelliprintTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Intelliprint Trigger',
		name: 'intelliprintTrigger',
		icon: { light: 'file:../Intelliprint/intelliprint.svg', dark: 'file:../Intelliprint/intelliprint.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: `={{ ${JSON.stringify(EVENT_TITLES)}[$parameter["event"]] }}`,
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
			{ name: 'intelliprintApi', required: true, testedBy: 'intelliprintApiTest', displayOptions: { show: { letterDetails: [true] } } },
		],
		// The run answers the delivery (execute() below), not n8n on receipt: see ACCEPTED.
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'responseNode', path: 'webhook' }],
		properties: [
			{
				displayName:
					'In the Intelliprint dashboard, open Webhooks, add an endpoint and paste this node\'s Production URL (shown above under "Webhook URLs"). While building, paste the Test URL instead and click "Test this trigger". Copy the endpoint\'s signing secret (whsec_…) into the credential.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				default: 'mail.failed',
				options: EVENTS,
				description: 'Which events start the workflow; the others are acknowledged and ignored',
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
				displayName: 'Add Letter Details',
				name: 'letterDetails',
				type: 'boolean',
				default: false,
				description:
					"Whether to read each event's print job with an Intelliprint API credential and add the letter's recipient, the job's reference and metadata, and the row the letter came from (Print Job → Create's Options → Row ID): one request per print job",
			},
			{
				displayName: 'Verify Signatures',
				name: 'verifySignatures',
				type: 'boolean',
				default: true,
				description:
					"Whether to accept only events signed with the endpoint's signing secret. Without it anyone who learns this URL can start the workflow.",
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

	methods = { credentialTest: { intelliprintWebhookSecretTest, intelliprintApiTest } };

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
		return await handleDelivery(this);
	}

	/**
	 * The first step of a run that a delivery started: it answers the delivery, and so a 2xx is
	 * sent only from inside a run n8n has created and started. What this relies on, read in n8n's
	 * source (packages/cli webhook-helpers executeWebhook, 2.41 and 1.123):
	 * - With responseMode "responseNode", n8n answers a webhook only when the run hands it a
	 *   response (sendResponse, the way Respond to Webhook does, also from a queue-mode worker), and
	 *   answers 500 when it cannot create or start the run, so the sender retries.
	 * - n8n runs a webhook node's execute() on the webhook's items when the run starts (n8n-core
	 *   WorkflowExecute.runNode), and passes them through when there is none.
	 * - "onReceived" does not do: n8n 1.x answers it before it creates the run (2.x after), so a
	 *   2xx could go out for a run a locked database then refused.
	 * n8n saves the static data (the delivery record) right after it sends this answer.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		await this.sendResponse(ACCEPTED);
		const items = this.getInputData();
		return [this.getNodeParameter('letterDetails', 0, false) ? await withLetterDetails(this, items) : items];
	}
}
