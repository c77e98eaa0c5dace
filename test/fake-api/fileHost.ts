import { readRaw, type IncomingMessage, type ServerResponse } from './http';
import { extractPages } from './pdf';
import { letterheadPng } from './png';
import type { FakeIntelliprint } from './server';

/** The separate file host: letter PDFs, merged PDFs, background previews, demo files, /notify (no API key; the signed URL is the grant). */
export async function serveFile(fake: FakeIntelliprint, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://files');
	fake.requests.push({ method: req.method ?? 'GET', path: `files:${url.pathname}`, query: Object.fromEntries(url.searchParams), headers: req.headers, body: {}, status: 200 });
	const reply = (type: string, data: Buffer) => {
		res.writeHead(200, { 'content-type': type, 'content-length': data.length });
		res.end(data);
	};
	if (req.method === 'POST' && url.pathname === '/notify') {
		const body = await readRaw(req, 1024 * 1024);
		fake.notifications.push(JSON.parse(body.toString('utf8') || '{}'));
		return reply('application/json', Buffer.from('{"ok":true}'));
	}
	const demo = fake.published.get(url.pathname);
	if (demo) return reply(demo.type, demo.data);
	const merge = /^\/merges\/(merge_[a-f0-9]+)\.pdf$/.exec(url.pathname);
	if (merge && fake.merges.merged.has(merge[1])) return reply('application/pdf', fake.merges.merged.get(merge[1])!);
	const preview = /^\/backgrounds\/(bg_[a-f0-9]+)\.png$/.exec(url.pathname);
	if (preview && fake.backgrounds.backgrounds.has(preview[1])) return reply('image/png', letterheadPng());
	const letterMatch = /^\/letters\/(ltr_[a-f0-9]+)\.pdf$/.exec(url.pathname);
	for (const job of fake.prints.jobs.values()) {
		const letter = letterMatch && job.letters.find((l) => l.id === letterMatch[1]);
		if (letter) {
			return reply('application/pdf', await extractPages(fake.prints.files.get(job.id)!.data, letter._pages ?? []));
		}
	}
	res.writeHead(404, { 'content-type': 'text/plain' });
	res.end('Not found');
}
