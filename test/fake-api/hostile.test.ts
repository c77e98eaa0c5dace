import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint, type Garbage } from './server';
import { call, eventually, failure, printForm, printMultipart } from './wire';

let fake: FakeIntelliprint;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
});
afterAll(async () => fake.stop());
beforeEach(() => {
	fake.calm();
	fake.resetRecording();
});

const created = () => fake.createdPrintJobs().length;
const statuses = () => fake.requests.map((r) => r.status);

describe('a slow API', () => {
	it('waits the global latency on every answer, after the work is done', async () => {
		fake.latencyMs = 150;
		const before = created();
		const started = Date.now();
		const answer = await call(fake, 'POST', '/prints', { body: await printForm() });
		expect(Date.now() - started).toBeGreaterThanOrEqual(150);
		expect(answer.status).toBe(200);
		expect(created()).toBe(before + 1);
	});

	it('as a busy API, takes a burst in one at a time and counts each only then', async () => {
		fake.readEachMs = 100;
		fake.rateLimit = { requests: 3, windowMs: 60_000 };
		try {
			const answered = await Promise.all([1, 2, 3, 4].map(async (n) => (await call(fake, 'POST', '/prints', { body: await printForm({ reference: `burst-${n}` }) })).status));
			expect(answered.sort()).toEqual([200, 200, 200, 429]);
			// In the order the API counted them (the client's own order of answers depends on how busy the host is):
			// the fourth was refused, and it was counted only after three turns of 100 ms had passed.
			const burst = fake.requests.filter((request) => request.method === 'POST').sort((a, b) => a.countedAt! - b.countedAt!);
			expect(burst.map((request) => request.status)).toEqual([200, 200, 200, 429]);
			// (A few ms of slack: timers run on a monotonic clock, Date.now() on the wall clock.)
			expect(burst[3].countedAt! - Math.min(...burst.map((request) => request.at!))).toBeGreaterThanOrEqual(395);
			// Who was refused is recorded, though the API acted on none of it.
			expect(burst[3].body.reference).toMatch(/^burst-/);
		} finally {
			fake.rateLimit = false;
		}
	});

	it("adds a fault's latency to matching requests only", async () => {
		fake.faults.push({ method: 'GET', path: /^\/v1\/prints$/, latencyMs: 200 });
		const started = Date.now();
		expect((await call(fake, 'GET', '/prints')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		expect(fake.faults).toHaveLength(0);
	});

	it('with afterActing false, acts only after the wait: a client that gave up finds nothing yet', async () => {
		fake.faults.push({ method: 'POST', latencyMs: 1500, afterActing: false });
		const before = created();
		const gaveUp = await failure(call(fake, 'POST', '/prints', { body: await printForm(), timeoutMs: 100 }));
		expect(gaveUp?.name).toBe('TimeoutError');
		expect(created()).toBe(before);
		expect(await eventually(fake, () => created() === before + 1)).toBe(true);
	});
});

describe('redirects', () => {
	it('sends a create to the elsewhere host without acting, keeping path and query', async () => {
		fake.faults.push({ method: 'POST', redirect: { status: 307, to: 'elsewhere' } });
		const before = created();
		const answer = await call(fake, 'POST', '/prints?x=1', { body: await printForm() });
		expect(answer.status).toBe(307);
		expect(answer.headers.get('location')).toBe(`${fake.elsewhereUrl}/v1/prints?x=1`);
		expect(created()).toBe(before);
		expect(statuses()).toEqual([307]);
	});

	it('elsewhere records what reaches it and says yes; keyLeaks counts the key in any header', async () => {
		const basic = `Basic ${Buffer.from(`${fake.apiKey}:`).toString('base64')}`;
		const believed = await call(fake, 'POST', `${fake.elsewhereUrl}/v1/prints`, { body: 'abc', headers: { 'content-type': 'text/plain' } });
		expect(believed.status).toBe(200);
		expect(JSON.parse(believed.text)).toEqual({ id: 'print_elsewhere', object: 'print' });
		await call(fake, 'GET', `${fake.elsewhereUrl}/v1/prints/print_1`, { headers: { authorization: basic } });
		await call(fake, 'GET', `${fake.elsewhereUrl}/v1/prints/print_2`, { headers: { authorization: '', 'x-api-key': fake.apiKey } });
		await call(fake, 'GET', `${fake.elsewhereUrl}/v1/prints/print_3`, { headers: { authorization: '' } });
		expect(fake.elsewhere.map((r) => [r.method, r.path, r.bodyBytes])).toEqual([
			['POST', '/v1/prints', 3], ['GET', '/v1/prints/print_1', 0], ['GET', '/v1/prints/print_2', 0], ['GET', '/v1/prints/print_3', 0],
		]);
		expect(fake.elsewhere[0].headers.authorization).toBe(`Bearer ${fake.apiKey}`);
		expect(fake.keyLeaks()).toBe(3);
		expect(JSON.parse((await call(fake, 'GET', `${fake.elsewhereUrl}/v1/prints`)).text)).toMatchObject({ object: 'list', data: [] });
	});

	it('moves to the same host under /v1-moved, which serves the API too', async () => {
		fake.faults.push({ method: 'POST', redirect: { status: 308, to: 'same' } });
		const before = created();
		const { body, headers } = await printMultipart();
		const answer = await call(fake, 'POST', '/prints', { body: new Uint8Array(body), headers, redirect: 'follow' });
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.text)).toMatchObject({ object: 'print' });
		expect(fake.requests.map((r) => [r.path, r.status])).toEqual([['/v1/prints', 308], ['/v1-moved/prints', 200]]);
		expect(created()).toBe(before + 1);
		expect(fake.keyLeaks()).toBe(0);
	});

	it('acts first with afterActing, then redirects (303 as a server would after a POST)', async () => {
		fake.faults.push({ method: 'POST', redirect: { status: 303, to: 'elsewhere' }, afterActing: true });
		const before = created();
		expect((await call(fake, 'POST', '/prints', { body: await printForm() })).status).toBe(303);
		expect(created()).toBe(before + 1);
	});
});

describe('garbage in a 2xx answer', () => {
	const parse = (text: string) => {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return 'unparseable';
		}
	};

	it('creates the job, then answers with each kind of garbage', async () => {
		const expected: Record<Exclude<Garbage, 'notList'>, (text: string, type: string | null) => void> = {
			html: (text, type) => expect([type, text.startsWith('<!DOCTYPE html>')]).toEqual(['text/html; charset=utf-8', true]),
			invalidJson: (text, type) => expect([type, parse(text)]).toEqual(['application/json', 'unparseable']),
			empty: (text) => expect(text).toBe(''),
			noId: (text) => expect(parse(text)).toMatchObject({ object: 'print', letters: expect.any(Array) }),
			wrongObject: (text) => expect(parse(text)).toEqual({ id: 'bg_x', object: 'background' }),
			truncatedJson: (text) => expect([text.startsWith('{"id":"print_'), parse(text)]).toEqual([true, 'unparseable']),
			jsonNull: (text) => expect(parse(text)).toBeNull(),
			jsonArray: (text) => expect(parse(text)).toEqual([]),
		};
		for (const [kind, check] of Object.entries(expected)) {
			fake.faults.push({ method: 'POST', garbage: kind as Garbage, afterActing: true });
			const before = created();
			const answer = await call(fake, 'POST', '/prints', { body: await printForm() });
			expect([kind, answer.status, created()]).toEqual([kind, 200, before + 1]);
			check(answer.text, answer.headers.get('content-type'));
		}
		expect(parse((await call(fake, 'GET', `/prints/${fake.createdPrintJobs().at(-1)!.id}`)).text)).toMatchObject({ object: 'print' });
	});

	it('before acting creates nothing; a status of choice goes with it', async () => {
		fake.faults.push({ method: 'POST', garbage: 'noId', status: 201 });
		const before = created();
		const answer = await call(fake, 'POST', '/prints', { body: await printForm() });
		expect([answer.status, parse(answer.text), created()]).toEqual([201, { object: 'print' }, before]);
		expect(statuses()).toEqual([201]);
	});

	it('gives a list path a list without data (notList), or items without ids (noId)', async () => {
		fake.prints.seed(3);
		fake.faults.push({ method: 'GET', path: /^\/v1\/prints$/, garbage: 'notList' }, { method: 'GET', path: /^\/v1\/prints$/, garbage: 'noId', afterActing: true });
		const notList = parse((await call(fake, 'GET', '/prints')).text) as Record<string, unknown>;
		expect(notList).not.toHaveProperty('data');
		expect(notList).not.toHaveProperty('object');
		const noIds = parse((await call(fake, 'GET', '/prints')).text) as { object: string; data: object[] };
		expect(noIds.object).toBe('list');
		expect(noIds.data.length).toBeGreaterThan(0);
		expect(noIds.data.every((entry) => !('id' in entry))).toBe(true);
	});
});

describe('connections that break', () => {
	it('resets before acting: nothing created, ECONNRESET, status -1', async () => {
		fake.faults.push({ method: 'POST', reset: 'beforeActing' });
		const before = created();
		const broken = await failure(call(fake, 'POST', '/prints', { body: await printForm() }));
		expect(broken?.code).toBe('ECONNRESET');
		expect([created(), statuses()]).toEqual([before, [-1]]);
	});

	it('resets after acting: the job exists, the client saw nothing', async () => {
		fake.faults.push({ method: 'POST', reset: 'afterActing' });
		const before = created();
		expect(await failure(call(fake, 'POST', '/prints', { body: await printForm() }))).toBeDefined();
		expect([created(), statuses()]).toEqual([before + 1, [-1]]);
	});

	it('resets mid-body: status line and headers arrive, the body stops short', async () => {
		fake.faults.push({ method: 'POST', reset: 'midBody' });
		const before = created();
		const response = await fetch(`${fake.url}/prints`, { method: 'POST', headers: { authorization: `Bearer ${fake.apiKey}` }, body: await printForm() });
		expect(response.status).toBe(200);
		expect(Number(response.headers.get('content-length'))).toBeGreaterThan(100);
		expect(await failure(response.text())).toMatchObject({ name: 'TypeError' });
		expect([created(), statuses()]).toEqual([before + 1, [-1]]);
	});

	it('keeps the old drop: a polite close, before or after acting', async () => {
		fake.faults.push({ method: 'GET', drop: true });
		expect((await failure(call(fake, 'GET', '/prints')))?.code).not.toBe('ECONNRESET');
		expect(statuses()).toEqual([-1]);
	});

	it('hangs before or after acting until the client gives up (status 0)', async () => {
		fake.faults.push({ method: 'POST', hang: true }, { method: 'POST', hang: true, afterActing: true });
		const before = created();
		expect((await failure(call(fake, 'POST', '/prints', { body: await printForm(), timeoutMs: 300 })))?.name).toBe('TimeoutError');
		expect(created()).toBe(before);
		expect((await failure(call(fake, 'POST', '/prints', { body: await printForm(), timeoutMs: 300 })))?.name).toBe('TimeoutError');
		expect([created(), statuses()]).toEqual([before + 1, [0, 0]]);
	});

	it('stops promptly with a request hung and a latency wait pending', async () => {
		const other = await startFakeIntelliprint({ rateLimit: false, latencyMs: 60_000 });
		other.faults.push({ method: 'GET', path: /prints$/, hang: true });
		const hung = failure(call(other, 'GET', '/prints'));
		const slow = failure(call(other, 'GET', '/backgrounds'));
		await eventually(other, () => other.requests.length === 2);
		const started = Date.now();
		await other.stop();
		expect(Date.now() - started).toBeLessThan(5000);
		expect(await hung).toBeDefined();
		await slow;
	});
});

describe('status storms', () => {
	it('answers 429 for ever with times Infinity, with Retry-After in seconds, until calmed', async () => {
		fake.faults.push({ method: 'GET', status: 429, retryAfter: 2, times: Infinity });
		for (let i = 0; i < 5; i++) {
			const answer = await call(fake, 'GET', '/prints');
			expect([answer.status, answer.headers.get('retry-after')]).toEqual([429, '2']);
			expect(JSON.parse(answer.text).error).toMatchObject({ type: 'rate_limited', code: 'rate_limited' });
		}
		expect(fake.faults).toHaveLength(1);
		fake.calm();
		expect((await call(fake, 'GET', '/prints')).status).toBe(200);
	});

	it('gives Retry-After as an HTTP-date, or not at all; 503 and 500 too', async () => {
		fake.faults.push(
			{ method: 'GET', status: 503, retryAfter: 'httpDate', retryAfterSeconds: 3 },
			{ method: 'GET', status: 429, retryAfter: 'none' },
			{ method: 'GET', status: 500, retryAfter: 1 },
		);
		const dated = await call(fake, 'GET', '/prints');
		const wait = Date.parse(dated.headers.get('retry-after')!) - Date.now();
		expect(dated.status).toBe(503);
		expect(wait).toBeGreaterThan(2000);
		expect(wait).toBeLessThanOrEqual(4000);
		const bare = await call(fake, 'GET', '/prints');
		expect([bare.status, bare.headers.get('retry-after')]).toEqual([429, null]);
		const server = await call(fake, 'GET', '/prints');
		expect([server.status, server.headers.get('retry-after'), JSON.parse(server.text).error.code]).toEqual([500, '1', 'internal_error']);
	});
});

describe('counting', () => {
	it('createdPrintJobs leaves seeded jobs out and keeps deleted drafts', async () => {
		const before = created();
		fake.prints.seed(2);
		const job = JSON.parse((await call(fake, 'POST', '/prints', { body: await printForm() })).text) as { id: string };
		await call(fake, 'DELETE', `/prints/${job.id}`);
		expect(created()).toBe(before + 1);
		expect(fake.createdPrintJobs().at(-1)!.id).toBe(job.id);
		expect(fake.prints.jobs.has(job.id)).toBe(false);
	});
});
