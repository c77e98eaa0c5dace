import { jsonReply, write, type Reply, type ServerResponse } from './http';

/** Answers of a 2xx kind that no client should believe (see `Fault.garbage`). */
export type Garbage = 'html' | 'invalidJson' | 'empty' | 'noId' | 'wrongObject' | 'truncatedJson' | 'jsonNull' | 'jsonArray' | 'notList';

/**
 * A fault to inject into the next matching request(s). Without `reset`, `afterActing` decides whether the
 * host acts on the request first; a fault with nothing but `latencyMs` acts first unless `afterActing` is false.
 */
export interface Fault {
	method?: string;
	path?: RegExp;
	/** Which host the fault lives on; the path is matched against that host's own path (`/v1/prints`, `/letters/ltr_x.pdf`). */
	host?: 'api' | 'files';
	/** How many matching requests it hits (default 1); Infinity for a storm that never ends. */
	times?: number;
	/** How many matching requests it lets through first (the second part of a run, say). */
	after?: number;
	status?: number;
	/** Close the connection without an answer (kept for older tests; `reset` says when). */
	drop?: boolean;
	afterActing?: boolean;
	headers?: Record<string, string>;
	error?: { type: string; code: string; message: string; param?: string };
	/** An error answer not in the API's shape, as a proxy or another server gives one: this body, as is. */
	body?: { text: string; contentType: string };
	latencyMs?: number;
	redirect?: { status: 301 | 302 | 303 | 307 | 308; to: 'elsewhere' | 'same' };
	garbage?: Garbage;
	reset?: 'beforeActing' | 'afterActing' | 'midBody';
	hang?: boolean;
	/** Seconds, an HTTP-date `retryAfterSeconds` ahead, or no header at all. */
	retryAfter?: number | 'httpDate' | 'none';
	retryAfterSeconds?: number;
}

/** What a host lends a fault: its socket, its own answer when it acted first, and where its doors lead. */
export interface FaultScene {
	res: ServerResponse;
	reply?: Reply;
	/** The kind of thing a believing client expects back: `print`, `background`, `merge`, `list` or `file`. */
	expects: string;
	setStatus(status: number): void;
	pause(ms: number): Promise<void>;
	location(to: 'elsewhere' | 'same'): string;
	/** The host's error answer for an injected status. */
	failure(status: number, fault: Fault, headers: Record<string, string>): Reply;
}

export function takeFault(faults: Fault[], host: 'api' | 'files', method: string, path: string): Fault | undefined {
	const index = faults.findIndex((f) => (f.host ?? 'api') === host && (!f.method || f.method === method) && (!f.path || f.path.test(path)));
	if (index === -1) return undefined;
	const fault = faults[index];
	if (fault.after) {
		fault.after--;
		return undefined;
	}
	fault.times = (fault.times ?? 1) - 1;
	if (fault.times <= 0) faults.splice(index, 1);
	return fault;
}

const changesAnswer = (f: Fault) =>
	Boolean(f.drop || f.hang || f.redirect || f.garbage || f.reset || f.error || f.headers || f.retryAfter !== undefined || f.status !== undefined);

/** Whether the host should act on the request before the fault takes over. */
export function actsFirst(fault: Fault): boolean {
	if (fault.reset) return fault.reset !== 'beforeActing';
	// Latency alone always lets the host act; `waitsBeforeActing` says on which side of the wait.
	if (!changesAnswer(fault)) return true;
	return fault.afterActing === true;
}

/** A fault with only latency and `afterActing: false` waits before the host acts, not after. */
export const waitsBeforeActing = (fault: Fault) => !changesAnswer(fault) && fault.afterActing === false;

export function retryAfterHeaders(fault: Fault): Record<string, string> {
	if (fault.retryAfter === undefined || fault.retryAfter === 'none') return {};
	if (fault.retryAfter === 'httpDate') {
		// HTTP-dates have whole seconds: round up so the client never reads a wait shorter than asked.
		const at = (Math.ceil(Date.now() / 1000) + (fault.retryAfterSeconds ?? 1)) * 1000;
		return { 'retry-after': new Date(at).toUTCString() };
	}
	return { 'retry-after': String(fault.retryAfter) };
}

export async function inject(fault: Fault, scene: FaultScene): Promise<void> {
	const { res } = scene;
	if (!waitsBeforeActing(fault)) await scene.pause(fault.latencyMs ?? 0);
	if (fault.hang) {
		// Left open on purpose: the client gives up first, or stop() closes every connection.
		scene.setStatus(0);
		return;
	}
	const reset = fault.reset ?? (fault.drop ? 'drop' : undefined);
	if (reset === 'midBody') {
		const reply = scene.reply ?? jsonReply(200, plausible(scene.expects));
		scene.setStatus(-1);
		res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
		res.write(reply.body.subarray(0, Math.max(1, Math.floor(reply.body.length / 2))), () => res.socket?.destroy());
		return;
	}
	if (reset) {
		scene.setStatus(-1);
		// A reset is a TCP RST (ECONNRESET); the older `drop` closes politely (socket hang up).
		if (reset === 'drop') res.socket?.destroy();
		else res.socket?.resetAndDestroy();
		return;
	}
	if (fault.redirect) {
		scene.setStatus(fault.redirect.status);
		return write(res, { status: fault.redirect.status, headers: { location: scene.location(fault.redirect.to), ...fault.headers }, body: Buffer.alloc(0) });
	}
	const headers = { ...retryAfterHeaders(fault), ...fault.headers };
	const reply = fault.garbage
		? garbage(fault.garbage, fault.status ?? 200, scene.expects, scene.reply, headers)
		: changesAnswer(fault)
			? scene.failure(fault.status ?? 500, fault, headers)
			: scene.reply!;
	scene.setStatus(reply.status);
	write(res, reply);
}

const PREFIX: Record<string, string> = { print: 'print', background: 'bg', merge: 'merge', file: 'file', mailing_list: 'mal', mailing_list_recipient: 'mlr' };

function plausible(expects: string): unknown {
	if (expects === 'list') return { object: 'list', data: [], total_available: 0, has_more: false };
	return { id: `${PREFIX[expects] ?? 'obj'}_garbage`, object: expects };
}

/** The host's own answer as JSON when it has one, else something of the expected shape. */
function actual(expects: string, reply?: Reply): unknown {
	if (!reply || !/json/.test(reply.headers['content-type'] ?? '')) return plausible(expects);
	return JSON.parse(reply.body.toString('utf8'));
}

export function garbage(kind: Garbage, status: number, expects: string, reply: Reply | undefined, headers: Record<string, string>): Reply {
	const json = (text: string): Reply => ({ status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(text) });
	const value = actual(expects, reply) as Record<string, unknown>;
	switch (kind) {
		case 'html': {
			const page = '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><h1>Checking your connection</h1><p>Please wait while the proxy verifies your request.</p></body></html>';
			return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body: Buffer.from(page) };
		}
		case 'invalidJson':
			return json(`{'id': '${PREFIX[expects] ?? 'obj'}_garbage', object: ${expects},}`);
		case 'empty':
			return json('');
		case 'noId': {
			const strip = (entry: unknown) => Object.fromEntries(Object.entries(entry as object).filter(([key]) => key !== 'id'));
			return json(JSON.stringify(Array.isArray(value.data) ? { ...value, data: value.data.map(strip) } : strip(value)));
		}
		case 'wrongObject':
			// A list path gets a lone object; an object path gets one of another kind.
			return json(JSON.stringify(expects === 'print' ? { id: 'bg_x', object: 'background' } : { id: 'print_x', object: 'print' }));
		case 'truncatedJson': {
			const text = JSON.stringify(value);
			return json(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
		}
		case 'jsonNull':
			return json('null');
		case 'jsonArray':
			return json('[]');
		case 'notList':
			return json(JSON.stringify({ items: Array.isArray(value.data) ? value.data : [], count: Array.isArray(value.data) ? value.data.length : 0 }));
	}
}

/** Which kind of answer a believing client expects from an API path, for garbage of the right shape. */
export function expects(method: string, path: string): string {
	const route = path.replace(/^\/v1(-moved)?/, '').replace(/\/+$/, '');
	if (method === 'GET' && /^\/(prints|backgrounds|mailing_lists|mailing_lists\/[^/]+\/recipients)$/.test(route)) return 'list';
	if (route.startsWith('/backgrounds')) return 'background';
	if (/^\/mailing_lists\/[^/]+\/recipients/.test(route)) return 'mailing_list_recipient';
	if (route.startsWith('/mailing_lists')) return 'mailing_list';
	if (route.startsWith('/tools/merge')) return 'merge';
	return 'print';
}
