import { sleep } from 'n8n-workflow';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX, startSandbox } from '../fake-api/sandbox';
import type { FakeIntelliprint } from '../fake-api/server';
import { N8nInstance, ROOT } from './n8n';

const secret = `whsec_${Buffer.from('e2e-webhook-signing-key-for-tests').toString('base64')}`;
const PORT = 5691;
// The failure-alert example's trigger: its webhookId fixes the production URL.
const productionUrl = `http://127.0.0.1:${PORT}/webhook/7f3c2a10-5b8e-4d21-9c6a-0e4b1d2f3a55/webhook`;

let fake: FakeIntelliprint;
let n8n: N8nInstance;
beforeAll(async () => {
	fake = await startSandbox();
	n8n = await N8nInstance.create('webhook');
	await n8n.importCredentials([
		{ id: 'ipSandboxCred001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: SANDBOX.apiKey, baseUrl: SANDBOX.apiUrl } },
		{ id: 'ipWebhookCred001', name: 'Intelliprint webhook (sandbox)', type: 'intelliprintWebhookApi', data: { signingSecret: secret } },
	]);
	await n8n.importWorkflows([`${ROOT}/examples/failure-alert.json`]);
	await n8n.publish('ipExampleAlerts1');
	await n8n.start(PORT);
});
afterAll(async () => {
	await n8n?.stop();
	await fake?.stop();
});

async function deliver(event: object, signWith = secret) {
	const body = JSON.stringify(event);
	const id = `msg_${Math.random().toString(36).slice(2)}`;
	const now = new Date();
	const headers = {
		'content-type': 'application/json',
		'webhook-id': id,
		'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
		'webhook-signature': new Webhook(signWith).sign(id, now, body),
	};
	// n8n may answer 404 for a moment after start while it registers production webhooks.
	for (let attempt = 0; ; attempt++) {
		const response = await fetch(productionUrl, { method: 'POST', headers, body });
		if (response.status !== 404 || attempt >= 20) return response.status;
		await sleep(500);
	}
}

async function notificationsAfterSettling(): Promise<unknown[]> {
	await sleep(3000);
	return fake.notifications;
}

describe('Intelliprint Trigger in real n8n (n8n start, production URL)', () => {
	it('a signed event starts exactly one execution, which notifies the team', async () => {
		const status = await deliver({ type: 'letter.updated', id: 'ltr_e2e1', print_id: 'print_e2e', reference: 'Invoices', status: 'returned', returned: { date: 1795300000, reason: 'Addressee gone away' } });
		expect(status).toBe(200);
		const notifications = await notificationsAfterSettling();
		expect(notifications).toEqual([{ text: 'Letter ltr_e2e1 of print job print_e2e (Invoices): returned, reason: Addressee gone away' }]);
	});

	it('a forged event is refused with 401 and starts nothing', async () => {
		const before = fake.notifications.length;
		const forgedSecret = `whsec_${Buffer.from('not-the-endpoint-signing-secret!!').toString('base64')}`;
		expect(await deliver({ type: 'mail.failed', id: 'ltr_forged', print_id: 'print_x' }, forgedSecret)).toBe(401);
		expect((await notificationsAfterSettling()).length).toBe(before);
	});

	it('an event outside the chosen statuses is acknowledged and starts nothing', async () => {
		const before = fake.notifications.length;
		expect(await deliver({ type: 'letter.updated', id: 'ltr_e2e2', print_id: 'print_e2e', status: 'sent' })).toBe(200);
		expect((await notificationsAfterSettling()).length).toBe(before);
	});
});
