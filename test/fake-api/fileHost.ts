import { hostRequest } from './elsewhere';
import { actsFirst, inject, takeFault, waitsBeforeActing } from './hostile';
import { queryText, readRaw, write, type IncomingMessage, type Reply, type ServerResponse } from './http';
import { extractPages } from './pdf';
import { letterheadPng } from './png';
import type { FakeIntelliprint, RecordedRequest } from './server';

const file = (type: string, data: Buffer): Reply => ({ status: 200, headers: { 'content-type': type }, body: data });
const text = (status: number, body: string, type = 'text/plain'): Reply => ({ status, headers: { 'content-type': type }, body: Buffer.from(body) });

async function fileReply(fake: FakeIntelliprint, method: string, path: string, body: Buffer): Promise<Reply> {
	if (method === 'POST' && path === '/notify') {
		fake.notifications.push(JSON.parse(body.toString('utf8') || '{}'));
		return file('application/json', Buffer.from('{"ok":true}'));
	}
	const demo = fake.published.get(path);
	if (demo) return file(demo.type, demo.data);
	const merge = /^\/merges\/(merge_[a-f0-9]+)\.pdf$/.exec(path);
	if (merge && fake.merges.merged.has(merge[1])) return file('application/pdf', fake.merges.merged.get(merge[1])!);
	const preview = /^\/backgrounds\/(bg_[a-f0-9]+)\.png$/.exec(path);
	if (preview && fake.backgrounds.backgrounds.has(preview[1])) return file('image/png', letterheadPng());
	const letterMatch = /^\/letters\/(ltr_[a-f0-9]+)\.pdf$/.exec(path);
	for (const job of fake.prints.jobs.values()) {
		const letter = letterMatch && job.letters.find((l) => l.id === letterMatch[1]);
		if (letter) return file('application/pdf', await extractPages(fake.prints.files.get(job.id)!.data, letter._pages ?? []));
	}
	return text(404, 'Not found');
}

/** Storage answers failures in its own words: an expired signed URL reads as S3's AccessDenied. */
function storageFailure(status: number): Reply {
	if (status === 403) return text(403, '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', 'application/xml');
	return text(status, `Injected fault (${status}).`);
}

/**
 * The separate file host: letter PDFs, merged PDFs, background previews, demo files, /notify (no API key; the
 * signed URL is the grant). `/moved/...` serves the same files, as the target of same-host redirects.
 * `apiBody` is set when the API's own host serves files and has already read the body.
 */
export async function serveFile(fake: FakeIntelliprint, req: IncomingMessage, res: ServerResponse, apiBody?: Buffer): Promise<RecordedRequest> {
	const url = new URL(req.url ?? '/', 'http://files');
	const method = req.method ?? 'GET';
	const path = url.pathname.replace(/^\/moved(?=\/)/, '');
	const record: RecordedRequest = { method, path: `files:${url.pathname}`, query: Object.fromEntries(url.searchParams), search: queryText(url), headers: req.headers, body: {}, status: 0 };
	fake.requests.push(record);
	const seen = hostRequest('files', req, url);
	if (!apiBody) fake.fileRequests.push(seen);
	const setStatus = (status: number) => {
		record.status = status;
		seen.status = status;
	};
	const body = apiBody ?? (await readRaw(req, 100 * 1024 * 1024));
	seen.bodyBytes = body.length;
	const fault = takeFault(fake.faults, 'files', method, path);
	if (fault && waitsBeforeActing(fault)) await fake.pause(fault.latencyMs ?? 0);
	const reply = !fault || actsFirst(fault) ? await fileReply(fake, method, path, body) : undefined;
	if (fault) {
		await inject(fault, {
			res, reply, expects: 'file', setStatus, pause: (ms) => fake.pause(ms),
			location: (to) => `${to === 'elsewhere' ? fake.elsewhereUrl : `${fake.fileUrl}/moved`}${path}${url.search}`,
			failure: (status, _fault, headers) => {
				const failure = storageFailure(status);
				return { ...failure, headers: { ...failure.headers, ...headers } };
			},
		});
		return record;
	}
	setStatus(reply!.status);
	write(res, reply!);
	return record;
}
