import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** The error body every Intelliprint error carries. */
export interface IntelliprintErrorBody {
	error?: { message?: string; type?: string; code?: string; param?: string };
}

interface Explanation {
	message: (param?: string) => string;
	hint: string;
}

const EXPLANATIONS: Record<string, Explanation> = {
	parameter_missing: {
		message: (param) => `Intelliprint needs a value for "${param ?? 'a required field'}"`,
		hint: 'Fill in that field in the node (for a file, check that the input item has the binary property).',
	},
	parameter_invalid: {
		message: (param) => `Intelliprint refused the value given for "${param ?? 'a field'}"`,
		hint: 'Check that field against the allowed values shown in the node and try again.',
	},
	parameter_unknown: {
		message: (param) => `Intelliprint does not know the field "${param ?? 'sent'}"`,
		hint: 'Remove that field. If it came from a Metadata key or an expression, check its spelling.',
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
		hint: 'Check the ID (print jobs start with "print_", backgrounds with "bg_") and that it belongs to this account.',
	},
	rate_limited: {
		message: () => 'Intelliprint is rate limiting this API key',
		hint: 'Other workflows or apps share this key. Run fewer at once, or lower "Requests Allowed" in the credential.',
	},
	internal_error: {
		message: () => 'Intelliprint had an internal fault',
		hint: 'Try again in a few minutes. If it keeps happening, send the request ID to Intelliprint support.',
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

/**
 * What the server itself said in an error answer: Intelliprint's `error` object, or, from a proxy or a server that
 * answers otherwise, a top-level `message`, an `error` that is text, or a body that is plain text.
 */
function serverWords(body: unknown): { message?: string; code?: string; param?: string } {
	const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim().slice(0, 300) : undefined);
	if (typeof body === 'string') return { message: text(body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ')) };
	if (typeof body !== 'object' || body === null) return {};
	const { error, message } = body as { error?: unknown; message?: unknown };
	if (typeof error === 'object' && error !== null) {
		const sent = error as IntelliprintErrorBody['error'] & object;
		return { message: text(sent.message), code: text(sent.code), param: text(sent.param) };
	}
	return { message: text(error) ?? text(message) };
}

/** Turns an API error answer into a message that says what happened and what to do, never naming a code or field the server did not send. */
export function apiError(
	node: INode,
	status: number,
	body: unknown,
	requestId: string | undefined,
	itemIndex: number | undefined,
	extraHint?: string,
): NodeApiError {
	const said = serverWords(body);
	const code = said.code ?? BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'parameter_invalid');
	const explanation = EXPLANATIONS[code] ?? EXPLANATIONS.parameter_invalid;
	// Without a field named, a refusal is of the request, not of "a field" the server never mentioned.
	const message = code === 'parameter_invalid' && !said.param ? `Intelliprint refused the request (HTTP ${status})` : explanation.message(said.param);
	const details = [
		said.message ? `Intelliprint said: ${said.message}` : undefined,
		`${said.code ? `Code: ${said.code}${said.param ? `, param: ${said.param}` : ''}, ` : ''}HTTP ${status}`,
		requestId ? `Request ID: ${requestId}` : undefined,
		extraHint ?? explanation.hint,
	].filter(Boolean);
	const apiError = new NodeApiError(node, (typeof body === 'object' && body !== null ? body : {}) as JsonObject, {
		message,
		// Joined as sentences: the API's message often ends with its own full stop.
		description: details.map((detail) => String(detail).replace(/\.$/, '')).join('. ') + '.',
		httpCode: String(status),
		itemIndex,
	});
	// The kind of failure, for the node's own decisions (a sent code, or the one its status implies).
	apiError.context.code = code;
	if (said.param) apiError.context.param = said.param;
	if (requestId) apiError.context.requestId = requestId;
	return apiError;
}
