import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from './server';
import { call, failure, printForm } from './wire';

let fake: FakeIntelliprint;
let letterPdf: string;
let pdfBytes: number;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
	const job = JSON.parse((await call(fake, 'POST', '/prints', { body: await printForm() })).text) as { letters: Array<{ pdf: string }> };
	letterPdf = job.letters[0].pdf;
	pdfBytes = Number((await download(letterPdf)).headers.get('content-length'));
});
afterAll(async () => fake.stop());
beforeEach(() => {
	fake.calm();
	fake.resetRecording();
});

/** A download as a careful client makes it: no API key, since the signed URL is the grant. */
const download = (url: string, timeoutMs?: number) => call(fake, 'GET', url, { headers: { authorization: '' }, timeoutMs });
const letters = /^\/letters\//;

describe('file-host faults', () => {
	it('answer a status in storage words, and leave the API alone', async () => {
		fake.faults.push({ host: 'files', path: letters, status: 403 }, { host: 'files', status: 500, retryAfter: 5 });
		expect((await call(fake, 'GET', '/prints')).status).toBe(200);
		const denied = await download(letterPdf);
		expect([denied.status, denied.headers.get('content-type'), denied.text]).toEqual([403, 'application/xml', expect.stringContaining('<Code>AccessDenied</Code>')]);
		const failed = await download(letterPdf);
		expect([failed.status, failed.headers.get('retry-after')]).toEqual([500, '5']);
		expect(fake.fileRequests.map((r) => [r.path, r.status])).toEqual([
			[new URL(letterPdf).pathname, 403],
			[new URL(letterPdf).pathname, 500],
		]);
		expect(fake.requests.filter((r) => r.path.startsWith('files:')).map((r) => r.status)).toEqual([403, 500]);
	});

	it('reset the connection, or cut the PDF short after its headers', async () => {
		fake.faults.push({ host: 'files', path: letters, reset: 'beforeActing' }, { host: 'files', path: letters, reset: 'midBody' });
		expect((await failure(download(letterPdf)))?.code).toBe('ECONNRESET');
		const response = await fetch(letterPdf);
		expect(response.status).toBe(200);
		// The letter PDF is built on each download and its size may vary by a byte or two (dates in it).
		expect(Math.abs(Number(response.headers.get('content-length')) - pdfBytes)).toBeLessThan(64);
		expect(await failure(response.arrayBuffer())).toMatchObject({ name: 'TypeError' });
		expect(fake.fileRequests.map((r) => r.status)).toEqual([-1, -1]);
	});

	it('hang until the client gives up, or answer late', async () => {
		fake.faults.push({ host: 'files', path: letters, hang: true }, { host: 'files', path: letters, latencyMs: 200 });
		expect((await failure(download(letterPdf, 300)))?.name).toBe('TimeoutError');
		const started = Date.now();
		const late = await download(letterPdf);
		expect(Date.now() - started).toBeGreaterThanOrEqual(200);
		expect([late.status, late.text.startsWith('%PDF-')]).toEqual([200, true]);
		expect(fake.fileRequests.map((r) => r.status)).toEqual([0, 200]);
	});

	it('answer a proxy page instead of the PDF', async () => {
		fake.faults.push({ host: 'files', path: letters, garbage: 'html' });
		const page = await download(letterPdf);
		expect([page.status, page.headers.get('content-type'), page.text.startsWith('<!DOCTYPE html>')]).toEqual([200, 'text/html; charset=utf-8', true]);
	});

	it('redirect elsewhere (which answers with something PDF-like) or to /moved on the same host', async () => {
		fake.faults.push({ host: 'files', path: letters, redirect: { status: 302, to: 'elsewhere' } }, { host: 'files', path: letters, redirect: { status: 301, to: 'same' } });
		const url = new URL(letterPdf);
		const away = await download(letterPdf);
		expect([away.status, away.headers.get('location')]).toEqual([302, `${fake.elsewhereUrl}${url.pathname}${url.search}`]);
		expect((await download(away.headers.get('location')!)).text.startsWith('%PDF-')).toBe(true);
		const moved = await download(letterPdf);
		expect(moved.headers.get('location')).toBe(`${fake.fileUrl}/moved${url.pathname}${url.search}`);
		const followed = await download(moved.headers.get('location')!);
		expect([followed.status, followed.headers.get('content-type'), followed.text.startsWith('%PDF-')]).toEqual([200, 'application/pdf', true]);
		expect(fake.keyLeaks()).toBe(0);
	});
});

describe('key leaks to the file host', () => {
	it('count a download that carries the API key', async () => {
		await call(fake, 'GET', letterPdf);
		await download(letterPdf);
		expect(fake.fileRequests).toHaveLength(2);
		expect(fake.keyLeaks()).toBe(1);
	});

	it('are not leaks when the files live on the API host, where faults still reach them', async () => {
		const own = await startFakeIntelliprint({ rateLimit: false, filesOnApiHost: true });
		try {
			const job = JSON.parse((await call(own, 'POST', '/prints', { body: await printForm() })).text) as { letters: Array<{ pdf: string }> };
			own.faults.push({ host: 'files', path: letters, status: 503 });
			expect((await call(own, 'GET', job.letters[0].pdf)).status).toBe(503);
			expect((await call(own, 'GET', job.letters[0].pdf)).status).toBe(200);
			expect(own.requests.filter((r) => r.path.startsWith('/files/')).map((r) => r.status)).toEqual([503, 200]);
			expect([own.fileRequests.length, own.keyLeaks()]).toEqual([0, 0]);
		} finally {
			await own.stop();
		}
	});
});

