/** The credentials the queue-mode workflows use, imported once into the cluster. */
export const API_CREDENTIAL = { id: 'ipQueueCred00001', name: 'Intelliprint (queue fake)' };
export const WEBHOOK_CREDENTIAL = { id: 'ipQueueHook00001', name: 'Intelliprint webhook (queue)' };

export const VOLUME = { id: 'ipQueueVolume001', path: 'queue-volume', webhookId: '8e2b4c6d-0f1a-4b3c-9d5e-6f7a8b9c0d1e', credential: API_CREDENTIAL };
/**
 * The same against a busy API, through a second credential: the same key at another spelling of the
 * API's address (127.1), so each worker starts it with a pacer that has learned nothing yet.
 */
export const BUSY_VOLUME = {
	id: 'ipQueueVolume002',
	path: 'queue-volume-busy',
	webhookId: '3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c',
	credential: { id: 'ipQueueCred00002', name: 'Intelliprint (queue fake, busy)' },
};
/**
 * Two letters through the two webhook processors at once (the cluster's smoke test), through a third credential: the
 * same key at a third spelling of the API's address (127.0.1), so the volume runs' pacers learn nothing from it.
 */
export const SMOKE = {
	id: 'ipQueueSmoke0001',
	path: 'queue-smoke',
	webhookId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
	credential: { id: 'ipQueueCred00004', name: 'Intelliprint (queue fake, smoke)' },
};
/** Live letters confirmed under a daily spending limit of £100, on their own fake API (see queueMode.test.ts). */
export const SPENDING = {
	id: 'ipQueueSpend0001',
	path: 'queue-spending',
	webhookId: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
	credential: { id: 'ipQueueCred00003', name: 'Intelliprint (queue fake, £100 a day)' },
};
/** A keyed mail run started twice at once (two workers on one schedule), on its own fake API (see queueMode.test.ts). */
export const MAIL_RUN = {
	id: 'ipQueueMailRun01',
	path: 'queue-mail-run',
	webhookId: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
	credential: { id: 'ipQueueCred00005', name: 'Intelliprint (queue fake, mail runs)' },
};
/** The same in parts of 1,000 letters, for the sheet that changes between runs (see queueMode.test.ts). */
export const MAIL_RUN_PARTS = { ...MAIL_RUN, id: 'ipQueueMailRun02', path: 'queue-mail-run-parts', webhookId: '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a' };
export const DELIVERIES = { id: 'ipQueueHooks0001', webhookId: '0c9d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f' };
export const POLLING = { id: 'ipQueuePolling01' };

const base = (id: string, name: string) => ({ id, name, settings: { executionOrder: 'v1' }, active: false, pinData: {} });

/** Posts each item's `id` to the fake API's file host (`/notify`), where the test counts what ran. */
function notify(url: string) {
	return {
		parameters: { method: 'POST', url, sendBody: true, specifyBody: 'json', jsonBody: '={{ JSON.stringify({ id: $json.id }) }}', options: {} },
		id: 'notify',
		name: 'Notify',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [240, 0],
	};
}
const toNotify = { Trigger: { main: [[{ node: 'Notify', type: 'main', index: 0 }]] } };

/**
 * A mail run as a team starts it from another system: a webhook (answered at once) with the people
 * to write to, split into items, one test-mode letter per item, each job's reference the person's.
 */
export function volumeWorkflow(volume: typeof VOLUME, letter: { testmode: boolean; confirmed: boolean } = { testmode: true, confirmed: false }) {
	return {
		...base(volume.id, `Queue: letters for the posted people (${volume.path})`),
		nodes: [
			{
				parameters: { httpMethod: 'POST', path: volume.path, responseMode: 'onReceived', options: {} },
				id: 'webhook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: volume.webhookId,
			},
			{
				parameters: { fieldToSplitOut: 'body.people', options: {} },
				id: 'split',
				name: 'People',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
			},
			{
				parameters: {
					resource: 'printJob',
					operation: 'create',
					source: 'content',
					content: '<p>Dear {{name}},</p><p>Your statement is enclosed.</p>',
					recipientsFrom: 'eachItem',
					recipientName: '={{ $json.name }}',
					recipientAddress: '={{ $json.address }}',
					recipientPostcode: '={{ $json.postcode }}',
					recipientCountry: '',
					variables: 'chosen',
					variableFields: 'name',
					...letter,
					output: 'printJob',
					simplify: true,
					options: { reference: '={{ $json.reference }}' },
				},
				id: 'letter',
				name: 'Letter',
				type: 'n8n-nodes-intelliprint.intelliprint',
				typeVersion: 1,
				position: [440, 0],
				credentials: { intelliprintApi: volume.credential },
				// A letter a spending limit holds back is an error item; the run goes on to the next.
				onError: 'continueRegularOutput',
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'People', type: 'main', index: 0 }]] },
			People: { main: [[{ node: 'Letter', type: 'main', index: 0 }]] },
		},
	};
}

/** The posted people as one mail run, keyed per person: each person's letter once, however many runs start at once. */
export function mailRunWorkflow(run: typeof MAIL_RUN, lettersPerJob = 10_000) {
	const volume = volumeWorkflow({ ...run, credential: run.credential });
	const letter = volume.nodes[2];
	return {
		...volume,
		...base(run.id, `Queue: one mail run for the posted people (${run.path})`),
		nodes: [
			...volume.nodes.slice(0, 2),
			{
				...letter,
				typeVersion: 1.2,
				parameters: {
					resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}},</p>', recipientsFrom: 'allItems',
					recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: true, output: 'printJob', simplify: true,
					options: { sentKey: '={{ $json.reference }}', rowId: '={{ $json.reference }}', lettersPerJob },
				},
			},
		],
	};
}

/** The people a volume call posts: references `<batch>-<n>`, unique across batches. */
export function people(batch: string, count: number) {
	return Array.from({ length: count }, (_, i) => ({
		reference: `${batch}-${i + 1}`,
		name: `${batch} Customer ${i + 1}`,
		address: `${i + 1} High Street\nLeeds`,
		postcode: 'LS1 4AP',
	}));
}

/** The failure alert as users build it: the webhook trigger on any event, signatures checked. */
export function deliveriesWorkflow(notifyUrl: string) {
	return {
		...base(DELIVERIES.id, 'Queue: mail events'),
		nodes: [
			{
				parameters: { event: '*', letterStatuses: [], verifySignatures: true },
				id: 'trigger',
				name: 'Trigger',
				type: 'n8n-nodes-intelliprint.intelliprintTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: DELIVERIES.webhookId,
				credentials: { intelliprintWebhookApi: WEBHOOK_CREDENTIAL },
			},
			notify(notifyUrl),
		],
		connections: toNotify,
	};
}

/**
 * Returned test letters, asked for four times a minute. n8n refuses a poll time that fires more than once a
 * minute, so the twin of an every-minute trigger has four poll times, each once a minute at its own second (as a
 * user may set them): the restart case waits seconds for each poll, not a minute.
 */
export function pollingWorkflow(notifyUrl: string, credential: { id: string; name: string }) {
	return {
		...base(POLLING.id, 'Queue: returned letters'),
		nodes: [
			{
				parameters: {
					pollTimes: { item: [0, 15, 30, 45].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) },
					statuses: ['returned'],
					testmode: true,
					emitExisting: false,
					simplify: true,
				},
				id: 'trigger',
				name: 'Trigger',
				type: 'n8n-nodes-intelliprint.intelliprintStatusTrigger',
				typeVersion: 1,
				position: [0, 0],
				credentials: { intelliprintApi: credential },
			},
			notify(notifyUrl),
		],
		connections: toNotify,
	};
}
