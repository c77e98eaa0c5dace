import type { IN8nHttpFullResponse, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** What a successful answer must be, for the caller to trust it. */
export interface Expectation {
	/** The API's `object` field, e.g. "print" or "list". */
	object: string;
	/** The ID's prefix, e.g. "print_" (lists have no ID). */
	idPrefix?: string;
	/** How the caller names it in messages, e.g. "a print job". */
	what: string;
}

export const MAY_HAVE_ACTED_HINT =
	'Intelliprint may have acted on the request: before running this item again, check whether it went through (Print Job → Get Many with the Reference filter, or the dashboard).';

export function header(response: IN8nHttpFullResponse, name: string): string | undefined {
	const value = response.headers?.[name];
	return Array.isArray(value) ? String(value[0]) : (value as string | undefined);
}

/** The answer's body as text, whatever form the HTTP helper handed it over in. */
export function bodyText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	if (typeof body === 'string') return body;
	return JSON.stringify(body);
}

/** The body parsed as JSON, or undefined when it is not JSON. */
export function parseJson(body: unknown): unknown {
	const text = bodyText(body);
	if (!text.trim()) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a parsed answer is not what was expected, or undefined when it is. */
function mismatch(value: unknown, expected: Expectation): string | undefined {
	if (!isObject(value)) return value === undefined ? 'it is empty or not JSON' : `it is JSON ${Array.isArray(value) ? 'array' : String(value === null ? 'null' : typeof value)}, not an object`;
	if (value.object !== expected.object) return `its "object" is ${JSON.stringify(value.object) ?? 'missing'}, not "${expected.object}"`;
	if (expected.object === 'list') {
		if (!Array.isArray(value.data)) return 'it has no "data" array';
		if (typeof value.has_more !== 'boolean') return 'it has no "has_more" flag';
		return undefined;
	}
	const prefix = expected.idPrefix;
	if (prefix !== undefined && !(typeof value.id === 'string' && value.id.startsWith(prefix) && value.id.length > prefix.length)) {
		return `it has no "${prefix}…" ID`;
	}
	return undefined;
}

/** A short, printable sample of a body for a message (control characters and excess cut). */
function sample(body: unknown): string {
	const text = bodyText(body).replace(/\s+/g, ' ').trim();
	if (!text) return '(empty)';
	return JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
}

/**
 * The JSON of a 2xx answer, checked against what the request should bring back. An answer that
 * cannot be read as that (a proxy's HTML page, cut-off JSON, an object of another kind) is never
 * taken for success: for a request the API may have acted on, the message says so.
 */
export function expectAnswer<T>(
	node: INode,
	response: IN8nHttpFullResponse,
	expected: Expectation,
	mayHaveActed: boolean,
	itemIndex: number | undefined,
): T {
	const json = parseJson(response.body);
	const why = mismatch(json, expected);
	if (why === undefined) return json as T;
	const contentType = header(response, 'content-type') ?? 'no content type';
	const error = new NodeApiError(node, {}, {
		message: `Intelliprint's answer could not be read as ${expected.what}`,
		description: [
			`HTTP ${response.statusCode} (${contentType}), but ${why}. The answer began: ${sample(response.body)}.`,
			'A proxy or gateway between n8n and Intelliprint may have answered instead of the API.',
			mayHaveActed ? MAY_HAVE_ACTED_HINT : 'Try again; if it keeps happening, check the Base URL in the Intelliprint API credential.',
		].join(' '),
		httpCode: String(response.statusCode),
		itemIndex,
	});
	error.context.mayHaveActed = mayHaveActed;
	throw error;
}

/** A redirect from the API is never followed: the key, and a PDF, would go with it. */
export function redirectError(node: INode, response: IN8nHttpFullResponse, mayHaveActed: boolean, itemIndex: number | undefined): NodeApiError {
	let where = 'another address';
	try {
		const location = new URL(header(response, 'location') ?? '');
		where = `${location.origin}${location.pathname}`;
	} catch {
		// No usable Location: the message says "another address".
	}
	const error = new NodeApiError(node, {}, {
		message: `Intelliprint answered with a redirect (HTTP ${response.statusCode}) to ${where}`,
		description: [
			'The node does not follow redirects from the API, so your API key and files only ever go to the Base URL you set.',
			'If Intelliprint has moved, put the new address in the Base URL of the Intelliprint API credential.',
			mayHaveActed ? MAY_HAVE_ACTED_HINT : '',
		].join(' ').trim(),
		httpCode: String(response.statusCode),
		itemIndex,
	});
	error.context.mayHaveActed = mayHaveActed;
	return error;
}
