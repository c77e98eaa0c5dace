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
	const error: Record<string, string> = { message: failure.message, type: failure.type, code: failure.code };
	if (failure.param) error.param = failure.param;
	send(res, failure.status, { error }, failure.headers);
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

/** Newest first: by creation time, then by creation order. */
export function newestFirst(a: { created: number; _seq?: number }, b: { created: number; _seq?: number }): number {
	return b.created - a.created || (b._seq ?? 0) - (a._seq ?? 0);
}

/** What clients see of a stored object: fields starting with "_" are the fake's own. */
export function publicView(value: unknown): unknown {
	return JSON.parse(JSON.stringify(value, (key, entry) => (key.startsWith('_') ? undefined : entry)));
}
