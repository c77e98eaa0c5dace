import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { seconds } from './waits';

/** What went wrong on the wire, as far as the socket tells. */
export type WireFault = 'refused' | 'dns' | 'unreachable' | 'timeout' | 'reset' | 'unsendable';

const CODES: Record<string, WireFault> = {
	ECONNREFUSED: 'refused',
	ENOTFOUND: 'dns',
	EAI_AGAIN: 'dns',
	EHOSTUNREACH: 'unreachable',
	ENETUNREACH: 'unreachable',
	ETIMEDOUT: 'timeout',
	ECONNABORTED: 'timeout',
	ESOCKETTIMEDOUT: 'timeout',
	UND_ERR_HEADERS_TIMEOUT: 'timeout',
	UND_ERR_BODY_TIMEOUT: 'timeout',
	ECONNRESET: 'reset',
	EPIPE: 'reset',
	ERR_STREAM_PREMATURE_CLOSE: 'reset',
	UND_ERR_SOCKET: 'reset',
};

/** Faults after which the request cannot have reached the API, so even a create may be resent. */
export const NEVER_SENT: ReadonlySet<WireFault> = new Set(['refused', 'dns', 'unreachable']);

/**
 * The kind of wire fault behind an error thrown by n8n's HTTP helpers, which wrap the socket error
 * one or two levels deep. Undefined when the error is not a wire fault at all.
 */
export function wireFault(error: unknown): WireFault | undefined {
	const chain: Array<{ code?: unknown; message?: unknown }> = [];
	for (let candidate = error; candidate && chain.length < 4; candidate = (candidate as { cause?: unknown }).cause) {
		chain.push(candidate as { code?: unknown; message?: unknown });
	}
	// A socket code anywhere in the chain is the best witness; n8n's own wrapper only paraphrases it.
	for (const { code } of chain) if (typeof code === 'string' && CODES[code]) return CODES[code];
	for (const { message } of chain) {
		if (typeof message !== 'string') continue;
		// n8n 1.x drops the code and keeps only its own paraphrase of it (NodeApiError's messages).
		if (/timeout of \d+ms exceeded|timed out|connection was aborted/i.test(message)) return 'timeout';
		if (/refused the connection/i.test(message)) return 'refused';
		if (/connection cannot be established|DNS server returned an error/i.test(message)) return 'dns';
		if (/host is unreachable/i.test(message)) return 'unreachable';
		if (/socket hang up|aborted|premature close|closed unexpectedly/i.test(message)) return 'reset';
	}
	return undefined;
}

export interface WireFaultReport {
	fault: WireFault;
	/** Who we were talking to, e.g. "Intelliprint at https://api.intelliprint.net/v1". */
	target: string;
	host: string;
	/** Whether the API may have acted on the request (a POST that was sent). */
	unsure: boolean;
	attempts: number;
	timeoutMs: number;
	detail?: string;
}

const UNSURE_HINT =
	'The request was not repeated because Intelliprint may already have acted on it (the API cannot recognise a repeated request). Before running this item again, check whether it went through: Print Job → Get Many with the Reference filter, or the dashboard.';

/** A message for a wire fault that tells timeout, reset, refused and DNS failures apart. */
export function wireFaultError(node: INode, report: WireFaultReport, itemIndex: number | undefined): NodeApiError {
	const { target, host, attempts, timeoutMs } = report;
	const tried = attempts > 1 ? ` It was tried ${attempts} times.` : '';
	const texts: Record<WireFault, [string, string]> = {
		refused: [
			`${target} refused the connection`,
			'Nothing accepts connections at that address and port. Check the Base URL in the Intelliprint API credential.',
		],
		dns: [
			`The host name ${host} could not be found`,
			"Check the spelling of the Base URL in the Intelliprint API credential, and this machine's DNS settings.",
		],
		unreachable: [`There is no network route to ${host}`, "Check this machine's network connection, proxy and firewall."],
		timeout: [
			`${target} did not answer within ${seconds(timeoutMs)}`,
			`${tried} It may be slow or unavailable: try again later, or raise "Answer Timeout" in the Intelliprint API credential.`,
		],
		reset: [
			`The connection to ${target} was cut before the answer arrived`,
			`${tried} A proxy or the network dropped it. Try again later.`,
		],
		unsendable: [
			`The request to ${target} could not be sent`,
			`${report.detail ?? ''}. Check the Base URL in the Intelliprint API credential.`,
		],
	};
	const [message, description] = texts[report.fault];
	// The socket code stays out of the message: NodeApiError swaps messages naming it for generic text.
	const error = new NodeApiError(node, {}, {
		message,
		description: (report.unsure ? `${description.trim()} ${UNSURE_HINT}` : description).trim(),
		itemIndex,
	});
	error.context.wireFault = report.fault;
	error.context.mayHaveActed = report.unsure;
	return error;
}
