import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { IDataObject } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { firstDelivery, MAX_SAVED, WINDOW_SECONDS } from '../../../nodes/IntelliprintTrigger/deliveries';
import { TriggerServer } from '../../helpers/webhookServer';

const secret = `whsec_${Buffer.from('intelliprint-dedupe-signing-key!!').toString('base64')}`;
const signer = new Webhook(secret);
const body = '{"type":"mail.failed","id":"ltr_dup"}';

function signed(id: string) {
	const now = new Date();
	return {
		body,
		headers: {
			'content-type': 'application/json', 'webhook-id': id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign(id, now, body),
		},
	};
}

const unsigned = (headers: Record<string, string> = {}) => ({ body, headers: { 'content-type': 'application/json', ...headers } });

/** The record's key for an id, by the rule the saved format documents. */
const digest = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 16);

let server: TriggerServer;
beforeAll(async () => {
	server = await new TriggerServer({ event: '*', verifySignatures: true }, secret).start();
});
afterAll(async () => server.stop());

/** The trigger's saved record: n8n keeps node static data under "node:<node name>". */
const savedRecord = (workflowId: string) => (server.savedStaticData(workflowId)['node:Node'] as { deliveries: Record<string, number> }).deliveries;

const runs = (workflowId: string) => server.answers.filter((a) => a.workflowId === workflowId && a.started).length;

describe('Intelliprint Trigger duplicate deliveries', () => {
	it('runs an id once, also after n8n restarts (from the saved static data)', async () => {
		server.host('wf-restart', { event: '*', verifySignatures: true }, secret);
		expect((await server.deliver(signed('msg_r1'), 'wf-restart')).body).toEqual({ received: true });
		expect((await server.deliver(signed('msg_r1'), 'wf-restart')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		await server.restart();
		expect((await server.deliver(signed('msg_r1'), 'wf-restart')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect((await server.deliver(signed('msg_r2'), 'wf-restart')).started).toHaveLength(1);
		expect(runs('wf-restart')).toBe(2);
		expect(Object.keys(savedRecord('wf-restart')).sort()).toEqual([digest('msg_r1'), digest('msg_r2')].sort());
		for (const expiry of Object.values(savedRecord('wf-restart'))) expect(expiry - Date.now() / 1000).toBeGreaterThan(WINDOW_SECONDS - 60);
	});

	it('runs the same id arriving twice at once only once', async () => {
		server.host('wf-race', { event: '*', verifySignatures: true }, secret);
		await Promise.all([1, 2, 3].map(async () => await fetch(server.urlOf('wf-race'), { method: 'POST', ...signed('msg_race') })));
		await server.idle();
		expect(runs('wf-race')).toBe(1);
	});

	it('keeps production and the Test URL apart', async () => {
		server.host('wf-both', { event: '*', verifySignatures: true }, secret);
		await server.deliver(signed('msg_both'), 'wf-both');
		const saved = structuredClone(server.savedStaticData('wf-both'));
		server.host('wf-both', { event: '*', verifySignatures: true }, secret, 'manual');
		expect((await server.deliver(signed('msg_both'), 'wf-both')).started).toHaveLength(1);
		expect((await server.deliver(signed('msg_both'), 'wf-both')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect((await server.deliver(signed('msg_test_only'), 'wf-both')).started).toHaveLength(1);
		expect(server.savedStaticData('wf-both')).toEqual(saved);
		server.host('wf-both', { event: '*', verifySignatures: true }, secret);
		expect((await server.deliver(signed('msg_test_only'), 'wf-both')).started).toHaveLength(1);
	});

	it('with signatures off, dedupes on a sane header id only', async () => {
		server.host('wf-open', { event: '*', verifySignatures: false }, secret);
		const sane: Array<Record<string, string>> = [{ 'webhook-id': 'msg_open' }, { 'svix-id': 'msg_open_svix' }];
		const notSane: Array<Record<string, string>> = [{}, { 'webhook-id': 'x'.repeat(300) }, { 'webhook-id': 'has space' }];
		for (const headers of sane) {
			expect((await server.deliver(unsigned(headers), 'wf-open')).started).toHaveLength(1);
			expect((await server.deliver(unsigned(headers), 'wf-open')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		}
		for (const headers of notSane) {
			expect((await server.deliver(unsigned(headers), 'wf-open')).started).toHaveLength(1);
			expect((await server.deliver(unsigned(headers), 'wf-open')).started).toHaveLength(1);
		}
		expect(Object.keys(savedRecord('wf-open'))).toHaveLength(2);
	});

	it('with signatures on, dedupes on the verified id whatever its length', async () => {
		server.host('wf-long', { event: '*', verifySignatures: true }, secret);
		const id = `msg_${'y'.repeat(5000)}`;
		expect((await server.deliver(signed(id), 'wf-long')).started).toHaveLength(1);
		expect((await server.deliver(signed(id), 'wf-long')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(JSON.stringify(server.savedStaticData('wf-long')).length).toBeLessThan(100);
	});
});

describe('the saved delivery record', () => {
	const now = 1_800_000_000;

	it('holds at most MAX_SAVED ids, dropping the oldest first', () => {
		// A full record (msg_0 the oldest), then 25 new ids.
		const full = Array.from({ length: MAX_SAVED }, (_, i) => [digest(`msg_${i}`), now + WINDOW_SECONDS - MAX_SAVED + i]);
		const saved: IDataObject = { deliveries: Object.fromEntries(full) };
		for (let i = MAX_SAVED; i < MAX_SAVED + 25; i++) expect(firstDelivery({ trigger: 'bound', saved }, `msg_${i}`, now)).toBe(true);
		const record = saved.deliveries as Record<string, number>;
		expect(Object.keys(record)).toHaveLength(MAX_SAVED);
		expect(record[digest('msg_0')]).toBeUndefined();
		expect(record[digest('msg_24')]).toBeUndefined();
		expect(record[digest('msg_25')]).toBe(now + WINDOW_SECONDS - MAX_SAVED + 25);
		expect(record[digest(`msg_${MAX_SAVED + 24}`)]).toBe(now + WINDOW_SECONDS);
		expect(firstDelivery({ trigger: 'bound-restarted', saved }, 'msg_25', now)).toBe(false);
		expect(JSON.stringify(saved).length).toBeLessThan(MAX_SAVED * 32);
	});

	it('forgets ids after 24 hours', () => {
		const saved: IDataObject = {};
		expect(firstDelivery({ trigger: 'age', saved }, 'msg_old', now)).toBe(true);
		expect(firstDelivery({ trigger: 'age-after-restart', saved }, 'msg_old', now + WINDOW_SECONDS - 1)).toBe(false);
		expect(firstDelivery({ trigger: 'age-after-restart', saved }, 'msg_new', now + WINDOW_SECONDS)).toBe(true);
		expect(Object.keys(saved.deliveries as object)).toEqual([digest('msg_new')]);
		expect(firstDelivery({ trigger: 'age-after-restart-2', saved }, 'msg_old', now + WINDOW_SECONDS + 1)).toBe(true);
	});

	it.each([[[1, 2]], ['text'], [null], [{ __proto__x: 1, short: 5, [digest('a')]: 'soon' }]])('starts afresh from a malformed record (%j)', (deliveries) => {
		const saved: IDataObject = { deliveries };
		expect(firstDelivery({ trigger: `bad-${JSON.stringify(deliveries)}`, saved }, 'a', now)).toBe(true);
		expect(saved.deliveries).toEqual({ [digest('a')]: now + WINDOW_SECONDS });
	});
});
