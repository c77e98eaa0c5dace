import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { intelliprintWebhookSecretTest } from '../../../nodes/IntelliprintTrigger/secretTest';
import { TriggerServer } from '../../helpers/webhookServer';

const secret = `whsec_${Buffer.from('intelliprint-test-signing-key-32b').toString('base64')}`;
const oldSecret = `whsec_${Buffer.from('the-previous-signing-key-rotated!').toString('base64')}`;
const signer = new Webhook(secret);

const failed = { type: 'mail.failed', id: 'ltr_1a2b', print_id: 'print_9z', reference: 'Invoices', status: 'failed_wrong_address', testmode: false };
const returned = { type: 'letter.updated', id: 'ltr_3c4d', print_id: 'print_9z', status: 'returned', returned: { date: 1795300000, reason: 'Addressee gone away' }, testmode: false };
const sent = { ...returned, id: 'ltr_5e6f', status: 'sent', returned: null };

let counter = 0;
/** A delivery as Svix sends it: the exact bytes, signed by the real Standard Webhooks signer. */
function delivery(event: object, options: { family?: 'webhook' | 'svix'; at?: Date; signature?: string; id?: string; body?: string } = {}) {
	const body = options.body ?? JSON.stringify(event, null, 2);
	const id = options.id ?? `msg_${++counter}`;
	const at = options.at ?? new Date();
	const family = options.family ?? 'webhook';
	return {
		body,
		headers: {
			'content-type': 'application/json',
			[`${family}-id`]: id,
			[`${family}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
			[`${family}-signature`]: options.signature ?? signer.sign(id, at, body),
		},
	};
}

let server: TriggerServer;
beforeAll(async () => {
	server = await new TriggerServer({ event: '*', verifySignatures: true }, secret).start();
});
afterAll(async () => server.stop());
beforeEach(() => {
	server.started.length = 0;
	server.configure({ event: '*', verifySignatures: true }, secret);
});

async function post(request: { body: string; headers: Record<string, string> }) {
	const response = await fetch(server.url, { method: 'POST', body: request.body, headers: request.headers });
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('Intelliprint Trigger (webhook)', () => {
	it('starts the workflow with the event as the item, for webhook-* and svix-* header names', async () => {
		expect(await post(delivery(failed))).toEqual({ status: 200, body: { received: true } });
		expect(await post(delivery(returned, { family: 'svix' }))).toEqual({ status: 200, body: { received: true } });
		expect(server.started.map((items) => items.map((i) => i.json))).toEqual([[failed], [returned]]);
	});

	it('accepts any matching signature among several (key rotation)', async () => {
		const request = delivery(failed);
		const at = new Date(Number(request.headers['webhook-timestamp']) * 1000);
		const fromOld = new Webhook(oldSecret).sign(request.headers['webhook-id'], at, request.body);
		request.headers['webhook-signature'] = `${fromOld} ${request.headers['webhook-signature']}`;
		expect((await post(request)).status).toBe(200);
		server.configure({ event: '*', verifySignatures: true }, oldSecret);
		const second = delivery(failed);
		second.headers['webhook-signature'] = `v1,bm90IGl0 ${new Webhook(oldSecret).sign(second.headers['webhook-id'], new Date(Number(second.headers['webhook-timestamp']) * 1000), second.body)}`;
		expect((await post(second)).status).toBe(200);
		expect(server.started).toHaveLength(2);
	});

	it.each([
		['a tampered body', () => ({ ...delivery(failed), body: JSON.stringify({ ...failed, status: 'sent' }, null, 2) })],
		['the wrong secret', () => delivery(failed, { signature: new Webhook(oldSecret).sign('msg_x', new Date(), '{}') })],
		['a stale timestamp', () => delivery(failed, { at: new Date(Date.now() - 10 * 60_000) })],
		['a future timestamp', () => delivery(failed, { at: new Date(Date.now() + 10 * 60_000) })],
		['missing headers', () => ({ body: JSON.stringify(failed), headers: { 'content-type': 'application/json' } })],
		['a re-serialised body', () => {
			const signed = delivery(failed);
			return { ...signed, body: JSON.stringify(JSON.parse(signed.body)) };
		}],
	])('answers 401 and starts nothing for %s', async (_, make) => {
		const { status, body } = await post(make());
		expect(status).toBe(401);
		expect(String(body.error)).toMatch(/^Signature check failed/);
		expect(server.started).toHaveLength(0);
	});

	it('acknowledges events outside the choice with 2xx and starts nothing', async () => {
		server.configure({ event: 'mail.failed', verifySignatures: true });
		const ignored = await post(delivery(returned));
		expect(ignored).toEqual({ status: 200, body: { received: true, ignored: 'event letter.updated' } });
		await post(delivery(failed));
		expect(server.started.map((items) => items[0].json.type)).toEqual(['mail.failed']);
	});

	it('filters letter updates on their status', async () => {
		server.configure({ event: 'letter.updated', letterStatuses: ['returned', 'failed_wrong_address'], verifySignatures: true });
		expect((await post(delivery(sent))).body).toEqual({ received: true, ignored: 'status sent' });
		await post(delivery(returned));
		expect(server.started.map((items) => items[0].json.id)).toEqual([returned.id]);
	});

	it('starts the workflow once for a delivery the sender retries (same webhook-id)', async () => {
		const first = delivery(failed, { id: 'msg_retried' });
		await post(first);
		const retry = delivery(failed, { id: 'msg_retried' });
		expect((await post(retry)).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(server.started).toHaveLength(1);
	});

	it('takes unsigned events only when verification is turned off', async () => {
		const unsigned = { body: JSON.stringify(failed), headers: { 'content-type': 'application/json' } };
		expect((await post(unsigned)).status).toBe(401);
		server.configure({ event: '*', verifySignatures: false });
		expect((await post(unsigned)).status).toBe(200);
		expect(server.started).toHaveLength(1);
	});

	it('warns in the panel when events are not verified', async () => {
		const { IntelliprintTrigger } = await import('../../../nodes/IntelliprintTrigger/IntelliprintTrigger.node');
		const notice = new IntelliprintTrigger().description.properties.find((p) => p.name === 'unverifiedNotice');
		expect(notice?.displayName).toContain('NOT verified');
		expect(notice?.displayOptions?.show).toEqual({ verifySignatures: [false] });
	});

	it('tells how to try the trigger in the words of n8n 2.x', async () => {
		const { IntelliprintTrigger } = await import('../../../nodes/IntelliprintTrigger/IntelliprintTrigger.node');
		const setup = new IntelliprintTrigger().description.properties.find((p) => p.name === 'setupNotice');
		expect(setup?.displayName).toContain('"Test this trigger"');
		expect(setup?.displayName).not.toContain('Listen for test event');
	});

	it("checks the signing secret's form in the credential test", async () => {
		const test = (signingSecret: string) => intelliprintWebhookSecretTest.call({} as never, { id: '1', name: 'x', type: 'intelliprintWebhookApi', data: { signingSecret } });
		expect((await test(secret)).status).toBe('OK');
		expect((await test('abc')).message).toContain('starts with "whsec_"');
		expect((await test('whsec_***')).status).toBe('Error');
	});
});
