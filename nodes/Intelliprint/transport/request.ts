import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bodyText, expectAnswer, header, MAY_HAVE_ACTED_HINT, parseJson, redirectError, type Expectation } from './answers';
import { confirmsField, takeConfirmPass, type ConfirmPass } from './confirmPass';
import { connectionSettings, type IntelliprintContext } from './connection';
import { apiError } from './errors';
import type { MultipartBody } from './multipart';
import { send } from './send';
import { retryAfterMs } from './waits';

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL, e.g. `/prints/print_123`. */
	path: string;
	/** What a successful answer must be; anything else is an error, never a success. */
	expect: Expectation;
	qs?: IDataObject;
	/** A JSON body. */
	json?: IDataObject;
	/** A ready-made multipart body (see multipart.ts). */
	multipart?: MultipartBody;
	itemIndex?: number;
	/** The spending gate's pass, needed by a body that confirms (see confirmPass.ts). */
	confirmPass?: ConfirmPass;
}

/** The answers the node expects, by the API object they carry. */
export const EXPECT = {
	printJob: { object: 'print', idPrefix: 'print_', what: 'a print job' },
	background: { object: 'background', idPrefix: 'bg_', what: 'a background' },
	merge: { object: 'merge', idPrefix: 'merge_', what: 'a merge result' },
	mailingList: { object: 'mailing_list', idPrefix: 'mal_', what: 'a mailing list' },
	// The recipients' ID prefix is not public: any non-empty ID is taken.
	recipient: { object: 'mailing_list_recipient', idPrefix: '', what: 'a mailing list recipient' },
	list: { object: 'list', what: 'a list' },
} satisfies Record<string, Expectation>;

/**
 * Sends one request to the Intelliprint API and returns its JSON body, checked against what was
 * asked for. An error answer becomes a message that says what happened and what to do.
 */
export async function apiRequest<T = IDataObject>(ctx: IntelliprintContext, request: ApiRequest): Promise<T> {
	const { baseUrl } = await connectionSettings(ctx);
	const confirms = request.multipart?.confirms === true || confirmsField('confirmed', request.json?.confirmed);
	if (confirms && !takeConfirmPass(request.confirmPass)) {
		// A bug, never a user's doing: a path to a confirm that skipped the spending gate.
		throw new NodeOperationError(ctx.getNode(), 'A confirm was about to be sent without the spending check, so it was not sent', {
			itemIndex: request.itemIndex,
			description: 'Nothing was confirmed. This is a fault in the Intelliprint node: please report it with the operation you used.',
		});
	}
	// Only a POST can create or confirm (and so send or charge); everything else can be repeated.
	const repeatable = request.method !== 'POST';
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		// Lists take `fields[]=id&fields[]=metadata`, as the SDK sends them: a list even with one entry.
		arrayFormat: 'brackets',
		// The body is read as bytes and parsed here, so that an answer that is not JSON is seen as such.
		json: false,
		encoding: 'arraybuffer',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		headers: { Accept: 'application/json' },
	};
	if (request.multipart) {
		options.headers = { ...options.headers, 'Content-Type': request.multipart.contentType, 'Content-Length': String(request.multipart.length) };
	} else if (request.json) {
		// Bytes, not text: axios re-parses a JSON string body to check it (stringifySafely), a second pass over a mail run's body.
		options.body = Buffer.from(JSON.stringify(request.json));
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	const response = await send(ctx, { options, multipart: request.multipart, repeatable, toApi: true, itemIndex: request.itemIndex });
	const status = response.statusCode;
	const node = ctx.getNode();
	if (status >= 300 && status < 400) throw redirectError(node, response, !repeatable, request.itemIndex);
	if (status < 300) return expectAnswer<T>(node, response, request.expect, !repeatable, request.itemIndex);

	const hints: string[] = [];
	if (status >= 500 && !repeatable) hints.push(`The request was not repeated. ${MAY_HAVE_ACTED_HINT}`);
	const retryAfter = retryAfterMs(header(response, 'retry-after'));
	if (retryAfter !== undefined && status >= 500) {
		hints.push(`The server asks to try again after ${new Date(Date.now() + retryAfter).toISOString().replace(/\.\d+Z$/, 'Z')}.`);
	}
	const error = apiError(node, status, parseJson(response.body) ?? bodyText(response.body), header(response, 'request-id'), request.itemIndex, hints.join(' ') || undefined, request.path);
	if (status >= 500 && !repeatable) error.context.mayHaveActed = true;
	throw error;
}
