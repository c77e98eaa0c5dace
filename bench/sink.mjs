#!/usr/bin/env node
// A sink API for bench/nodeTime.mjs: answers like Intelliprint would, at once, and keeps only what the node reads
// back. Unlike the fake API (test/fake-api) it renders nothing and checks nothing, so the time a run takes is the
// node's and n8n's. Run on its own (`node bench/sink.mjs [port]`: it prints `sink listening on <url>`) or import
// startSink(). POST /_reset forgets every job and list (each bench case starts on an empty account).
//
// Routes (JSON in, JSON out):
//   POST   /prints              → a print job: its letters one per recipient (or per mailing list recipient), its
//                                 metadata as sent, postage.service as sent (uk_second_class by default), costs.
//   GET    /prints              → a list envelope, filtered on testmode / confirmed / reference, sorted on created
//                                 (desc unless sort_order=asc, then by ID), limit/skip, fields[] projection,
//                                 total_available and has_more consistent (transport/contractChecks.ts).
//   GET    /prints/{id}         → the job.        POST /prints/{id} → the job updated (confirmed: true confirms it).
//   DELETE /prints/{id}         → a draft deleted ({ id, object: 'print', deleted: true }), a confirmed job cancelled.
//   POST   /mailing_lists       → a mailing list (mal_…) with the recipients sent; POST /mailing_lists/{id} appends.
//   GET    /mailing_lists(/{id}) → the list envelope / the list.
// Ids carry the prefixes transport/request.ts EXPECT asks for (print_, ltr_, mal_).
import { createHash } from 'node:crypto';
import http from 'node:http';

const PENCE = 1_000_000; // amounts are integers with 8 implied decimals (results/output.ts): 1p = 1,000,000
const now = () => Math.floor(Date.now() / 1000);

export function createSink() {
	let counter = 0;
	const id = (prefix) => `${prefix}${(++counter).toString(36).padStart(8, '0')}${Math.random().toString(36).slice(2, 8)}`;
	const jobs = new Map();
	const lists = new Map();
	let seq = 0;
	const stats = { requests: 0, byRoute: {} };
	// A digest of every JSON body received (order aside): two builds of the node that send the same requests match.
	let bodyHashes = [];

	const letterOf = (recipient, job) => ({
		id: id('ltr_'), object: 'letter', status: job.confirmed ? 'waiting_to_print' : 'draft',
		address: { name: recipient.address?.name ?? null, line: recipient.address?.line ?? null, postcode: recipient.address?.postcode ?? null, country: recipient.address?.country ?? 'GB' },
		postage_service: job.postage.service, envelope: 'c5', pages: 1, sheets: 1, tracking_number: null, shipped_date: null, returned: null, pdf: null,
		cost: { amount: 85 * PENCE, after_tax: 102 * PENCE, currency: 'GBP' },
	});
	const costUp = (job) => {
		const amount = job.letters.reduce((sum, letter) => sum + (letter.status === 'cancelled' ? 0 : letter.cost.amount), 0);
		job.cost = { amount, after_tax: Math.round(amount * 1.2), currency: 'GBP' };
		job.pages = job.letters.length;
		job.sheets = job.letters.length;
	};

	function createPrint(body) {
		const confirmed = body.confirmed === true || body.confirmed === 'true';
		const job = {
			id: id('print_'), object: 'print', type: body.type ?? 'letter', reference: body.reference ?? null, confirmed, confirmed_at: confirmed ? now() : null,
			testmode: body.testmode === true || body.testmode === 'true', created: now(), _seq: ++seq,
			metadata: body.metadata ?? {}, postage: { service: body.postage?.service ?? 'uk_second_class', mail_date: null }, letters: [],
		};
		const recipients = Array.isArray(body.recipients) ? body.recipients : typeof body.mailing_list === 'string' ? (lists.get(body.mailing_list)?.recipients ?? []) : [];
		job.letters = recipients.map((recipient) => letterOf(recipient, job));
		if (typeof body.mailing_list === 'string') job.mailing_list = body.mailing_list;
		costUp(job);
		jobs.set(job.id, job);
		return [200, job];
	}

	function updatePrint(job, body) {
		if (body.confirmed === true && !job.confirmed) {
			job.confirmed = true;
			job.confirmed_at = now();
			for (const letter of job.letters) letter.status = 'waiting_to_print';
		}
		for (const key of ['reference', 'metadata']) if (body[key] !== undefined) job[key] = body[key];
		return [200, job];
	}

	function listPrints(query) {
		let entries = [...jobs.values()];
		for (const field of ['testmode', 'confirmed']) {
			const value = query.get(field);
			if (value === 'true' || value === 'false') entries = entries.filter((job) => job[field] === (value === 'true'));
		}
		if (query.has('reference')) entries = entries.filter((job) => job.reference === query.get('reference'));
		const asc = query.get('sort_order') === 'asc';
		entries.sort((a, b) => (a.created - b.created || a._seq - b._seq) * (asc ? 1 : -1));
		const skip = Number(query.get('skip')) || 0;
		const limit = Math.min(Number(query.get('limit')) || 10, 1000);
		const fields = query.getAll('fields[]');
		const page = entries.slice(skip, skip + limit).map((job) => (fields.length ? Object.fromEntries(['id', ...fields].map((field) => [field, job[field] ?? null])) : job));
		return [200, { object: 'list', data: page, total_available: entries.length, has_more: skip + page.length < entries.length }];
	}

	const listView = (list) => ({
		id: list.id, object: 'mailing_list', name: list.name, recipients: list.recipients.length,
		variables: [...new Set(list.recipients.slice(0, 100).flatMap((recipient) => Object.keys(recipient.variables ?? {})))].sort(),
		address_validation: { requested: list.requested, completed: !list.requested, recipients: { passed: 0, failed: 0 } }, created: list.created,
	});

	function route(method, path, query, body) {
		const parts = path.split('/').filter(Boolean);
		if (parts[0] === 'prints') {
			if (parts.length === 1) return method === 'POST' ? createPrint(body) : method === 'GET' ? listPrints(query) : undefined;
			const job = jobs.get(parts[1]);
			if (!job) return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such print: ${parts[1]}` } }];
			if (method === 'GET') return [200, job];
			if (method === 'POST') return updatePrint(job, body);
			if (method === 'DELETE') {
				if (!job.confirmed) {
					jobs.delete(job.id);
					return [200, { id: job.id, object: 'print', deleted: true }];
				}
				for (const letter of job.letters) if (letter.status === 'waiting_to_print') letter.status = 'cancelled';
				costUp(job);
				return [200, job];
			}
		}
		if (parts[0] === 'mailing_lists') {
			if (parts.length === 1 && method === 'POST') {
				const list = { id: id('mal_'), name: body.name ?? '', requested: body.address_validation?.requested === true, recipients: [...(body.recipients ?? [])], created: now() };
				lists.set(list.id, list);
				return [200, listView(list)];
			}
			if (parts.length === 1 && method === 'GET') {
				const all = [...lists.values()].map(listView);
				return [200, { object: 'list', data: all, total_available: all.length, has_more: false }];
			}
			const list = lists.get(parts[1]);
			if (!list) return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such mailing list: ${parts[1]}` } }];
			if (parts.length === 2 && method === 'GET') return [200, listView(list)];
			if (parts.length === 2 && method === 'POST') {
				if (body.delete_old_recipients === true) list.recipients = [];
				if (Array.isArray(body.recipients)) for (const recipient of body.recipients) list.recipients.push(recipient);
				if (typeof body.name === 'string') list.name = body.name;
				return [200, listView(list)];
			}
		}
		return undefined;
	}

	const server = http.createServer((request, response) => {
		const chunks = [];
		request.on('data', (chunk) => chunks.push(chunk));
		request.on('end', () => {
			const url = new URL(request.url, 'http://sink');
			if (!url.pathname.startsWith('/_')) {
				if (process.env.SINK_LOG) process.stderr.write(`sink: ${new Date().toISOString().slice(11, 23)} ${request.method} ${decodeURIComponent(request.url).slice(0, 200)}\n`);
				stats.requests++;
				const routeName = `${request.method} ${url.pathname.replace(/\/(print|mal)_[a-z0-9]+/, '/{id}')}`;
				stats.byRoute[routeName] = (stats.byRoute[routeName] ?? 0) + 1;
			}
			let status;
			let answer;
			if (request.method === 'POST' && url.pathname === '/_reset') {
				jobs.clear();
				lists.clear();
				bodyHashes = [];
				stats.requests = 0;
				stats.byRoute = {};
				[status, answer] = [200, { ok: true }];
			} else if (request.method === 'GET' && url.pathname === '/_stats') {
				const bodies = createHash('sha256').update(bodyHashes.sort().join('\n')).digest('hex').slice(0, 16);
				[status, answer] = [200, { ...stats, jobs: jobs.size, lists: lists.size, bodies }];
			} else {
				let body = {};
				const text = Buffer.concat(chunks).toString('utf8');
				const type = String(request.headers['content-type'] ?? '');
				try {
					if (type.startsWith('multipart/form-data')) body = formFields(text, /boundary=(?:"([^"]+)"|([^;]+))/.exec(type));
					else if (text) {
						body = JSON.parse(text);
						bodyHashes.push(createHash('sha256').update(`${request.method} ${url.pathname.split('/')[1]}\n${text}`).digest('hex'));
					}
				} catch {
					[status, answer] = [415, { error: { type: 'invalid_request_error', message: 'The sink takes JSON or multipart text fields only' } }];
				}
				if (!answer) [status, answer] = route(request.method, url.pathname, url.searchParams, body) ?? [404, { error: { type: 'invalid_request_error', message: `No route ${request.method} ${url.pathname}` } }];
			}
			const out = JSON.stringify(answer, (key, value) => (key === '_seq' ? undefined : value));
			response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out), 'Request-Id': `req_${stats.requests}` });
			response.end(out);
		});
	});
	return { server, stats };
}

/**
 * A multipart body's text fields (an update, e.g. confirmed=true, goes as a form: building/printJobUpdate.ts), as the
 * API reads them: `a[b]` nests, "true"/"false" are booleans. Files are not taken.
 */
function formFields(text, boundaryMatch) {
	const boundary = boundaryMatch?.[1] ?? boundaryMatch?.[2];
	const fields = {};
	for (const part of text.split(`--${boundary}`)) {
		const [head, ...rest] = part.split('\r\n\r\n');
		const name = /name="([^"]*)"/.exec(head)?.[1];
		if (!name || /filename=/.test(head)) continue;
		let value = rest.join('\r\n\r\n').replace(/\r\n$/, '');
		if (value === 'true' || value === 'false') value = value === 'true';
		const path = name.replace(/\]/g, '').split('[');
		let at = fields;
		for (const step of path.slice(0, -1)) at = at[step] ??= {};
		at[path[path.length - 1]] = value;
	}
	return fields;
}

/** Starts a sink on 127.0.0.1 (port 0: any free one); resolves to its base URL and a stop(). */
export async function startSink(port = 0) {
	const { server, stats } = createSink();
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}`;
	return { url, stats, stop: () => new Promise((resolve) => server.close(resolve)) };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
	const sink = await startSink(Number(process.argv[2] || 0));
	process.stdout.write(`sink listening on ${sink.url}\n`);
}
