import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ListAnswer } from '../../nodes/Intelliprint/transport';

/**
 * The HTTP side of `npm run check:api` (checkAccount.ts): the account's API as global fetch reaches it, with the
 * key as a Bearer token, every request counted. Reads and deletes answered 429 are sent again after the wait the
 * answer asks for; a create or an update never is (the API has no idempotency key).
 */

/** An answer as it came: status, parsed body (or the text when it is not JSON), and the headers the check reads. */
export interface Answer {
	status: number;
	body: unknown;
	requestId?: string;
	retryAfter?: string;
}

/** A list answer with its envelope checked (a ListAnswer, as the contract's checks take it). */
export interface ListPage extends ListAnswer {
	data: IDataObject[];
}

/** An answer that is not what a step needed, in words that name the request. */
export class UnexpectedAnswer extends Error {
	constructor(
		readonly what: string,
		readonly answer: Answer,
		why = `HTTP ${answer.status}`,
	) {
		super(`${what} answered ${why}: ${describeBody(answer.body)}${answer.requestId ? ` (request-id ${answer.requestId})` : ''}`);
		this.name = 'UnexpectedAnswer';
	}
}

/** The API's error message when the body carries one, else a short sample of the body. */
export function describeBody(body: unknown): string {
	const error = (body as { error?: { message?: unknown } } | null)?.error;
	if (typeof error?.message === 'string') return error.message;
	const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
	return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** The query as the node sends it: arrays as `fields[]=a&fields[]=b`, in the order given. */
export function queryText(qs: IDataObject = {}): string {
	const params = new URLSearchParams();
	for (const [key, value] of Object.entries(qs)) {
		if (value === undefined) continue;
		for (const one of Array.isArray(value) ? value : [value]) params.append(Array.isArray(value) ? `${key}[]` : key, String(one));
	}
	const text = params.toString().replace(/%5B%5D=/g, '[]=');
	return text ? `?${text}` : '';
}

/** A list request in words a table can wrap: `GET /prints (testmode=true, fields[]=id,created, limit=1)`. */
export function listRequest(path: string, qs: IDataObject): string {
	const parts = Object.entries(qs)
		.filter(([, value]) => value !== undefined)
		.map(([key, value]) => (Array.isArray(value) ? `${key}[]=${value.join(',')}` : `${key}=${String(value)}`));
	return `GET ${path}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

const MAX_RETRIES = 5;
const MAX_WAIT_MS = 60_000;

/** How long a 429 asks to wait: `Retry-After` in seconds or as an HTTP date, else 2 s. */
function retryWaitMs(header: string | undefined): number {
	const seconds = Number(header);
	const ms = header && Number.isFinite(seconds) ? seconds * 1000 : header ? Date.parse(header) - Date.now() : Number.NaN;
	return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_WAIT_MS) : 2_000;
}

export class AccountClient {
	/** Requests sent, retries included. */
	requests = 0;
	/** 429 answers waited out. */
	rateLimited = 0;
	private readonly baseUrl: string;

	constructor(
		baseUrl: string,
		private readonly apiKey: string,
		private readonly log: (line: string) => void,
	) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
	}

	/** One request, sent again on 429 when it is a read or a delete. */
	async send(method: 'GET' | 'POST' | 'DELETE', path: string, options: { qs?: IDataObject; form?: Record<string, string> } = {}): Promise<Answer> {
		for (let attempt = 0; ; attempt++) {
			const answer = await this.once(method, path, options);
			if (answer.status !== 429 || method === 'POST' || attempt >= MAX_RETRIES) return answer;
			this.rateLimited++;
			const wait = retryWaitMs(answer.retryAfter);
			this.log(`  rate limited on ${method} ${path}: waiting ${(wait / 1000).toFixed(1)} s, then again`);
			await sleep(wait);
		}
	}

	/** The body of a 2xx answer that is a JSON object, or UnexpectedAnswer. */
	async object(method: 'GET' | 'POST' | 'DELETE', path: string, options: { qs?: IDataObject; form?: Record<string, string> } = {}): Promise<IDataObject> {
		const answer = await this.send(method, path, options);
		const what = `${method} ${path}`;
		if (answer.status < 200 || answer.status > 299) throw new UnexpectedAnswer(what, answer);
		if (typeof answer.body !== 'object' || answer.body === null || Array.isArray(answer.body)) throw new UnexpectedAnswer(what, answer, 'with something other than a JSON object');
		return answer.body as IDataObject;
	}

	/** A list page with its envelope (`object: "list"`, `data`, `has_more`) checked, or UnexpectedAnswer. */
	async list(path: string, qs: IDataObject): Promise<ListPage> {
		const body = await this.object('GET', path, { qs });
		const total = body.total_available;
		if (body.object !== 'list' || !Array.isArray(body.data) || typeof body.has_more !== 'boolean' || (total !== undefined && typeof total !== 'number')) {
			throw new UnexpectedAnswer(listRequest(path, qs), { status: 200, body }, 'with something other than a list envelope');
		}
		return body as unknown as ListPage;
	}

	private async once(method: string, path: string, { qs, form }: { qs?: IDataObject; form?: Record<string, string> }): Promise<Answer> {
		this.requests++;
		let body: FormData | undefined;
		if (form) {
			body = new FormData();
			for (const [key, value] of Object.entries(form)) body.append(key, value);
		}
		const response = await fetch(`${this.baseUrl}${path}${queryText(qs)}`, {
			method,
			headers: { authorization: `Bearer ${this.apiKey}`, accept: 'application/json' },
			body,
			signal: AbortSignal.timeout(60_000),
		});
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text.trim() ? (JSON.parse(text) as unknown) : undefined;
		} catch {
			parsed = text;
		}
		return {
			status: response.status,
			body: parsed,
			requestId: response.headers.get('request-id') ?? undefined,
			retryAfter: response.headers.get('retry-after') ?? undefined,
		};
	}
}
