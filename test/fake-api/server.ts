import connect from 'connect';

import { parseBody, summarise, type Field, type Fields } from './body';
import { BackgroundStore, MergeStore } from './backgrounds';
import { carriesKey, serveElsewhere, type HostRequest } from './elsewhere';
import { serveFile } from './fileHost';
import { actsFirst, expects, inject, takeFault, waitsBeforeActing, type Fault } from './hostile';
import { ApiFailure, apiKeyOf, asFailure, fail, failureReply, jsonReply, overLimit, publicView, readRaw, write, type IncomingMessage, type Reply, type ServerResponse } from './http';
import { BACKGROUND_SORTS, listEnvelope, PRINT_SORTS, type SortFields } from './lists';
import { PrintStore, type FakePrintJob } from './prints';

export type { Fault, Garbage } from './hostile';
export type { HostRequest } from './elsewhere';

type Server = ReturnType<ReturnType<typeof connect>['listen']>;

export interface FakeOptions {
	apiKey?: string;
	/** The API allows 100 requests a minute; tests may shrink the window (same shape). */
	rateLimit?: { requests: number; windowMs: number } | false;
	maxBodyBytes?: number;
	/** Serve files from the API's own host (under /files, API key required) instead of a separate file host. */
	filesOnApiHost?: boolean;
	/** Wait this long before every API answer, after the work is done (a slow server, for benchmarks). */
	latencyMs?: number;
	/** Where the foreign "elsewhere" host listens (default: the API's host, on its own port). */
	elsewhereHost?: string;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	contentType?: string;
	/** Parsed body; files are summarised as { fileName, contentType, size }. */
	body: Record<string, unknown>;
	/** Raw body text for small non-file bodies, to check the wire format. */
	raw?: string;
	/** -1 for a dropped or reset connection, 0 for a hang (or a request still in progress). */
	status: number;
}

export class FakeIntelliprint {
	readonly apiKey: string;
	/** Every request the API host received, file-host requests too (path `files:/…`). */
	readonly requests: RecordedRequest[] = [];
	readonly faults: Fault[] = [];
	readonly prints: PrintStore;
	readonly backgrounds: BackgroundStore;
	readonly merges: MergeStore;
	rateLimit: FakeOptions['rateLimit'];
	rateLimited = 0;
	/** Added to every API answer (see FakeOptions.latencyMs). */
	latencyMs: number;
	/** Every list answers its first page whatever `skip` says, with has_more while more exist. */
	ignoreSkip = false;
	/** Requests that reached the separate file host. */
	readonly fileRequests: HostRequest[] = [];
	/** Requests that reached the foreign host redirects point to. */
	readonly elsewhere: HostRequest[] = [];
	/** Bodies POSTed to the file host's /notify: stands in for a chat or email service in examples. */
	readonly notifications: unknown[] = [];
	/** Files published on the file host under /demo (the sandbox's sample PDFs). */
	readonly published = new Map<string, { type: string; data: Buffer }>();
	url = '';
	fileUrl = '';
	elsewhereUrl = '';
	private readonly sentAt = new Map<string, number[]>();
	private servers: Server[] = [];
	private stopping = new AbortController();
	private readonly maxBodyBytes: number;
	private readonly filesOnApiHost: boolean;
	private readonly options: FakeOptions;

	constructor(options: FakeOptions = {}) {
		this.options = options;
		this.apiKey = options.apiKey ?? 'test_key_123';
		this.rateLimit = options.rateLimit ?? { requests: 100, windowMs: 60_000 };
		this.maxBodyBytes = options.maxBodyBytes ?? 100 * 1024 * 1024;
		this.filesOnApiHost = options.filesOnApiHost ?? false;
		this.latencyMs = options.latencyMs ?? 0;
		const signed = (path: string) => `${this.fileUrl}${path}?expires=${Math.floor(Date.now() / 1000) + 3600}`;
		this.backgrounds = new BackgroundStore((id) => signed(`/backgrounds/${id}.png`));
		this.merges = new MergeStore((id) => signed(`/merges/${id}.pdf`));
		this.prints = new PrintStore((id) => signed(`/letters/${id}.pdf`), (id) => this.backgrounds.backgrounds.has(id));
	}

	async start(port = 0, host = '127.0.0.1', filesPort = 0, elsewherePort = 0): Promise<this> {
		this.stopping = new AbortController();
		const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>, onPort: number, onHost = host) => {
			const server = await new Promise<Server>((resolve) => {
				// A client that hangs up mid-request must not become an unhandled rejection.
				const app = connect().use((req, res) => void handler(req, res).catch(() => res.destroy()));
				const listening: Server = app.listen(onPort, onHost, () => resolve(listening));
			});
			this.servers.push(server);
			return `http://${onHost}:${(server.address() as { port: number }).port}`;
		};
		this.url = `${await listen((req, res) => this.handle(req, res), port)}/v1`;
		const files = await listen(async (req, res) => void (await serveFile(this, req, res)), filesPort);
		this.elsewhereUrl = await listen((req, res) => serveElsewhere(this.elsewhere, req, res), elsewherePort, this.options.elsewhereHost);
		this.fileUrl = this.filesOnApiHost ? `${this.url.replace(/\/v1$/, '')}/files` : files;
		return this;
	}

	async stop(): Promise<void> {
		// Ends every pending latency wait, so a slow answer cannot outlive the fake.
		this.stopping.abort();
		for (const server of this.servers.splice(0)) {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	}

	/** Serves a file at `${fileUrl}/demo/<name>`, and returns that URL. */
	publish(name: string, data: Buffer, type = 'application/pdf'): string {
		this.published.set(`/demo/${name}`, { type, data });
		return `${this.fileUrl}/demo/${name}`;
	}

	/** Forgets recorded requests (all hosts) and the rate-limit history (jobs are kept). */
	resetRecording(): void {
		this.requests.length = 0;
		this.fileRequests.length = 0;
		this.elsewhere.length = 0;
		this.sentAt.clear();
		this.rateLimited = 0;
	}

	/** Back to a well-behaved server: no faults, no added latency, skip honoured. */
	calm(): void {
		this.faults.length = 0;
		this.latencyMs = this.options.latencyMs ?? 0;
		this.ignoreSkip = false;
	}

	/** Requests that reached a host other than the API's carrying the API key (in a header, Basic credentials or the URL). */
	keyLeaks(): number {
		return [...this.fileRequests, ...this.elsewhere].filter((request) => carriesKey(request, this.apiKey)).length;
	}

	/** Every print job created through the API (seeded ones left out), in order, deleted drafts included. */
	createdPrintJobs(): FakePrintJob[] {
		return [...this.prints.created];
	}

	/** An accurate wait without a global timer (n8n's lint forbids them), cut short when the fake stops. */
	async pause(ms: number): Promise<void> {
		if (!(ms > 0) || this.stopping.signal.aborted) return;
		const signal = AbortSignal.any([AbortSignal.timeout(ms), this.stopping.signal]);
		await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://fake');
		const method = req.method ?? 'GET';
		const record: RecordedRequest = {
			method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers,
			contentType: req.headers['content-type'], body: {}, status: 0,
		};
		this.requests.push(record);
		let reply: Reply;
		try {
			const raw = await readRaw(req, this.maxBodyBytes);
			const key = apiKeyOf(req);
			if (!key) throw new ApiFailure(401, 'authentication_error', 'no_api_key', 'No API key provided. Send it as a Bearer token in the Authorization header.');
			if (key !== this.apiKey) throw new ApiFailure(401, 'authentication_error', 'invalid_api_key', 'Invalid API key provided.');
			const limited = overLimit(this.sentAt, this.rateLimit, key);
			if (limited) {
				this.rateLimited++;
				throw limited;
			}
			if (this.filesOnApiHost && url.pathname.startsWith('/files/')) {
				req.url = url.pathname.slice('/files'.length) + url.search;
				record.status = (await serveFile(this, req, res, raw)).status;
				return;
			}
			const fields = await parseBody(raw, req.headers['content-type']);
			record.body = summarise(fields as Field) as Record<string, unknown>;
			if (raw.length < 65536 && !/multipart/.test(record.contentType ?? '')) record.raw = raw.toString('utf8');
			const fault = takeFault(this.faults, 'api', method, url.pathname);
			if (fault) return await this.hostile(fault, method, url, fields, res, record);
			reply = await this.act(method, url, fields);
		} catch (error) {
			reply = failureReply(asFailure(error));
		}
		await this.pause(this.latencyMs);
		record.status = reply.status;
		write(res, reply);
	}

	private async hostile(fault: Fault, method: string, url: URL, fields: Fields, res: ServerResponse, record: RecordedRequest): Promise<void> {
		if (waitsBeforeActing(fault)) await this.pause(fault.latencyMs ?? 0);
		const reply = actsFirst(fault) ? await this.act(method, url, fields) : undefined;
		await this.pause(this.latencyMs);
		const origin = this.url.replace(/\/v1$/, '');
		await inject(fault, {
			res, reply, expects: expects(method, url.pathname), pause: (ms) => this.pause(ms),
			setStatus: (status) => (record.status = status),
			location: (to) => (to === 'elsewhere' ? `${this.elsewhereUrl}${url.pathname}${url.search}` : `${origin}/v1-moved${url.pathname.replace(/^\/v1(-moved)?/, '')}${url.search}`),
			failure: (status, { error }, headers) => {
				const code = status === 429 ? 'rate_limited' : 'internal_error';
				const { type, message, param } = error ?? { type: code, message: 'Injected fault.', param: undefined };
				return failureReply(new ApiFailure(status, type, error?.code ?? code, message, param, headers));
			},
		});
	}

	/** The API's work and its answer; failures become answers too, so a fault can follow either. */
	private async act(method: string, url: URL, fields: Fields): Promise<Reply> {
		try {
			const [status, body] = await this.route(method, url, fields);
			return jsonReply(status, body);
		} catch (error) {
			return failureReply(asFailure(error));
		}
	}

	private async route(method: string, url: URL, fields: Fields): Promise<[number, unknown]> {
		// `/v1-moved` is the same API under another path: the target of same-host redirects.
		const path = url.pathname.replace(/^\/v1-moved(?=\/|$)/, '/v1').replace(/\/+$/, '');
		const match = /^\/v1\/prints(?:\/([^/]+))?$/.exec(path);
		if (match) {
			const id = match[1] ? decodeURIComponent(match[1]) : undefined;
			if (!id && method === 'POST') return [200, publicView(await this.prints.create(fields))];
			if (!id && method === 'GET') return [200, this.listEnvelope(this.prints.list(url.searchParams), url.searchParams, PRINT_SORTS)];
			if (id && method === 'GET') return [200, publicView(this.prints.get(id))];
			if (id && method === 'POST') return [200, publicView(await this.prints.update(id, fields))];
			if (id && method === 'DELETE') return [200, publicView(this.prints.remove(id))];
		}
		const background = /^\/v1\/backgrounds(?:\/([^/]+))?$/.exec(path);
		if (background) {
			const id = background[1] ? decodeURIComponent(background[1]) : undefined;
			if (!id && method === 'POST') return [200, publicView(this.backgrounds.create(fields))];
			if (!id && method === 'GET') return [200, this.listEnvelope(this.backgrounds.list(url.searchParams), url.searchParams, BACKGROUND_SORTS)];
			if (id && method === 'GET') return [200, publicView(this.backgrounds.get(id))];
			// The reference says PATCH; the official SDK sends POST to the same path.
			if (id && (method === 'PATCH' || method === 'POST')) return [200, publicView(this.backgrounds.update(id, fields))];
			if (id && method === 'DELETE') return [200, this.backgrounds.remove(id)];
		}
		if (path === '/v1/tools/merge' && method === 'POST') return [200, await this.merges.merge(fields)];
		throw fail.notFound(`${method} ${url.pathname}`);
	}

	/** The API's list envelope (limit/skip, sort_field/sort_order when sort fields are given, fields). */
	listEnvelope<T extends { created?: number; _seq?: number }>(all: T[], query: URLSearchParams, sortFields?: SortFields<T>): unknown {
		return listEnvelope(all, query, sortFields, this.ignoreSkip);
	}
}

export async function startFakeIntelliprint(options: FakeOptions = {}): Promise<FakeIntelliprint> {
	return await new FakeIntelliprint(options).start();
}
