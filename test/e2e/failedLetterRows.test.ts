import fs from 'fs-extra';
import { sleep } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX, startSandbox } from '../fake-api/sandbox';
import type { FakeIntelliprint } from '../fake-api/server';
import { N8nServer, suiteN8n } from './server';
import { signedDelivery } from './signedDelivery';

/**
 * A failed letter leads straight back to its row (issue 48), in real n8n: letters made by Print Job → Create with
 * Options → Row ID (one job per item, and a mail run split into parts), then signed events for some of them to an
 * Intelliprint Trigger with Add Letter Details. Each run posts what the trigger handed on to the sandbox's /notify.
 */
const KEY = 'sandbox_key_failed_rows';
const SECRET = `whsec_${Buffer.from('e2e-failed-letter-rows-signing-k').toString('base64')}`;
const WEBHOOK_ID = '2d9e7c41-6a3b-4f18-9e25-b7c0d4a1f863';
const credentials = { intelliprintApi: { id: 'ipSandboxCred001', name: 'Intelliprint sandbox' } };

const node = (name: string, type: string, typeVersion: number, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const rowsCode = (tag: string, count: number) =>
	`return Array.from({ length: ${count} }, (_, i) => ({ json: { invoiceId: '${tag}-' + (i + 1), name: '${tag} Customer ' + (i + 1), address: (i + 1) + ' Mill Lane\\nYork', postcode: 'YO1 7HH' } }));`;
function creator(id: string, tag: string, count: number, create: object) {
	return {
		id, name: id, settings: { executionOrder: 'v1' }, active: false, pinData: {},
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
			node('Rows', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: rowsCode(tag, count) }),
			node('Create', 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, 0], {
				resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', variables: 'none', testmode: true,
				recipientFields: { mappingMode: 'autoMapInputData', value: null }, ...create,
			}, { credentials }),
		],
		connections: { Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } },
	};
}
/** Rows → a mailing list made from them (their fields as its recipients' variables) → a print job to that list. */
function toList(id: string) {
	const made = creator(id, 'Member', 2, { recipientsFrom: 'mailingList', source: 'content', mailingList: { __rl: true, mode: 'id', value: '={{ $json.id }}' } });
	const list = node('List', 'n8n-nodes-intelliprint.intelliprint', 1.2, [400, 200], {
		resource: 'mailingList', operation: 'create', name: 'Members', addRecipients: true, recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'all',
	}, { credentials });
	return {
		...made,
		nodes: [...made.nodes, list],
		connections: { Start: made.connections.Start, Rows: { main: [[{ node: 'List', type: 'main', index: 0 }]] }, List: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } },
	};
}
const alert = {
	id: 'ipRowsAlert00001', name: 'ipRowsAlert00001', settings: { executionOrder: 'v1' }, active: false, pinData: {},
	nodes: [
		node('Trigger', 'n8n-nodes-intelliprint.intelliprintTrigger', 1, [0, 0], { event: '*', letterDetails: true, verifySignatures: true }, {
			webhookId: WEBHOOK_ID,
			credentials: { ...credentials, intelliprintWebhookApi: { id: 'ipRowsHookCred01', name: 'Intelliprint webhook (rows)' } },
		}),
		node('Notify', 'n8n-nodes-base.httpRequest', 4.2, [240, 0], {
			method: 'POST', url: 'http://127.0.0.1:5681/notify', sendBody: true, specifyBody: 'json', options: {},
			jsonBody: "={{ JSON.stringify({ event: $json.id, row: $json.row === undefined ? null : $json.row, row_id: $json.row_id === undefined ? null : $json.row_id, name: $json.recipient ? $json.recipient.name : null, reference: $json.print_reference === undefined ? null : $json.print_reference, invoice: $json.recipient_variables ? $json.recipient_variables.invoiceId : null, note: $json.details_note || $json.row_note || null }) }}",
		}),
	],
	connections: { Trigger: { main: [[{ node: 'Notify', type: 'main', index: 0 }]] } },
};

let fake: FakeIntelliprint;
let n8n: N8nServer;
beforeAll(async () => {
	fake = await startSandbox(undefined, KEY);
	n8n = suiteN8n('failed-letter-rows');
	await n8n.importCredentials([
		{ id: 'ipSandboxCred001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: KEY, baseUrl: SANDBOX.apiUrl } },
		{ id: 'ipRowsHookCred01', name: 'Intelliprint webhook (rows)', type: 'intelliprintWebhookApi', data: { signingSecret: SECRET } },
	]);
	const workflows = [
		creator('ipRowsPerItem001', 'Item', 3, { recipientsFrom: 'eachItem', options: { rowId: '={{ $json.invoiceId }}', sentKey: '={{ $json.invoiceId }}' } }),
		creator('ipRowsParts00001', 'Part', 5, { recipientsFrom: 'allItems', options: { rowId: '={{ $json.invoiceId }}', lettersPerJob: 2 } }),
		toList('ipRowsToList0001'),
		alert,
	];
	const files = await Promise.all(workflows.map(async (workflow) => {
		const file = `${n8n.files}/${workflow.id}.json`;
		await fs.outputJson(file, workflow);
		return file;
	}));
	await n8n.importWorkflows(files);
	await n8n.publish(alert.id);
	for (const id of ['ipRowsPerItem001', 'ipRowsParts00001', 'ipRowsToList0001']) expect((await n8n.execute(id)).exitCode).toBe(0);
});
afterAll(async () => {
	await fake?.stop();
});

/** Delivers a signed event to the trigger and returns what its run posted. */
async function handedOn(event: object): Promise<Record<string, unknown>> {
	const before = fake.notifications.length;
	const { body, headers } = signedDelivery(SECRET, `msg_${Math.random().toString(36).slice(2)}`, event);
	for (let attempt = 0; ; attempt++) {
		const response = await fetch(`${n8n.url}/webhook/${WEBHOOK_ID}/webhook`, { method: 'POST', headers, body });
		if (response.status === 200) break;
		if (response.status !== 404 || attempt >= 20) throw new Error(`delivery answered ${response.status}`);
		await sleep(500);
	}
	for (let waited = 0; fake.notifications.length === before && waited < 30_000; waited += 200) await sleep(200);
	return fake.notifications[before] as Record<string, unknown>;
}
const jobOf = (name: string) => fake.prints.created.find((job) => job.letters.some((letter) => letter.address.name === name))!;

describe('a failed letter leads straight back to its row (real n8n)', () => {
	it('one job per item: a mail.failed for the second item names its row, invoice and customer', async () => {
		const job = jobOf('Item Customer 2');
		expect(await handedOn({ type: 'mail.failed', id: job.letters[0].id, print_id: job.id, status: 'failed_wrong_address' })).toEqual({
			event: job.letters[0].id, row: 2, row_id: 'Item-2', name: 'Item Customer 2', reference: 'Item-2', invoice: null, note: null,
		});
	});

	it('a mail run split into parts: a returned letter of the second part names the fourth row', async () => {
		const job = jobOf('Part Customer 4');
		expect(job.letters.map((letter) => letter.address.name)).toEqual(['Part Customer 3', 'Part Customer 4']);
		const event = { type: 'letter.updated', id: job.letters[1].id, print_id: job.id, status: 'returned', returned: { date: 1795300000, reason: 'Gone away' } };
		expect(await handedOn(event)).toMatchObject({ event: job.letters[1].id, row: 4, row_id: 'Part-4', name: 'Part Customer 4', note: null });
	});

	it("a mailing list's letter: its recipient on the list, whose variables hold the row's own fields", async () => {
		const job = jobOf('Member Customer 2');
		expect(await handedOn({ type: 'mail.failed', id: job.letters.find((letter) => letter.address.name === 'Member Customer 2')!.id, print_id: job.id })).toMatchObject({
			name: 'Member Customer 2', invoice: 'Member-2', row: null, note: "A mailing list's letter: its recipient on the list stands for the row.",
		});
	});

	it('a print job that cannot be read: the workflow still starts with the event, saying why the rest is missing', async () => {
		const posted = await handedOn({ type: 'mail.failed', id: 'ltr_unknown', print_id: 'print_unknown' });
		expect(posted).toMatchObject({ event: 'ltr_unknown', row: null, name: null });
		expect(String(posted.note)).toMatch(/^Print job print_unknown could not be read, so only the event is here: /);
	});
});
