import { createHash } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { apiError } from './errors';
import type { MultipartBody } from './multipart';
import { blockUntil, waitForSlot, type RateLimit } from './pacing';

export type IntelliprintContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

export const CREDENTIAL_TYPE = 'intelliprintApi';
export const DEFAULT_BASE_URL = 'https://api.intelliprint.net/v1';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/prints/print_123`. */
	path: string;
	qs?: IDataObject;
	/** A JSON body. */
	json?: IDataObject;
	/** A ready-made multipart body (see multipart.ts). */
	multipart?: MultipartBody;
	itemIndex?: number;
}

/** How many times a 429 is waited out before the run gives up on the item. */
const MAX_RATE_LIMIT_RETRIES = 6;
/** How many times a read is repeated after a 5xx or a dropped connection (as the official SDK). */
const MAX_SERVER_RETRIES = 3;
/** Socket codes that mean the request never reached the API, so even a create is safe to resend. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Socket codes after which the API may or may not have acted. */
const DROPPED = new Set(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'ESOCKETTIMEDOUT']);

interface ConnectionSettings {
	baseUrl: string;
	limitKey: string;
	limit: RateLimit;
}

const settingsCache = new WeakMap<object, ConnectionSettings>();

export async function connectionSettings(ctx: IntelliprintContext): Promise<ConnectionSettings> {
	const cached = settingsCache.get(ctx);
	if (cached) return cached;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = String(credentials.baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, '');
	const settings: ConnectionSettings = {
		baseUrl,
		// A fingerprint, never the key itself, identifies the credential's shared rate-limit window.
		limitKey: createHash('sha256').update(`${baseUrl}\n${String(credentials.apiKey)}`).digest('hex'),
		limit: {
			requests: Number(credentials.rateLimitRequests) || 100,
			windowMs: (Number(credentials.rateLimitWindowSeconds) || 60) * 1000,
		},
	};
	settingsCache.set(ctx, settings);
	return settings;
}

/** The wait a 429 asks for: Retry-After when given, else exponential backoff with jitter. */
export function rateLimitDelayMs(retryAfter: string | undefined, attempt: number): number {
	const seconds = Number(retryAfter);
	if (retryAfter !== undefined && Number.isFinite(seconds) && seconds >= 0) {
		return Math.min(seconds * 1000, 120_000) + Math.floor(Math.random() * 250);
	}
	const base = Math.min(1000 * 2 ** attempt, 60_000);
	return base / 2 + Math.floor(Math.random() * (base / 2));
}

/** The socket code of a connection failure (one of the sets above), wherever n8n wrapped it. */
function socketCode(error: unknown): string | undefined {
	const candidates = [error, (error as NodeApiError)?.cause, (error as { cause?: { cause?: unknown } })?.cause?.cause];
	for (const candidate of candidates) {
		const code = (candidate as { code?: unknown })?.code;
		if (typeof code === 'string' && (NEVER_SENT.has(code) || DROPPED.has(code))) return code;
	}
	return undefined;
}

function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name];
	return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/** One HTTP exchange as the transport sends it: what to send, and the rules that apply to it. */
export interface Exchange {
	options: IHttpRequestOptions;
	multipart?: MultipartBody;
	/** Whether sending it twice does no harm (everything but a POST). */
	repeatable: boolean;
	/** Whether it goes to the API itself: then it is authenticated and paced; other hosts get neither. */
	toApi: boolean;
	itemIndex?: number;
}

/**
 * Sends one exchange and returns the final answer, whatever its status. Owns the sending rules:
 * authentication through n8n, pacing, waiting out 429s, repeating what may be repeated after server
 * faults and dropped connections, and never repeating a POST the API may have acted on.
 */
export async function send(ctx: IntelliprintContext, exchange: Exchange): Promise<IN8nHttpFullResponse> {
	const { baseUrl, limitKey, limit } = await connectionSettings(ctx);
	const { options, multipart, repeatable, toApi, itemIndex } = exchange;
	const target = toApi ? `Intelliprint at ${baseUrl}` : `the file host ${new URL(String(options.url)).origin}`;
	let rateLimitRetries = 0;
	let serverRetries = 0;
	for (;;) {
		// A streamed body is used up by an attempt: every attempt opens its own.
		const body = multipart ? await multipart.open() : options.body;
		const attempt = { ...options, body, headers: { ...options.headers } };
		const answered = toApi ? await waitForSlot(limitKey, limit) : () => undefined;
		let response: IN8nHttpFullResponse;
		try {
			response = (
				toApi
					? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, attempt)
					: await ctx.helpers.httpRequest(attempt)
			) as IN8nHttpFullResponse;
			answered();
		} catch (error) {
			answered();
			const code = socketCode(error);
			if (code !== undefined && (NEVER_SENT.has(code) || repeatable) && serverRetries < MAX_SERVER_RETRIES) {
				await sleep(200 * 2 ** serverRetries++);
				continue;
			}
			// A fresh error, not n8n's: its cause holds the request, Authorization header included.
			if (code === undefined) {
				throw new NodeApiError(ctx.getNode(), {}, {
					message: `The request to ${toApi ? 'Intelliprint' : target} could not be sent`,
					description: `${(error as Error).message}. Check the Base URL in the Intelliprint API credential.`,
					itemIndex,
				});
			}
			throw connectionError(ctx, code, target, repeatable, itemIndex);
		}

		const status = response.statusCode;
		if (status === 429 && rateLimitRetries < MAX_RATE_LIMIT_RETRIES) {
			// A 429 means nothing was done with the request, so even a create may be sent again.
			const delay = rateLimitDelayMs(header(response, 'retry-after'), rateLimitRetries++);
			if (toApi) blockUntil(limitKey, Date.now() + delay);
			else await sleep(delay);
			continue;
		}
		if (status >= 500 && repeatable && serverRetries < MAX_SERVER_RETRIES) {
			await sleep(200 * 2 ** serverRetries++);
			continue;
		}
		return response;
	}
}

/**
 * Sends one request to the Intelliprint API and returns its JSON body; an error answer becomes a
 * message that says what happened and what to do.
 */
export async function apiRequest<T = IDataObject>(ctx: IntelliprintContext, request: ApiRequest): Promise<T> {
	const { baseUrl } = await connectionSettings(ctx);
	// Only a POST can create or confirm (and so send or charge); everything else can be repeated.
	const repeatable = request.method !== 'POST';
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		headers: {},
	};
	if (request.multipart) {
		options.headers = { 'Content-Type': request.multipart.contentType, 'Content-Length': String(request.multipart.length) };
	} else if (request.json) {
		options.body = request.json;
		options.headers = { 'Content-Type': 'application/json' };
	}
	const response = await send(ctx, { options, multipart: request.multipart, repeatable, toApi: true, itemIndex: request.itemIndex });
	const status = response.statusCode;
	if (status < 400) return response.body as T;
	const unsureHint =
		status >= 500 && !repeatable
			? 'The request was not repeated because Intelliprint may already have acted on it (there is no way to send it only once). Check the Print Jobs list in the dashboard before running this item again.'
			: undefined;
	throw apiError(ctx.getNode(), status, response.body, header(response, 'request-id'), request.itemIndex, unsureHint);
}

function connectionError(
	ctx: IntelliprintContext,
	code: string,
	target: string,
	repeatable: boolean,
	itemIndex: number | undefined,
): NodeApiError {
	const unsure = DROPPED.has(code) && !repeatable;
	// The socket code stays out of the message: NodeApiError swaps messages naming it for generic text.
	const wrapped = new NodeApiError(ctx.getNode(), {}, {
		message: unsure
			? 'The connection to Intelliprint dropped before it answered'
			: `Could not reach ${target}`,
		description: unsure
			? `Socket code ${code}. The request was not repeated because Intelliprint may already have acted on it. Check the Print Jobs list in the dashboard before running this item again.`
			: `Socket code ${code}. Check the Base URL in the Intelliprint API credential and this machine's network connection.`,
		itemIndex,
	});
	wrapped.context.code = code;
	return wrapped;
}
