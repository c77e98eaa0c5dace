import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { header } from './answers';
import { connectionSettings, CREDENTIAL_TYPE, type IntelliprintContext } from './connection';
import { NEVER_SENT, wireFault, wireFaultError } from './failures';
import type { MultipartBody } from './multipart';
import { pacerFor } from './pacing';
import { backoffMs, faultBudget, retryAfterMs, seconds, timeoutFor } from './waits';

/** How many times a request is repeated after a server fault or a wire fault (as the official SDK). */
const MAX_FAULT_RETRIES = 3;
/** A 429 that asks for no wait (or none we can read) is not sent again sooner: the API is busy. */
const LEAST_RATE_LIMITED_WAIT_MS = 250;

/** API requests sent by each node run (context), for the run's hints (how long the rate limit made it take). */
const requestsByRun = new WeakMap<object, number>();
function countRequest(ctx: IntelliprintContext): void {
	requestsByRun.set(ctx, (requestsByRun.get(ctx) ?? 0) + 1);
}
export function requestsSent(ctx: IntelliprintContext): number {
	return requestsByRun.get(ctx) ?? 0;
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
 * authentication through n8n, pacing, explicit timeouts, never following a redirect with the key,
 * waiting out 429s (and 5xx on what may be repeated) as Retry-After asks within the item's fault
 * budget, and never repeating a POST the API may have acted on.
 */
export async function send(ctx: IntelliprintContext, exchange: Exchange): Promise<IN8nHttpFullResponse> {
	const settings = await connectionSettings(ctx);
	const { options, multipart, repeatable, toApi, itemIndex } = exchange;
	const url = URL.canParse(String(options.url)) ? new URL(String(options.url)) : undefined;
	const target = toApi || !url ? `Intelliprint at ${settings.baseUrl}` : `the file host ${url.origin}`;
	if (!url) {
		throw wireFaultError(
			ctx.getNode(),
			{
				fault: 'unsendable',
				target,
				host: '',
				unsure: false,
				attempts: 0,
				timeoutMs: 0,
				detail: `"${String(options.url).slice(0, 100)}" is not a URL`,
			},
			itemIndex,
		);
	}
	const budget = faultBudget(ctx, itemIndex, settings.faultBudgetMs);
	const timeoutMs = timeoutFor(options.method ?? 'GET', settings.readTimeoutMs, multipart?.length ?? 0);
	let attempts = 0;
	let faultRetries = 0;
	let rateLimitedRetries = 0;
	// After its own 429, every wait of the item until an answer comes is waiting out rate limiting,
	// and so is any wait on a hold another item's 429 put on everyone: Give Up Waiting After is the
	// only limit on them (see Pacer.waitForSlot).
	let rateLimited: { asked: boolean } | undefined;
	for (;;) {
		// A streamed body is used up by an attempt: every attempt opens its own.
		const body = multipart ? await multipart.open() : options.body;
		const attempt: IHttpRequestOptions = {
			...options,
			body,
			headers: { ...options.headers },
			timeout: timeoutMs,
			// The API's answers are never followed elsewhere (the key, and a PDF, would go along);
			// file links may redirect to storage, but never with credentials.
			disableFollowRedirect: toApi || options.disableFollowRedirect,
			sendCredentialsOnCrossOriginRedirect: false,
		};
		const pacer = toApi ? pacerFor(settings.limitKey) : undefined;
		const answered = pacer ? await pacer.waitForSlot(settings.limit, budget, rateLimited !== undefined) : () => undefined;
		if (!answered) throw rateLimitedError(ctx, Math.max(0, (pacer?.heldUntil ?? 0) - Date.now()), rateLimited?.asked ?? false, itemIndex);
		attempts++;
		if (toApi) countRequest(ctx);
		const startedAt = Date.now();
		let response: IN8nHttpFullResponse;
		try {
			response = (
				toApi ? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, attempt) : await ctx.helpers.httpRequest(attempt)
			) as IN8nHttpFullResponse;
		} catch (error) {
			answered();
			// A fresh error, never n8n's: its cause holds the request, Authorization header included.
			const fault = wireFault(error) ?? 'unsendable';
			if (fault === 'timeout') budget.spend(Date.now() - startedAt);
			const resendable = fault !== 'unsendable' && (NEVER_SENT.has(fault) || repeatable);
			const delay = backoffMs(faultRetries);
			if (resendable && faultRetries < MAX_FAULT_RETRIES && budget.allows(delay)) {
				faultRetries++;
				await budget.wait(delay);
				continue;
			}
			const unsure = !repeatable && fault !== 'unsendable' && !NEVER_SENT.has(fault);
			throw wireFaultError(
				ctx.getNode(),
				{ fault, target, host: url.host, unsure, attempts, timeoutMs, detail: (error as Error).message },
				itemIndex,
			);
		}
		const status = response.statusCode;
		answered(status);
		if (status === 429 && rateLimited) budget.spend(Date.now() - startedAt);
		if (status !== 429) rateLimited = undefined;

		// A 429 means the API did nothing with the request, so even a create may be sent again (the API contract's
		// rate-limit, contract.ts); a 4xx is never sent again, and a 5xx create never (error-answers).
		const waitable = status === 429 || (status >= 500 && repeatable && faultRetries < MAX_FAULT_RETRIES);
		if (!waitable) return response;
		const asked = retryAfterMs(header(response, 'retry-after'));
		const delay =
			status === 429 ? Math.max(LEAST_RATE_LIMITED_WAIT_MS, asked ?? backoffMs(rateLimitedRetries)) : (asked ?? backoffMs(faultRetries));
		const givingUp = !budget.allows(delay);
		// Everyone using this credential in this process holds back, not only this item; but a wait
		// this item will not make does not hold up the others.
		if (pacer && status === 429) pacer.refused(settings.limit, givingUp ? 0 : Date.now() + delay);
		if (givingUp) {
			if (status === 429) throw rateLimitedError(ctx, delay, asked !== undefined, itemIndex);
			return response;
		}
		if (status === 429) rateLimitedRetries++;
		else faultRetries++;
		// With a pacer the wait happens in waitForSlot (the hold just set), charged there.
		if (pacer && status === 429) rateLimited = { asked: asked !== undefined };
		else await budget.wait(delay);
	}
}

/** The API still rate limits, and waiting longer would go past what the item may wait. */
function rateLimitedError(ctx: IntelliprintContext, delayMs: number, asked: boolean, itemIndex: number | undefined): NodeApiError {
	const when = new Date(Date.now() + delayMs).toISOString().replace(/\.\d+Z$/, 'Z');
	const error = new NodeApiError(
		ctx.getNode(),
		{},
		{
			message: 'Intelliprint is still rate limiting this API key',
			description: [
				asked ? `Intelliprint asks to wait ${seconds(delayMs, Math.ceil)}: try again after ${when}.` : `Try again after ${when}.`,
				'Other workflows or apps may share this key: run fewer at once, lower "Requests Allowed" in the Intelliprint API credential, or raise "Give Up Waiting After".',
				'This request was not acted on: Intelliprint does nothing with a rate limited request.',
			].join(' '),
			httpCode: '429',
			itemIndex,
		},
	);
	error.context.code = 'rate_limited';
	error.context.retryAt = when;
	return error;
}
