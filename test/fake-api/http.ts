import type { IncomingMessage, SimpleHandleFunction } from 'connect';
import { randomBytes } from 'node:crypto';

export type { IncomingMessage };
export type ServerResponse = Parameters<SimpleHandleFunction>[1];

/** An error answer in the API's shape. */
export class ApiFailure extends Error {
	constructor(
		readonly status: number,
		readonly type: string,
		readonly code: string,
		message: string,
		readonly param?: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

/** Anything thrown while answering, as the API's answer: its own failures as they are, the rest as a 500. */
export function asFailure(error: unknown): ApiFailure {
	return error instanceof ApiFailure ? error : new ApiFailure(500, 'internal_error', 'internal_error', `Internal error: ${(error as Error).message}`);
}

export const fail = {
	invalid: (code: string, message: string, param?: string) => new ApiFailure(400, 'invalid_request_error', code, message, param),
	notFound: (what: string) => new ApiFailure(404, 'invalid_request_error', 'not_found', `No such resource exists: ${what}`),
};

export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers });
	res.end(text);
}

export function sendFailure(res: ServerResponse, failure: ApiFailure): void {
	write(res, failureReply(failure));
}

/** A whole answer held before it is sent, so that a fault can send it late, in part, or not at all. */
export interface Reply {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
	return { status, headers: { 'content-type': 'application/json', 'request-id': newId('req'), ...headers }, body: Buffer.from(JSON.stringify(value)) };
}

export function failureReply(failure: ApiFailure): Reply {
	const error: Record<string, string> = { message: failure.message, type: failure.type, code: failure.code };
	if (failure.param) error.param = failure.param;
	return jsonReply(failure.status, { error }, failure.headers);
}

export function write(res: ServerResponse, reply: Reply): void {
	res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
	res.end(reply.body);
}

export async function readRaw(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > maxBytes) {
			throw new ApiFailure(413, 'invalid_request_error', 'body_too_large', 'The request body is too large.');
		}
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks);
}

/** The API key from `Authorization: Bearer <key>` or Basic with the key as the user name. */
export function apiKeyOf(req: IncomingMessage): string | undefined {
	const header = req.headers.authorization;
	if (!header) return undefined;
	const [scheme, value = ''] = header.split(' ');
	if (/^bearer$/i.test(scheme)) return value.trim() || undefined;
	if (/^basic$/i.test(scheme)) return Buffer.from(value, 'base64').toString('utf8').split(':')[0] || undefined;
	return undefined;
}

let sequence = 0;
/** Creation order, to list newest first even when several things are created within one second. */
export function nextSequence(): number {
	return ++sequence;
}

/** A request's query as sent, decoded, keys in order: `fields[]=id&fields[]=reference`. */
export function queryText(url: URL): string {
	return [...url.searchParams].map(([key, value]) => `${key}=${value}`).join('&');
}

/** Newest first: by creation time, then by creation order. */
export function newestFirst(a: { created: number; _seq?: number }, b: { created: number; _seq?: number }): number {
	return b.created - a.created || (b._seq ?? 0) - (a._seq ?? 0);
}

/** What clients see of a stored object: fields starting with "_" are the fake's own. */
export function publicView(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value, (key, entry) => (key.startsWith('_') ? undefined : entry)));
}

/** The API's rate limit per key over a sliding window: the 429 to answer, if this request is over it. */
export function overLimit(sentAt: Map<string, number[]>, limit: { requests: number; windowMs: number } | false | undefined, key: string): ApiFailure | undefined {
	if (!limit) return undefined;
	const now = Date.now();
	const log = (sentAt.get(key) ?? []).filter((time) => time > now - limit.windowMs);
	sentAt.set(key, log);
	if (log.length >= limit.requests) {
		const retryAfter = Math.max(1, Math.ceil((log[0] + limit.windowMs - now) / 1000));
		return new ApiFailure(429, 'rate_limited', 'rate_limited', 'Too many requests. Please slow down.', undefined, { 'retry-after': String(retryAfter) });
	}
	log.push(now);
	return undefined;
}
