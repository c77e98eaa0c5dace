import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { sleep } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DeliveryRecord, digest, hourOf, MAX_SAVED, WINDOW_SECONDS } from '../../../nodes/IntelliprintTrigger/deliveries';
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
const key = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 12);

let server: TriggerServer;
beforeAll(async () => {
	server = await new TriggerServer({ event: '*', verifySignatures: true }, secret).start();
});
afterAll(async () => server.stop());

/** Every id in the trigger's saved record: n8n keeps node static data under "node:<node name>". */
function savedIds(workflowId: string): string[] {
	const record = (server.savedStaticData(workflowId)['node:Node'] as { deliveries?: Record<string, string> } | undefined)?.deliveries ?? {};
	return Object.values(record).flatMap((ids) => ids.match(/.{12}/g) ?? []);
}

const runs = (workflowId: string) => server.answers.filter((a) => a.workflowId === workflowId && a.started).length;

async function sendAll(workflowId: string, ids: string[], concurrency: number): Promise<string[]> {
	const answers: string[] = [];
	for (let at = 0; at < ids.length; at += concurrency) {
		const batch = ids.slice(at, at + concurrency);
		answers.push(...(await Promise.all(batch.map(async (id) => {
			const response = await fetch(server.urlOf(workflowId), { method: 'POST', ...signed(id) });
			return `${response.status} ${await response.text()}`;
		}))));
	}
	await server.idle();
	return answers;
}

describe('Intelliprint Trigger duplicate deliveries', () => {
	it('runs an id once, also after n8n restarts (from the saved static data)', async () => {
		server.host('wf-restart', { event: '*', verifySignatures: true }, secret);
		expect((await server.deliver(signed('msg_r1'), 'wf-restart')).body).toEqual({ received: true });
		expect((await server.deliver(signed('msg_r1'), 'wf-restart')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		await server.restart();
		expect((await server.deliver(signed('msg_r1'), 'wf-restart')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect((await server.deliver(signed('msg_r2'), 'wf-restart')).started).toHaveLength(1);
		expect(runs('wf-restart')).toBe(2);
		expect(savedIds('wf-restart').sort()).toEqual([key('msg_r1'), key('msg_r2')].sort());
		const hours = Object.keys((server.savedStaticData('wf-restart')['node:Node'] as { deliveries: object }).deliveries);
		expect(hours).toEqual([String(hourOf(Date.now() / 1000))]);
	});

	it('answers 500 and remembers nothing when n8n cannot create the run: the retry runs, once', async () => {
		server.host('wf-refused', { event: '*', verifySignatures: true }, secret);
		server.failRuns = true;
		const refused = await server.deliver(signed('msg_locked'), 'wf-refused');
		server.failRuns = false;
		expect(refused.status).toBe(500);
		expect(refused.started).toBeUndefined();
		expect(savedIds('wf-refused')).toEqual([]);
		expect((await server.deliver(signed('msg_locked'), 'wf-refused')).body).toEqual({ received: true });
		expect((await server.deliver(signed('msg_locked'), 'wf-refused')).body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(runs('wf-refused')).toBe(1);
	});

	it('runs the same id arriving several times at once only once', async () => {
		server.host('wf-race', { event: '*', verifySignatures: true }, secret);
		const answers = await sendAll('wf-race', ['msg_race', 'msg_race', 'msg_race'], 3);
		expect(runs('wf-race')).toBe(1);
		expect(answers.filter((answer) => answer === '200 {"received":true}')).toHaveLength(1);
	});

	it('keeps every id accepted at once in the saved record: 50 distinct at concurrency 10, restart, resend: 0 runs', async () => {
		server.host('wf-burst', { event: '*', verifySignatures: true }, secret);
		const ids = Array.from({ length: 50 }, (_, i) => `msg_burst_${i}`);
		expect(new Set(await sendAll('wf-burst', ids, 10))).toEqual(new Set(['200 {"received":true}']));
		expect(savedIds('wf-burst').sort()).toEqual(ids.map(key).sort());
		await server.restart();
		await sendAll('wf-burst', ids, 10);
		expect(runs('wf-burst')).toBe(50);
	});

	it('never loses a delivery whose sender hung up while it waited its turn: its retry runs unless it ran', async () => {
		server.host('wf-gone', { event: '*', verifySignatures: true }, secret);
		const controller = new AbortController();
		const first = fetch(server.urlOf('wf-gone'), { method: 'POST', ...signed('msg_gone_1') });
		const second = fetch(server.urlOf('wf-gone'), { method: 'POST', ...signed('msg_gone_2'), signal: controller.signal }).catch(() => undefined);
		controller.abort();
		await Promise.all([first, second]);
		await sleep(50);
		await server.idle();
		expect(runs('wf-gone')).toBeLessThanOrEqual(2);
		// Whatever became of the second, its retry is not taken for a duplicate unless it ran.
		const retry = await server.deliver(signed('msg_gone_2'), 'wf-gone');
		expect(runs('wf-gone')).toBe(2);
		expect(retry.status).toBe(200);
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
		expect(savedIds('wf-open')).toHaveLength(2);
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
	const hour = hourOf(now);

	it('holds at most MAX_SAVED ids, dropping the oldest first, in about 12 bytes an id', () => {
		const record = new DeliveryRecord();
		for (let i = 0; i < MAX_SAVED + 25; i++) {
			record.add(digest(`msg_${i}`), hour - 2 + Math.floor((3 * i) / (MAX_SAVED + 25)));
			record.prune(hour);
		}
		expect(record.size).toBe(MAX_SAVED);
		expect(record.has(digest('msg_24'))).toBe(false);
		expect(record.has(digest('msg_25'))).toBe(true);
		const saved = record.toSaved();
		expect(JSON.stringify(saved).length).toBeLessThan(MAX_SAVED * 12 + 200);
		const restarted = new DeliveryRecord();
		restarted.absorb(saved, hour);
		expect(restarted.size).toBe(MAX_SAVED);
		expect(restarted.has(digest(`msg_${MAX_SAVED + 24}`))).toBe(true);
	});

	it('keeps every id of the last 24 hours and forgets older ones', () => {
		const record = new DeliveryRecord();
		record.absorb({ [hour - 24]: digest('day_old'), [hour - 25]: digest('too_old'), [hour]: digest('new') }, hour);
		expect([record.has(digest('day_old')), record.has(digest('too_old')), record.has(digest('new'))]).toEqual([true, false, true]);
		record.prune(hour + 1);
		expect(record.has(digest('day_old'))).toBe(false);
		expect(record.has(digest('new'))).toBe(true);
	});

	it('reads the record of earlier versions ({ 16-character digest: expiry })', () => {
		const old = createHash('sha256').update('msg_old_format').digest('base64url').slice(0, 16);
		const record = new DeliveryRecord();
		record.absorb({ [old]: now + WINDOW_SECONDS - 60 }, hour);
		expect(record.has(digest('msg_old_format'))).toBe(true);
	});

	it('saves a pending id with the rest without taking it for accepted', () => {
		const record = new DeliveryRecord();
		record.add(digest('a'), hour);
		const saved = record.toSaved({ key: digest('b'), hour });
		expect(saved).toEqual({ [hour]: digest('a') + digest('b') });
		expect(record.has(digest('b'))).toBe(false);
	});

	it.each([[[1, 2]], ['text'], [null], [{ __proto__x: 1, short: 5, [String(hour)]: 'not-digests!' }]])('ignores a malformed record (%j)', (saved) => {
		const record = new DeliveryRecord();
		record.absorb(saved, hour);
		expect(record.size).toBe(0);
	});

	it('gives one request at a time its turn, in order, and the next goes ahead when one outlives the limit', async () => {
		const record = new DeliveryRecord();
		const order: string[] = [];
		const first = await record.takeTurn(sleep, 60_000);
		const second = record.takeTurn(sleep, 60_000).then((end) => (order.push('second'), end));
		const third = record.takeTurn(sleep, 60_000).then((end) => (order.push('third'), end));
		await sleep(20);
		expect(order).toEqual([]);
		first();
		(await second)();
		(await third)();
		expect(order).toEqual(['second', 'third']);

		const stuck = await record.takeTurn(sleep, 50);
		const next = await record.takeTurn(sleep, 50);
		next();
		stuck();
	});
});
