import type { IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { LETTER_STATUSES } from '../Intelliprint/helpers/letterStatuses';
import { ANY_EVENT } from './event';
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
		],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName:
					'In the Intelliprint dashboard, open Webhooks, add an endpoint and paste this node\'s Production URL (shown above under "Webhook URLs"). While building, paste the Test URL instead and click "Test this trigger". Copy the endpoint\'s signing secret (whsec_…) into the credential.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName:
					'Each delivery starts the workflow once, also when Intelliprint retries it after a lost answer and in queue mode, where the retry may reach another webhook processor. One case n8n gives no way to close: two copies of one delivery arriving at two webhook processors at the same moment can both start it.',
				name: 'deliveriesNotice',
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
		return await handleDelivery(this);
	}
}
