import { jsonReply, readRaw, write, type IncomingMessage, type Reply, type ServerResponse } from './http';

/** A request as a host other than the API saw it: enough to tell whether the API key went along. */
export interface HostRequest {
	host: 'files' | 'elsewhere';
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	bodyBytes: number;
	/** -1 for a reset, 0 for a hang (or a request still in progress). */
	status: number;
}

export function hostRequest(host: HostRequest['host'], req: IncomingMessage, url: URL): HostRequest {
	return { host, method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, bodyBytes: 0, status: 0 };
}

/** What a client following a redirect would take for success, so that only the record tells the truth. */
function believable(method: string, path: string): Reply {
	if (/\.pdf$/.test(path)) {
		return { status: 200, headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') };
	}
	if (method === 'GET' && /\/(prints|backgrounds|mailing_lists|recipients)$/.test(path)) return jsonReply(200, { object: 'list', data: [], total_available: 0, has_more: false });
	if (/\/recipients/.test(path)) return jsonReply(200, { id: 'mlr_elsewhere', object: 'mailing_list_recipient' });
	if (/\/mailing_lists/.test(path)) return jsonReply(200, { id: 'mal_elsewhere', object: 'mailing_list' });
	if (/\/backgrounds/.test(path)) return jsonReply(200, { id: 'bg_elsewhere', object: 'background' });
	if (/\/tools\/merge/.test(path)) return jsonReply(200, { id: 'merge_elsewhere', object: 'merge', download_link: 'http://elsewhere.invalid/merged.pdf' });
	return jsonReply(200, { id: 'print_elsewhere', object: 'print' });
}

/** The foreign host that redirects point to: it records everything and always says yes. */
export async function serveElsewhere(log: HostRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://elsewhere');
	const seen = hostRequest('elsewhere', req, url);
	log.push(seen);
	seen.bodyBytes = (await readRaw(req, Number.MAX_SAFE_INTEGER)).length;
	const reply = believable(seen.method, seen.path);
	seen.status = reply.status;
	write(res, reply);
}

/** Whether the key travels in any header (plainly, or inside Basic credentials) or in the URL. */
export function carriesKey(request: HostRequest, key: string): boolean {
	const values = Object.values(request.headers).flatMap((value) => (value === undefined ? [] : [value].flat()));
	const basic = values.flatMap((value) => {
		const match = /^\s*basic\s+(\S+)/i.exec(value);
		return match ? [Buffer.from(match[1], 'base64').toString('utf8')] : [];
	});
	return [...values, ...basic, request.path, ...Object.keys(request.query), ...Object.values(request.query)].some((text) => text.includes(key));
}
