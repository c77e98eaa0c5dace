import connect from 'connect';

import { isFile, parseBody, type Field, type Fields } from './body';
import { ApiFailure, apiKeyOf, fail, publicView, readRaw, send, sendFailure, type IncomingMessage, type ServerResponse } from './http';
import { serveFile } from './fileHost';
import { BackgroundStore, MergeStore } from './backgrounds';
import { PrintStore } from './prints';

type Server = ReturnType<ReturnType<typeof connect>['listen']>;

export interface FakeOptions {
	apiKey?: string;
	/** The API allows 100 requests a minute; tests may shrink the window (same shape). */
	rateLimit?: { requests: number; windowMs: number } | false;
	maxBodyBytes?: number;
	/** Serve files from the API's own host (under /files, API key required) instead of a separate file host. */
	filesOnApiHost?: boolean;
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
	status: number;
}

/** A fault to inject: answer `status` (or drop the connection), before or after the API acts. */
export interface Fault {
	method?: string;
	path?: RegExp;
	status?: number;
	drop?: boolean;
	/** Act on the request first (as a real server that fails while answering). */
	afterActing?: boolean;
	times?: number;
	headers?: Record<string, string>;
	/** Answer with this API error body instead of a bare fault. */
	error?: { type: string; code: string; message: string; param?: string };
}

const summarise = (value: Field): unknown => {
	if (isFile(value)) return { fileName: value.fileName, contentType: value.contentType, size: value.data.length };
	if (Array.isArray(value)) return value.map(summarise);
	if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, summarise(v)]));
	return value;
};

export class FakeIntelliprint {
	readonly apiKey: string;
	readonly requests: RecordedRequest[] = [];
	readonly faults: Fault[] = [];
	readonly prints: PrintStore;
	readonly backgrounds: BackgroundStore;
	readonly merges: MergeStore;
	rateLimit: FakeOptions['rateLimit'];
	rateLimited = 0;
	/** Bodies POSTed to the file host's /notify: stands in for a chat or email service in examples. */
	readonly notifications: unknown[] = [];
	/** Files published on the file host under /demo (the sandbox's sample PDFs). */
	readonly published = new Map<string, { type: string; data: Buffer }>();
	url = '';
	fileUrl = '';
	private readonly sentAt = new Map<string, number[]>();
	private api?: Server;
	private files?: Server;
	private readonly maxBodyBytes: number;
	private readonly filesOnApiHost: boolean;

	constructor(options: FakeOptions = {}) {
		this.apiKey = options.apiKey ?? 'test_key_123';
		this.rateLimit = options.rateLimit ?? { requests: 100, windowMs: 60_000 };
		this.maxBodyBytes = options.maxBodyBytes ?? 100 * 1024 * 1024;
		this.filesOnApiHost = options.filesOnApiHost ?? false;
		const signed = (path: string) => `${this.fileUrl}${path}?expires=${Math.floor(Date.now() / 1000) + 3600}`;
		this.backgrounds = new BackgroundStore((id) => signed(`/backgrounds/${id}.png`));
		this.merges = new MergeStore((id) => signed(`/merges/${id}.pdf`));
		this.prints = new PrintStore((id) => signed(`/letters/${id}.pdf`), (id) => this.backgrounds.backgrounds.has(id));
	}

	async start(port = 0, host = '127.0.0.1', filesPort = 0): Promise<this> {
		const listen = (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>, onPort: number) =>
			new Promise<Server>((resolve) => {
				const app = connect().use((req, res) => void handler(req, res));
				const server: Server = app.listen(onPort, host, () => resolve(server));
			});
		this.api = await listen((req, res) => this.handle(req, res), port);
		this.files = await listen((req, res) => this.serveFile(req, res), filesPort);
		this.url = `http://${host}:${(this.api.address() as { port: number }).port}/v1`;
		this.fileUrl = this.filesOnApiHost
			? `${this.url.replace(/\/v1$/, '')}/files`
			: `http://${host}:${(this.files.address() as { port: number }).port}`;
		return this;
	}

	async stop(): Promise<void> {
		for (const server of [this.api, this.files]) {
			if (!server) continue;
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	}

	/** Serves a file at `${fileUrl}/demo/<name>`, and returns that URL. */
	publish(name: string, data: Buffer, type = 'application/pdf'): string {
		this.published.set(`/demo/${name}`, { type, data });
		return `${this.fileUrl}/demo/${name}`;
	}

	/** Forgets recorded requests and the rate-limit history (jobs are kept). */
	resetRecording(): void {
		this.requests.length = 0;
		this.sentAt.clear();
		this.rateLimited = 0;
	}

	private checkRateLimit(key: string): void {
		if (!this.rateLimit) return;
		const { requests, windowMs } = this.rateLimit;
		const now = Date.now();
		const log = (this.sentAt.get(key) ?? []).filter((time) => time > now - windowMs);
		this.sentAt.set(key, log);
		if (log.length >= requests) {
			this.rateLimited++;
			const retryAfter = Math.max(1, Math.ceil((log[0] + windowMs - now) / 1000));
			throw new ApiFailure(429, 'rate_limited', 'rate_limited', 'Too many requests. Please slow down.', undefined, { 'retry-after': String(retryAfter) });
		}
		log.push(now);
	}

	private takeFault(method: string, path: string): Fault | undefined {
		const index = this.faults.findIndex((f) => (!f.method || f.method === method) && (!f.path || f.path.test(path)));
		if (index === -1) return undefined;
		const fault = this.faults[index];
		fault.times = (fault.times ?? 1) - 1;
		if (fault.times <= 0) this.faults.splice(index, 1);
		return fault;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://fake');
		const method = req.method ?? 'GET';
		const record: RecordedRequest = {
			method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers,
			contentType: req.headers['content-type'], body: {}, status: 0,
		};
		this.requests.push(record);
		const answer = (status: number, body: unknown, headers?: Record<string, string>) => {
			record.status = status;
			send(res, status, body, headers);
		};
		try {
			const raw = await readRaw(req, this.maxBodyBytes);
			const key = apiKeyOf(req);
			if (!key) throw new ApiFailure(401, 'authentication_error', 'no_api_key', 'No API key provided. Send it as a Bearer token in the Authorization header.');
			if (key !== this.apiKey) throw new ApiFailure(401, 'authentication_error', 'invalid_api_key', 'Invalid API key provided.');
			this.checkRateLimit(key);
			if (this.filesOnApiHost && url.pathname.startsWith('/files/')) {
				record.status = 200;
				req.url = url.pathname.slice('/files'.length) + url.search;
				return await this.serveFile(req, res);
			}
			const fields = await parseBody(raw, req.headers['content-type']);
			record.body = summarise(fields as Field) as Record<string, unknown>;
			if (raw.length < 65536 && !/multipart/.test(record.contentType ?? '')) record.raw = raw.toString('utf8');
			const fault = this.takeFault(method, url.pathname);
			if (fault && !fault.afterActing) return this.injectFault(fault, res, record);
			const [status, body] = await this.route(method, url, fields);
			if (fault) return this.injectFault(fault, res, record);
			answer(status, body);
		} catch (error) {
			if (error instanceof ApiFailure) {
				record.status = error.status;
				return sendFailure(res, error);
			}
			record.status = 500;
			sendFailure(res, new ApiFailure(500, 'internal_error', 'internal_error', `Internal error: ${(error as Error).message}`));
		}
	}

	private injectFault(fault: Fault, res: ServerResponse, record: RecordedRequest): void {
		if (fault.drop) {
			record.status = -1;
			res.socket?.destroy();
			return;
		}
		record.status = fault.status ?? 500;
		const code = record.status === 429 ? 'rate_limited' : 'internal_error';
		const error = fault.error ?? { type: code, code, message: 'Injected fault.' };
		sendFailure(res, new ApiFailure(record.status, error.type, error.code, error.message, error.param, fault.headers ?? {}));
	}

	private async route(method: string, url: URL, fields: Fields): Promise<[number, unknown]> {
		const path = url.pathname.replace(/\/+$/, '');
		const match = /^\/v1\/prints(?:\/([^/]+))?$/.exec(path);
		if (match) {
			const id = match[1] ? decodeURIComponent(match[1]) : undefined;
			if (!id && method === 'POST') return [200, publicView(await this.prints.create(fields))];
			if (!id && method === 'GET') return [200, this.listEnvelope(this.prints.list(url.searchParams), url.searchParams)];
			if (id && method === 'GET') return [200, publicView(this.prints.get(id))];
			if (id && method === 'POST') return [200, publicView(await this.prints.update(id, fields))];
			if (id && method === 'DELETE') return [200, publicView(this.prints.remove(id))];
		}
		const background = /^\/v1\/backgrounds(?:\/([^/]+))?$/.exec(path);
		if (background) {
			const id = background[1] ? decodeURIComponent(background[1]) : undefined;
			if (!id && method === 'POST') return [200, publicView(this.backgrounds.create(fields))];
			if (!id && method === 'GET') return [200, this.listEnvelope(this.backgrounds.list(url.searchParams), url.searchParams)];
			if (id && method === 'GET') return [200, publicView(this.backgrounds.get(id))];
			// The reference says PATCH; the official SDK sends POST to the same path.
			if (id && (method === 'PATCH' || method === 'POST')) return [200, publicView(this.backgrounds.update(id, fields))];
			if (id && method === 'DELETE') return [200, this.backgrounds.remove(id)];
		}
		if (path === '/v1/tools/merge' && method === 'POST') return [200, await this.merges.merge(fields)];
		throw fail.notFound(`${method} ${url.pathname}`);
	}

	listEnvelope(all: unknown[], query: URLSearchParams): unknown {
		const limit = query.has('limit') ? Number(query.get('limit')) : 10;
		const skip = query.has('skip') ? Number(query.get('skip')) : 0;
		if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw fail.invalid('parameter_invalid', 'Invalid value for limit: must be a whole number from 1 to 1000.', 'limit');
		if (!Number.isInteger(skip) || skip < 0) throw fail.invalid('parameter_invalid', 'Invalid value for skip: must be a whole number of 0 or more.', 'skip');
		const data = all.slice(skip, skip + limit).map((entry) => publicView(entry));
		return { object: 'list', data, total_available: all.length, has_more: skip + data.length < all.length };
	}

	private async serveFile(req: IncomingMessage, res: ServerResponse): Promise<void> {
		await serveFile(this, req, res);
	}
}

export async function startFakeIntelliprint(options: FakeOptions = {}): Promise<FakeIntelliprint> {
	return await new FakeIntelliprint(options).start();
}
