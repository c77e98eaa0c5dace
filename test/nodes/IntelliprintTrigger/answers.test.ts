import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_NESTING } from '../../../nodes/IntelliprintTrigger/event';
import { TriggerServer } from '../../helpers/webhookServer';

const secret = `whsec_${Buffer.from('intelliprint-answers-signing-key!').toString('base64')}`;
const signer = new Webhook(secret);

let counter = 0;
/** A delivery signed by the real Standard Webhooks signer (bytes: signed here, by its rule). */
function signed(body: string | Buffer, options: { id?: string; signature?: (valid: string) => string } = {}) {
	const id = options.id ?? `msg_answers_${++counter}`;
	const timestamp = String(Math.floor(Date.now() / 1000));
	const valid = typeof body === 'string'
		? signer.sign(id, new Date(Number(timestamp) * 1000), body)
		: `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
	const signature = options.signature ? options.signature(valid) : valid;
	return { body, valid, headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } };
}

let server: TriggerServer;
let anyEvent: string;
let mailFailed: string;
let lettersReturned: string;
beforeAll(async () => {
	server = await new TriggerServer({ event: '*', verifySignatures: true }, secret).start();
	anyEvent = 'wf-any';
	mailFailed = 'wf-failed';
	lettersReturned = 'wf-returned';
	server.host(anyEvent, { event: '*', verifySignatures: true }, secret);
	server.host(mailFailed, { event: 'mail.failed', verifySignatures: true }, secret);
	server.host(lettersReturned, { event: 'letter.updated', letterStatuses: ['returned'], verifySignatures: true }, secret);
});
afterAll(async () => server.stop());

const deliver = async (body: string, workflow = anyEvent, options?: Parameters<typeof signed>[1]) =>
	await server.deliver(signed(body, options), workflow);

describe('Intelliprint Trigger answers', () => {
	it.each([
		['null', 'null'],
		['a number', '42'],
		['a string', '"mail.failed"'],
		['true', 'true'],
		['an array', '[{"type":"mail.failed"}]'],
		['an empty object', '{}'],
		['an object without type', '{"id":"ltr_1"}'],
		['an empty type', '{"type":""}'],
		['a numeric type', '{"type":7}'],
		['a type whose toString is not a function', '{"type":{"toString":1}}'],
		['a type whose valueOf is not a function', '{"type":{"valueOf":1}}'],
		['a type inside an array', '{"type":[{"toString":1}]}'],
		['an empty body', ''],
		['text that is not JSON', 'hello'],
		['JSON after a byte order mark', '\ufeff{"type":"mail.failed"}'],
		['JSON nested too deep', `{"type":"mail.failed","x":${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}}`],
	])('refuses %s with a short 400 JSON answer, starting nothing and throwing nothing', async (_, body) => {
		const answer = await deliver(body);
		expect(answer).toMatchObject({ status: 400, body: { error: expect.any(String) } });
		expect(answer.threw).toBeUndefined();
		expect(answer.started).toBeUndefined();
	});

	it('refuses a body that is not UTF-8 with 400, even when validly signed', async () => {
		const body = Buffer.concat([Buffer.from('{"type":"mail.failed","x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
		const answer = await server.deliver(signed(body), anyEvent);
		expect(answer).toMatchObject({ status: 400, body: { error: 'The body is not UTF-8 text' } });
		expect(answer.started).toBeUndefined();
	});

	it('answers an accepted delivery with short JSON, never the text firstEntryJson', async () => {
		const answer = await deliver('{"type":"mail.failed","id":"ltr_ok"}');
		expect(answer).toMatchObject({ status: 200, body: { received: true } });
		expect(answer.started?.map((item) => item.json)).toEqual([{ type: 'mail.failed', id: 'ltr_ok' }]);
	});

	it('hands the event over whole as the item json, whatever keys it has', async () => {
		const event = { type: 'mail.failed', json: { a: 1 }, binary: { data: 'x' }, constructor: 1, toString: 1, valueOf: { x: 1 }, status: { toString: 1 } };
		const body = `{"__proto__":{"polluted":true},${JSON.stringify(event).slice(1)}`;
		const answer = await deliver(body);
		expect(answer.status).toBe(200);
		expect(answer.started).toHaveLength(1);
		expect(answer.started![0].json).toStrictEqual(JSON.parse(body));
		expect(Object.keys(answer.started![0].json)).toContain('__proto__');
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it('runs well-formed events whose status is not a string, unless a status filter needs one', async () => {
		const body = (status: string) => `{"type":"letter.updated","id":"ltr_s","status":${status}}`;
		expect((await deliver(body('{"toString":1}'))).started).toHaveLength(1);
		expect((await deliver(body('[{"valueOf":1}]'))).started).toHaveLength(1);
		expect((await deliver(body('{"toString":1}'), lettersReturned)).body).toEqual({ received: true, ignored: 'no letter status' });
		const nested = await deliver('{"type":"letter.updated","status":{"toString":1},"data":{"status":"returned"}}', lettersReturned);
		expect(nested.started).toHaveLength(1);
		expect((await deliver('{"type":"letter.updated","status":"returned"}', lettersReturned)).started).toHaveLength(1);
	});

	it('filters on the exact type string', async () => {
		expect((await deliver('{"type":["mail.failed"]}', mailFailed)).status).toBe(400);
		expect((await deliver('{"type":"mail.failed "}', mailFailed)).body).toEqual({ received: true, ignored: 'event mail.failed ' });
		const long = await deliver(JSON.stringify({ type: 'x'.repeat(100_000) }), mailFailed);
		expect(JSON.stringify(long.body).length).toBeLessThan(200);
	});

	it.each([
		['trailing junk', (valid: string) => `${valid}AA`],
		['a trailing =junk', (valid: string) => `${valid}=junk`],
		['no padding', (valid: string) => valid.replace(/=+$/, '')],
		['base64url', (valid: string) => valid.replace(/\+/g, '-').replace(/\//g, '_')],
		['a v2 prefix', (valid: string) => valid.replace('v1,', 'v2,')],
		['an extra comma part', (valid: string) => `${valid},x`],
		['an empty signature', () => ''],
	])('refuses a signature with %s (401)', async (_, signature) => {
		// base64url changes only signatures holding + or /: sign again (a new id) until it changes one.
		let request = signed('{"type":"mail.failed"}', { signature });
		while (request.headers['webhook-signature'] === request.valid) request = signed('{"type":"mail.failed"}', { signature });
		const answer = await server.deliver(request, anyEvent);
		expect(answer).toMatchObject({ status: 401, body: { error: expect.stringMatching(/^Signature check failed/) } });
	});

	it('answers 500 without throwing when the signing secret is unusable (the operator must fix it)', async () => {
		server.host('wf-nosecret', { event: '*', verifySignatures: true }, '');
		const answer = await deliver('{"type":"mail.failed"}', 'wf-nosecret');
		expect(answer).toMatchObject({ status: 500, body: { error: expect.stringContaining('signing secret') } });
		expect(answer.threw).toBeUndefined();
		expect(answer.started).toBeUndefined();
	});
});
