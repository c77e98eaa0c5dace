import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeCredentialTestResult,
	NodeApiError,
} from 'n8n-workflow';

import { strictPounds } from '../values';
import { DEFAULT_BASE_URL, EXPECT } from '../transport';
import { baseUrlOf, positive } from '../transport/connection';
import { expectAnswer, header, redirectError } from '../transport/answers';
import { apiError } from '../transport/errors';
import { NEVER_SENT, wireFault, wireFaultError } from '../transport/failures';

/**
 * The node's messages are built for a node; a credential test has none, so this stands in for it.
 * Only the wording is used: the messages are the node's own, word for word.
 */
const CREDENTIAL_AS_NODE: INode = {
	id: 'intelliprint-credential-test',
	name: 'Intelliprint API credential',
	type: 'n8n-nodes-intelliprint.intelliprint',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const KEY_HINT = 'Check the API key: copy it again from the Intelliprint dashboard (Account → API Keys) into this credential.';

/** One line for n8n's credential dialog: the node's message and what to do about it. */
function words(error: NodeApiError, lead = ''): string {
	const message = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
	// The API's own sentence may end in a full stop of its own before the node's ". ".
	return `${lead}${message} ${error.description ?? ''}`.replace(/([.!?])\. /g, '$1 ').trim();
}

/** The verdict on an answer: only a list from the API itself means the key and the Base URL both work. */
function judgeAnswer(answer: IN8nHttpFullResponse, baseUrl: string, host: string): INodeCredentialTestResult {
	const status = answer.statusCode;
	if (status >= 200 && status < 300) {
		try {
			expectAnswer(CREDENTIAL_AS_NODE, answer, EXPECT.list, false, undefined);
			return { status: 'OK', message: 'Connected' };
		} catch (error) {
			return { status: 'Error', message: words(error as NodeApiError, `${host} answered, but not as the Intelliprint API does. `) };
		}
	}
	if (status >= 300 && status < 400) {
		return { status: 'Error', message: words(redirectError(CREDENTIAL_AS_NODE, answer, false, undefined)) };
	}
	if (status === 404) {
		// The print job list always exists, so a 404 means the address, not a missing job.
		return { status: 'Error', message: `${host} answered but has no Intelliprint API at ${baseUrl}. Check that the Base URL ends in /v1.` };
	}
	const hint = status === 401 ? KEY_HINT : undefined;
	return { status: 'Error', message: words(apiError(CREDENTIAL_AS_NODE, status, answer.body, header(answer, 'request-id'), undefined, hint)) };
}

/** The node's own wording for a wire fault, led by whether the host was reached at all. */
function describeFault(error: unknown, baseUrl: string, host: string, timeoutMs: number): string {
	const fault = wireFault(error) ?? 'unsendable';
	const detail = (error as Error | undefined)?.message;
	const report = wireFaultError(CREDENTIAL_AS_NODE, { fault, target: `Intelliprint at ${baseUrl}`, host, unsure: false, attempts: 1, timeoutMs, detail }, undefined);
	const lead = NEVER_SENT.has(fault) ? `Cannot reach ${host}. ` : fault === 'unsendable' ? '' : `No answer from ${host}. `;
	return words(report, lead);
}

/** The key never appears in a message, whatever a server or a socket error echoed back. */
function withoutKey(result: INodeCredentialTestResult, apiKey: string): INodeCredentialTestResult {
	if (apiKey.length < 4) return result;
	return { ...result, message: result.message.split(apiKey).join('*****') };
}

/**
 * Tests the Intelliprint API credential the way the node talks to the API: one authenticated read
 * of the print job list at the Base URL, no redirect followed, within the credential's answer
 * timeout. Unlike a declarative test, it tells a wrong key, a wrong Base URL and an unreachable
 * host apart, in the node's own words.
 */
export async function intelliprintApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data: ICredentialDataDecryptedObject = credential.data ?? {};
	const apiKey = String(data.apiKey ?? '');
	const baseUrl = baseUrlOf(data.baseUrl);
	if (!apiKey.trim()) return { status: 'Error', message: 'Enter the API key from the Intelliprint dashboard (Account → API Keys).' };
	const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
		const shown = baseUrl.slice(0, 100);
		return withoutKey({ status: 'Error', message: `The Base URL "${shown}" is not a web address. Enter it in full, e.g. ${DEFAULT_BASE_URL}` }, apiKey);
	}
	const limit = strictPounds(data.dailySpendingLimit);
	if ('problem' in limit) {
		return withoutKey({ status: 'Error', message: `"Daily Spending Limit (GBP)" ${limit.problem}. While it is, the node confirms no live job: correct it, or set 0 for no limit.` }, apiKey);
	}
	const timeoutMs = positive(data.timeoutSeconds, 30) * 1000;
	// A credential test is only given n8n's legacy request helper (there is no httpRequest here). It
	// still goes through n8n's outbound HTTP client, so n8n's proxy and network rules apply.
	const { helpers } = this;
	let answer: IN8nHttpFullResponse;
	try {
		answer = (await helpers.request({
			method: 'GET',
			uri: `${baseUrl}/prints`,
			qs: { limit: 1 },
			headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
			json: true,
			followRedirect: false,
			followAllRedirects: false,
			timeout: timeoutMs,
			simple: false,
			resolveWithFullResponse: true,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		return withoutKey({ status: 'Error', message: describeFault(error, baseUrl, url.host, timeoutMs) }, apiKey);
	}
	return withoutKey(judgeAnswer(answer, baseUrl, url.host), apiKey);
}
