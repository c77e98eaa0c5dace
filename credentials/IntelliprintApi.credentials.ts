import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Tested by the nodes that use it (testedBy: intelliprintApiTest, nodes/Intelliprint/methods/credentialTest.ts):
 * n8n prefers a credential's own `test` request over a node's test, and that request reports an
 * unreachable host only as "ECONNREFUSED".
 */
export class IntelliprintApi implements ICredentialType {
	name = 'intelliprintApi';

	displayName = 'Intelliprint API';

	icon = { light: 'file:../nodes/Intelliprint/intelliprint.svg', dark: 'file:../nodes/Intelliprint/intelliprint.dark.svg' } as const;

	documentationUrl = 'https://github.com/intelliprint-community/n8n-nodes-intelliprint#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The API key from the Intelliprint dashboard (Account → API Keys)',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.intelliprint.net/v1',
			placeholder: 'e.g. https://api.intelliprint.net/v1',
			description:
				'Change only to use a sandbox, a proxy or the legacy host (https://api.rnbdata.uk/v1)',
		},
		{
			displayName: 'Requests Allowed',
			name: 'rateLimitRequests',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description:
				'How many requests the API accepts per time window. The node paces itself to stay inside it. Change only if Intelliprint gave your account a different limit.',
		},
		{
			displayName: 'Per (Seconds)',
			name: 'rateLimitWindowSeconds',
			type: 'number',
			typeOptions: { minValue: 0.1, numberPrecision: 1 },
			default: 60,
			description: 'The time window the limit above applies to',
		},
		{
			displayName: 'Answer Timeout (Seconds)',
			name: 'timeoutSeconds',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description:
				'How long to wait for an answer to a read before treating the connection as hung. Creates and updates get twice as long plus time for the upload.',
		},
		{
			displayName: 'Give Up Waiting After (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 120,
			description:
				'How long one item may spend waiting out rate limiting, server faults and hung connections before it fails with a message saying when to try again',
		},
		{
			displayName: 'Daily Spending Limit (GBP)',
			name: 'dailySpendingLimit',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: 0,
			description:
				'The most this key may confirm in live letters per day (UK time), cost after tax. Before confirming, the node reads what the key confirmed today; a job that would go over stays a draft, with an error saying so. 0 means no limit.',
		},
	];

	/**
	 * The key as a bearer token. Written as code, not as the generic `=Bearer {{$credentials.apiKey}}`:
	 * n8n evaluates that expression for every request (its expression engine, about 0.4 ms a time in
	 * n8n 2.x), and a run of thousands of creates pays it on every one.
	 */
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return { ...requestOptions, headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey ?? '')}` } };
	}
}
