import connect from 'connect';

import { parseBody, summarise, type Field, type Fields } from './body';
import { brokenModesOf, type Modes } from './brokenModes';
import { BackgroundStore, MergeStore } from './backgrounds';
import { carriesKey, serveElsewhere, type HostRequest } from './elsewhere';
import { deliver, letterEvent, type Delivery, type FakeEvent, type WebhookTarget } from './events';
import { serveFile } from './fileHost';
import { historyEnvelope, type History, type HistoryOptions } from './history';
import { actsFirst, expects, inject, takeFault, waitsBeforeActing, type Fault } from './hostile';
import { ApiFailure, apiKeyOf, asFailure, failureReply, jsonReply, overLimit, publicView, queryText, readRaw, write, type IncomingMessage, type Reply, type ServerResponse } from './http';
import { listEnvelope, type SortFields } from './lists';
import { MailingListStore, type FakeMailingList } from './mailingLists';
import type { FakeOptions, RecordedRequest } from './options';
import { PrintStore, type FakePrintJob } from './prints';
import { route } from './routes';
import { TemplateStore } from './templates';

export type { FakeOptions, RecordedRequest } from './options';
export type { History, HistoryOptions } from './history';
export type { Fault, Garbage } from './hostile';
export type { HostRequest } from './elsewhere';
export type { Delivery, FakeEvent, WebhookTarget } from './events';
export { newSigningSecret } from './events';

type Server = ReturnType<ReturnType<typeof connect>['listen']>;

export class FakeIntelliprint {
	readonly apiKey: string;
	/** Every request the API host received, file-host requests too (path `files:/…`). */
	readonly requests: RecordedRequest[] = [];
	readonly faults: Fault[] = [];
	readonly prints: PrintStore;
	readonly backgrounds: BackgroundStore;
	readonly merges: MergeStore;
	readonly mailingLists: MailingListStore;
	/** The account's templates (no endpoint lists them; see templates.ts). */
	readonly templates = new TemplateStore();
	/** Endpoints signed events go to, as registered in the Intelliprint dashboard. */
	readonly webhookTargets: WebhookTarget[];
	/** Every webhook delivery attempt, in order. */
	readonly deliveries: Delivery[] = [];
	/** See FakeOptions.validationDelayMs. */
	validationDelayMs: number | false;
	/** Errors of work the fake did by itself (validation finished after validationDelayMs), which no request could report. */
	readonly backgroundFailures: unknown[] = [];
	rateLimit: FakeOptions['rateLimit'];
	rateLimited = 0;
	/** Added to every API answer (see FakeOptions.latencyMs). */
	latencyMs: number;
	/** See FakeOptions.readEachMs. */
	readEachMs: number;
	private readerFreeAt = 0;
	/** Every list answers its first page whatever `skip` says, with has_more while more exist. */
	ignoreSkip = false;
	/**
	 * Any service is taken to any country: a letter abroad on a UK service is made, as an API that posts it underpaid
	 * would (destinations.ts refuses it otherwise). What the node's own check of each answer is tested against.
	 */
	anyService = false;
	/**
	 * The order a new job's letters are listed in: as the recipients were sent, reversed, or shuffled (the API does not
	 * say it keeps the recipients' order; what leads a letter to its row must not rest on it).
	 */
	letterOrder: 'sent' | 'reversed' | 'shuffled' = 'sent';
	/** Print jobs answered without their price (`absent`) or with one that is not a number (`unreadable`). */
	withholdCost: false | 'absent' | 'unreadable' = false;
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
	private readonly scheduled = new Set<Promise<unknown>>();

	constructor(options: FakeOptions = {}) {
		this.options = options;
		this.apiKey = options.apiKey ?? 'test_key_123';
		this.rateLimit = options.rateLimit ?? { requests: 100, windowMs: 60_000 };
		this.maxBodyBytes = options.maxBodyBytes ?? 100 * 1024 * 1024;
		this.filesOnApiHost = options.filesOnApiHost ?? false;
		this.latencyMs = options.latencyMs ?? 0;
		this.readEachMs = options.readEachMs ?? 0;
		const signed = (path: string) => `${this.fileUrl}${path}?expires=${Math.floor(Date.now() / 1000) + 3600}`;
		this.backgrounds = new BackgroundStore((id) => signed(`/backgrounds/${id}.png`));
		this.merges = new MergeStore((id) => signed(`/merges/${id}.pdf`));
		this.mailingLists = new MailingListStore((id) => this.scheduleValidation(id));
		const lists = (id: string) => this.mailingLists.recipientsFor(id);
		this.prints = new PrintStore((id) => signed(`/letters/${id}.pdf`), (id) => this.backgrounds.backgrounds.has(id), lists, this.maxBodyBytes, (id) => this.templates.contentOf(id));
		this.prints.listingDelayMs = options.listingDelayMs ?? 0;
		this.validationDelayMs = options.validationDelayMs ?? false;
		this.webhookTargets = [...(options.webhooks ?? [])];
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
		this.readEachMs = this.options.readEachMs ?? 0;
		this.ignoreSkip = false;
		this.anyService = false;
		this.withholdCost = false;
		this.letterOrder = 'sent';
	}

	/** Requests that reached a host other than the API's carrying the API key (in a header, Basic credentials or the URL). */
	keyLeaks(): number {
		return [...this.fileRequests, ...this.elsewhere].filter((request) => carriesKey(request, this.apiKey)).length;
	}

	/** Puts a big sender's past print jobs (e.g. 510,000 over 30 days) on the account, held compactly: see history.ts. */
	seedHistory(options: HistoryOptions): History {
		return this.prints.seedHistory(options);
	}

	/** Every print job created through the API (seeded ones left out), in order, deleted drafts included. */
	createdPrintJobs(): FakePrintJob[] {
		return [...this.prints.created];
	}

	/** Registers an endpoint for signed events (`types` limits it to those event types). */
	addWebhook(url: string, secret: string, types?: string[]): void {
		this.webhookTargets.push({ url, secret, types });
	}

	/** Signs and POSTs an event to every registered endpoint that takes it; the attempts are also kept in `deliveries`. */
	async sendEvent(event: FakeEvent): Promise<Delivery[]> {
		return await deliver(this.webhookTargets, event, this.deliveries);
	}

	/** Sends a letter's `letter.updated` (or `mail.failed`) event, in the documented flat shape, from its current state. */
	async sendLetterEvent(letterId: string, type = 'letter.updated'): Promise<Delivery[]> {
		const job = [...this.prints.jobs.values()].find((entry) => entry.letters.some((letter) => letter.id === letterId));
		if (!job) throw new Error(`no letter ${letterId}`);
		return await this.sendEvent(letterEvent(type, job, letterId));
	}

	/**
	 * Finishes a list's pending address validation now (passed/failed by the fake's rule) and sends
	 * `mailing_list.addresses_validated` with the list; undefined, and no event, when nothing was pending.
	 */
	async completeValidation(listId: string): Promise<FakeMailingList | undefined> {
		const list = this.mailingLists.completeValidation(listId);
		if (list) await this.sendEvent({ type: 'mailing_list.addresses_validated', ...(publicView(list) as object) });
		return list;
	}

	/** Waits until every validation the fake finishes by itself (and its event) is done. */
	async settled(): Promise<void> {
		while (this.scheduled.size > 0) await Promise.all([...this.scheduled]);
	}

	private scheduleValidation(listId: string): void {
		if (this.validationDelayMs === false) return;
		const run = this.pause(this.validationDelayMs)
			.then(async () => {
				if (!this.stopping.signal.aborted && this.mailingLists.lists.has(listId)) await this.completeValidation(listId);
			})
			// Nobody awaits this work, so its failure is kept for tests to see rather than left unhandled.
			.catch((error: unknown) => void this.backgroundFailures.push(error))
			.finally(() => this.scheduled.delete(run));
		this.scheduled.add(run);
	}

	/** An accurate wait without a global timer (n8n's lint forbids them), cut short when the fake stops. */
	async pause(ms: number): Promise<void> {
		if (!(ms > 0) || this.stopping.signal.aborted) return;
		const signal = AbortSignal.any([AbortSignal.timeout(ms), this.stopping.signal]);
		await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
	}

	/** A busy API's one-at-a-time intake (readEachMs). */
	private async takeInTurn(): Promise<void> {
		if (!(this.readEachMs > 0)) return;
		const turn = Math.max(Date.now(), this.readerFreeAt) + this.readEachMs;
		this.readerFreeAt = turn;
		await this.pause(turn - Date.now());
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://fake');
		const method = req.method ?? 'GET';
		// A base URL of `<origin>/broken/<mode>/v1` asks for an API that breaks the node's contract (brokenModes.ts).
		let modes: Modes = new Set();
		try {
			({ modes, pathname: url.pathname } = brokenModesOf(url.pathname));
		} catch (error) {
			return write(res, failureReply(new ApiFailure(404, 'invalid_request_error', 'not_found', (error as Error).message)));
		}
		const record: RecordedRequest = {
			method, path: url.pathname, query: Object.fromEntries(url.searchParams), search: queryText(url), headers: req.headers,
			contentType: req.headers['content-type'], body: {}, status: 0, at: Date.now(),
		};
		this.requests.push(record);
		let reply: Reply;
		try {
			const raw = await readRaw(req, this.maxBodyBytes);
			await this.takeInTurn();
			const key = apiKeyOf(req);
			if (!key) throw new ApiFailure(401, 'authentication_error', 'no_api_key', 'No API key provided. Send it as a Bearer token in the Authorization header.');
			if (key !== this.apiKey) throw new ApiFailure(401, 'authentication_error', 'invalid_api_key', 'Invalid API key provided.');
			record.countedAt = Date.now();
			const limited = overLimit(this.sentAt, this.rateLimit, key);
			if (limited) {
				this.rateLimited++;
				// Recorded to tell whose requests were refused (several n8n workers on one key).
				record.body = summarise((await parseBody(raw, req.headers['content-type']).catch(() => ({}))) as Field) as Record<string, unknown>;
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
			if (fault) return await this.hostile(fault, method, url, fields, res, record, modes);
			reply = await this.act(method, url, fields, modes);
		} catch (error) {
			reply = failureReply(asFailure(error));
		}
		await this.pause(this.latencyMs);
		record.status = reply.status;
		record.answeredAt = Date.now();
		write(res, reply);
	}

	private async hostile(fault: Fault, method: string, url: URL, fields: Fields, res: ServerResponse, record: RecordedRequest, modes: Modes): Promise<void> {
		if (waitsBeforeActing(fault)) await this.pause(fault.latencyMs ?? 0);
		const reply = actsFirst(fault) ? await this.act(method, url, fields, modes) : undefined;
		await this.pause(this.latencyMs);
		const origin = this.url.replace(/\/v1$/, '');
		await inject(fault, {
			res, reply, expects: expects(method, url.pathname), pause: (ms) => this.pause(ms),
			setStatus: (status) => (record.status = status),
			location: (to) => (to === 'elsewhere' ? `${this.elsewhereUrl}${url.pathname}${url.search}` : `${origin}/v1-moved${url.pathname.replace(/^\/v1(-moved)?/, '')}${url.search}`),
			failure: (status, { error, body }, headers) => {
				if (body) return { status, headers: { ...headers, 'content-type': body.contentType }, body: Buffer.from(body.text) };
				const code = status === 429 ? 'rate_limited' : 'internal_error';
				const { type, message, param } = error ?? { type: code, message: 'Injected fault.', param: undefined };
				return failureReply(new ApiFailure(status, type, error?.code ?? code, message, param, headers));
			},
		});
	}

	/** The API's work and its answer; failures become answers too, so a fault can follow either. */
	private async act(method: string, url: URL, fields: Fields, modes: Modes): Promise<Reply> {
		try {
			const [status, body] = await route(this, method, url, fields, modes);
			return jsonReply(status, body);
		} catch (error) {
			return failureReply(asFailure(error));
		}
	}

	/** The API's list envelope (limit/skip, sort_field/sort_order when sort fields are given, fields). */
	listEnvelope<T extends { created?: number; _seq?: number }>(all: T[], query: URLSearchParams, sortFields?: SortFields<T>, ignoreSkip = this.ignoreSkip): unknown {
		return historyEnvelope(all, ignoreSkip) ?? listEnvelope(all, query, sortFields, ignoreSkip);
	}
}

/**
 * An API address where nothing listens: port 1, which nothing on these machines serves. (A fake started and
 * stopped would free its port for any test in another fork to take at once, and answer in its place.)
 */
export const CLOSED_API_URL = 'http://127.0.0.1:1/v1';

export async function startFakeIntelliprint(options: FakeOptions = {}): Promise<FakeIntelliprint> {
	return await new FakeIntelliprint(options).start();
}
