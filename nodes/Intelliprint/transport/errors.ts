import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { bodyText, parseJson } from './answers';

/** The error body every Intelliprint error carries. */
export interface IntelliprintErrorBody {
	error?: { message?: string; type?: string; code?: string; param?: string };
}

/** What the answer told: a field named, the request ID, the status. */
interface Known {
	param?: string;
	/** The request's path below the base URL, e.g. `/mailing_lists/mal_1`: what kind of ID or field it was about. */
	path?: string;
	/** From the `request-id` header the API contract's error-answers expects (contract.ts). */
	requestId?: string;
	status: number;
}

interface Explanation {
	message: (known: Known) => string;
	hint: string | ((known: Known) => string);
}

// Advice about "that field" only fits when the API named one.
const NO_FIELD = 'Intelliprint named no field, so';

/** How the IDs of what a path is about begin. */
function idKinds(path: string | undefined): string {
	if (path?.startsWith('/mailing_lists/') && path.includes('/recipients/')) return 'mailing lists start with "mal_"; check the recipient ID too';
	if (path?.startsWith('/mailing_lists')) return 'mailing lists start with "mal_"';
	if (path?.startsWith('/backgrounds')) return 'backgrounds start with "bg_"';
	if (path?.startsWith('/prints')) return 'print jobs start with "print_"';
	return 'print jobs start with "print_", backgrounds with "bg_", mailing lists with "mal_"';
}

const EXPLANATIONS: Record<string, Explanation> = {
	parameter_missing: {
		message: ({ param }) => (param ? `Intelliprint needs a value for "${param}"` : 'Intelliprint is missing a required value'),
		hint: ({ param, path }) => {
			// Only print jobs and backgrounds take files: elsewhere a missing binary property is not the cause.
			const file = /^\/(prints|backgrounds)\b/.test(path ?? '') && (!param || /file|document/.test(param));
			const binary = file ? ' (for a file, check that the input item has the binary property)' : '';
			return param ? `Fill in that field in the node${binary}.` : `${NO_FIELD} check that the node's required fields have a value for this item${binary}.`;
		},
	},
	parameter_invalid: {
		message: ({ param, status }) => (param ? `Intelliprint refused the value given for "${param}"` : `Intelliprint refused the request (HTTP ${status})`),
		hint: ({ param }) =>
			param
				? 'Check that field against the allowed values shown in the node and try again.'
				: `${NO_FIELD} check every value the node sent for this item (those set by expressions especially) and try again.`,
	},
	parameter_unknown: {
		message: ({ param }) => (param ? `Intelliprint does not know the field "${param}"` : 'Intelliprint does not know a field that was sent'),
		hint: ({ param }) =>
			param
				? 'Remove that field. If it came from a Metadata key or an expression, check its spelling.'
				: `${NO_FIELD} check the spelling of Metadata keys and of field names set by expressions.`,
	},
	body_incorrect_format: {
		message: () => 'Intelliprint could not read the request body',
		hint: 'Check that the files sent are PDFs and that expressions produce plain text or numbers.',
	},
	body_too_large: {
		message: () => 'The request is larger than Intelliprint accepts (about 100 MiB)',
		hint: 'Send a smaller PDF or fewer extra documents; for a mail run from rows, lower Options → "Letters per Print Job".',
	},
	no_api_key: {
		message: () => 'Intelliprint received no API key',
		hint: 'Open the Intelliprint API credential and paste the API key from the Intelliprint dashboard.',
	},
	invalid_api_key: {
		message: () => 'Intelliprint refused the API key',
		hint: 'Copy the key again from the Intelliprint dashboard into the Intelliprint API credential.',
	},
	forbidden: {
		message: () => 'This API key is not allowed to do that',
		hint: 'Ask the Intelliprint account owner for a key with access to this team or resource.',
	},
	payment_error: {
		message: () => 'Intelliprint could not take payment for this print job',
		hint: 'Top up the account balance or update the payment card in the Intelliprint dashboard, then confirm again.',
	},
	not_found: {
		message: () => 'Intelliprint has nothing with that ID',
		hint: ({ path }) => `Check the ID (${idKinds(path)}) and that it belongs to this account.`,
	},
	rate_limited: {
		message: () => 'Intelliprint is rate limiting this API key',
		hint: 'Other workflows or apps share this key. Run fewer at once, or lower "Requests Allowed" in the credential.',
	},
	internal_error: {
		message: () => 'Intelliprint had an internal fault',
		hint: ({ requestId }) =>
			`Try again in a few minutes. If it keeps happening, ${requestId ? 'send the request ID to Intelliprint support' : 'contact Intelliprint support with the time of this run'}.`,
	},
};

const BY_STATUS: Record<number, string> = {
	400: 'parameter_invalid',
	401: 'invalid_api_key',
	402: 'payment_error',
	403: 'forbidden',
	404: 'not_found',
	413: 'body_too_large',
	429: 'rate_limited',
};

const short = (value: unknown, length: number) =>
	typeof value === 'string' && value.trim() ? value.replace(/\s+/g, ' ').trim().slice(0, length) : undefined;

/** Intelliprint's own words, when the body is its error shape (always JSON `{error: {message, type, code, param}}`). */
function intelliprintWords(answer: unknown): { message?: string; code?: string; param?: string } | undefined {
	const error = typeof answer === 'object' && answer !== null ? (answer as IntelliprintErrorBody).error : undefined;
	if (typeof error !== 'object' || error === null) return undefined;
	const said = { message: short(error.message, 300), code: short(error.code, 60), param: short(error.param, 100) };
	return said.message || said.code ? said : undefined;
}

/** How another server's answer looked: a web page by its title only (the rest is markup), else its own short words. */
function foreignWords(answer: unknown): string {
	if (typeof answer === 'string' && /<(!doctype|html|head|body|title)\b/i.test(answer)) {
		const title = short(/<title[^>]*>([^<]*)</i.exec(answer)?.[1], 100);
		return title ? ` and a page titled "${title}"` : ' and a web page';
	}
	const { message, error } = typeof answer === 'object' && answer !== null ? (answer as { message?: unknown; error?: unknown }) : {};
	const words = short(typeof answer === 'string' ? answer : (message ?? error), 200);
	if (words) return `, saying "${words}"`;
	return answer === '' ? ' and an empty body' : '';
}

/** Advice for an answer that did not come from Intelliprint's API, by what its status says. */
function foreignHint(status: number): string {
	if (status === 413) return EXPLANATIONS.body_too_large.hint as string;
	if (status >= 500) {
		return 'Intelliprint, or the way to it, may be down or busy: try again in a few minutes. If it keeps happening, check the Base URL in the Intelliprint API credential and any proxy n8n uses.';
	}
	return "Check the Base URL in the Intelliprint API credential, and any proxy or firewall that n8n's requests pass through.";
}

/**
 * Turns an API error answer into a message that says what happened and what to do, never naming a code or field the
 * server did not send, and never quoting another server (a proxy's or gateway's page) as Intelliprint.
 */
export function apiError(
	node: INode,
	status: number,
	body: unknown,
	requestId: string | undefined,
	itemIndex: number | undefined,
	extraHint?: string,
	path?: string,
): NodeApiError {
	// The credential test hands the body over as its HTTP helper left it: text, bytes or parsed JSON.
	const answer = typeof body === 'string' || Buffer.isBuffer(body) || body instanceof ArrayBuffer ? (parseJson(body) ?? bodyText(body)) : body;
	const said = intelliprintWords(answer);
	// A web page or a bare text is a proxy's or gateway's; JSON, or an answer with a request ID, may be Intelliprint's own.
	const unsure = !said && ((typeof answer === 'object' && answer !== null) || requestId !== undefined);
	// The code the answer implies drives the node's own decisions (e.g. a smaller request on body_too_large).
	const code = said?.code ?? BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'parameter_invalid');
	const explanation = EXPLANATIONS[code] ?? EXPLANATIONS.parameter_invalid;
	const known: Known = { param: said?.param, path, requestId, status };
	const hint = typeof explanation.hint === 'string' ? explanation.hint : explanation.hint(known);
	const details = said
		? [
				said.message ? `Intelliprint said: ${said.message}` : undefined,
				`${said.code ? `Code: ${said.code}${said.param ? `, param: ${said.param}` : ''}, ` : ''}HTTP ${status}`,
				requestId ? `Request ID: ${requestId}` : undefined,
				extraHint ?? hint,
			]
		: [
				unsure
					? `An answer in another form came back with HTTP ${status}${foreignWords(answer)}: Intelliprint itself or something between n8n and Intelliprint (a proxy or gateway) may have sent it`
					: `A proxy, gateway or load balancer answered with HTTP ${status}${foreignWords(answer)}`,
				requestId ? `Request ID: ${requestId}` : undefined,
				extraHint ?? foreignHint(status),
			];
	const message = said
		? explanation.message(known)
		: unsure
			? `The answer was not in Intelliprint's error form (HTTP ${status})`
			: `The answer came from something between n8n and Intelliprint, not from Intelliprint (HTTP ${status})`;
	const apiError = new NodeApiError(node, (said ? answer : {}) as JsonObject, {
		message,
		// Joined as sentences: the API's message often ends with its own full stop.
		description: details.filter(Boolean).map((detail) => String(detail).replace(/\.$/, '')).join('. ') + '.',
		httpCode: String(status),
		itemIndex,
	});
	// The kind of failure, for the node's own decisions (a sent code, or the one its status implies).
	apiError.context.code = code;
	if (said?.param) apiError.context.param = said.param;
	if (requestId) apiError.context.requestId = requestId;
	return apiError;
}
