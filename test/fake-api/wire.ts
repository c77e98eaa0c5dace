import { simplePdf } from '../helpers/pdfs';
import type { FakeIntelliprint } from './server';

/** Plain-HTTP helpers for the fake's own tests: what a client would see on the wire, nothing interpreted. */
export interface Seen {
	status: number;
	headers: Headers;
	text: string;
}

export interface CallOptions {
	headers?: Record<string, string>;
	body?: BodyInit;
	redirect?: RequestRedirect;
	/** Give up after this many milliseconds (for hangs). */
	timeoutMs?: number;
}

export async function call(fake: FakeIntelliprint, method: string, pathOrUrl: string, options: CallOptions = {}): Promise<Seen> {
	const url = /^https?:/.test(pathOrUrl) ? pathOrUrl : `${fake.url}${pathOrUrl}`;
	const response = await fetch(url, {
		method,
		headers: { authorization: `Bearer ${fake.apiKey}`, ...options.headers },
		body: options.body,
		redirect: options.redirect ?? 'manual',
		signal: options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined,
	});
	return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Resolves with how a call failed (or `undefined` when it did not): the error's name and its cause's code. */
export async function failure(attempt: Promise<unknown>): Promise<{ name: string; code?: string; message: string } | undefined> {
	try {
		await attempt;
		return undefined;
	} catch (error) {
		const { name, message, cause } = error as Error & { cause?: { code?: string } };
		return { name, message, code: cause?.code };
	}
}

let pdf: Buffer | undefined;
export async function printForm(fields: Record<string, string> = {}): Promise<FormData> {
	pdf ??= await simplePdf(2);
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'letters.pdf');
	for (const [key, value] of Object.entries(fields)) form.append(key, value);
	return form;
}

/**
 * The same create as one fixed multipart Buffer. Node's fetch, following a 307/308, serialises a FormData
 * body again with a new boundary but keeps the first Content-Type, so a redirected FormData cannot be parsed.
 */
export async function printMultipart(): Promise<{ body: Buffer; headers: Record<string, string> }> {
	pdf ??= await simplePdf(2);
	const boundary = 'fake-api-test-boundary';
	const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="letters.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
	const body = Buffer.concat([Buffer.from(head), pdf, Buffer.from(`\r\n--${boundary}--\r\n`)]);
	return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Polls (without a global timer) until `check` holds or `ms` pass; returns whether it held. */
export async function eventually(fake: FakeIntelliprint, check: () => boolean, ms = 5000): Promise<boolean> {
	const until = Date.now() + ms;
	while (!check()) {
		if (Date.now() > until) return false;
		await fake.pause(20);
	}
	return true;
}

/** API answers, typed loosely enough to read in assertions. */
export interface Answer {
	id: string;
	object: string;
	error: { code: string; type: string; param?: string; message: string };
	data: Answer[];
	letters: Array<{ id: string; status: string; pdf: string; pages: number; sheets: number; envelope: string; cost: { amount: number }; address: Record<string, string | null> }>;
	[key: string]: unknown;
}

/** A call with a JSON body (plain objects), or a form as it is; answers parsed. */
export async function api(fake: FakeIntelliprint, method: string, path: string, body?: unknown): Promise<{ status: number; body: Answer }> {
	const form = body instanceof FormData || body instanceof URLSearchParams;
	const seen = await call(fake, method, path, {
		body: body === undefined ? undefined : form ? body : JSON.stringify(body),
		headers: body === undefined || form ? {} : { 'content-type': 'application/json' },
	});
	return { status: seen.status, body: JSON.parse(seen.text) as Answer };
}
