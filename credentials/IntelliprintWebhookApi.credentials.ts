import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/** The signing secret Intelliprint's webhook delivery (Svix) signs events with, one per endpoint. */
export class IntelliprintWebhookApi implements ICredentialType {
	name = 'intelliprintWebhookApi';

	displayName = 'Intelliprint Webhook API';

	icon = { light: 'file:../nodes/Intelliprint/intelliprint.svg', dark: 'file:../nodes/Intelliprint/intelliprint.dark.svg' } as const;

	documentationUrl = 'https://github.com/intelliprint-community/n8n-nodes-intelliprint#webhook-trigger-setup';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
			description:
				"The endpoint's signing secret from the Intelliprint dashboard (Webhooks → your endpoint → Signing Secret). It starts with whsec_.",
		},
	];
}
