import connect from 'connect';

import { readRaw } from './http';

type Server = ReturnType<ReturnType<typeof connect>['listen']>;

/** A webhook endpoint for tests: it keeps what it receives and answers `status` (200 unless told otherwise). */
export class Receiver {
	readonly received: Array<{ headers: Record<string, string>; body: string }> = [];
	status = 200;
	url = '';
	private server?: Server;

	async start(): Promise<this> {
		const app = connect().use((req, res) => {
			void readRaw(req, 10 * 1024 * 1024).then((raw) => {
				this.received.push({ headers: req.headers as Record<string, string>, body: raw.toString('utf8') });
				res.writeHead(this.status, { 'content-type': 'application/json' });
				res.end('{}');
			});
		});
		await new Promise<void>((resolve) => {
			this.server = app.listen(0, '127.0.0.1', () => resolve());
		});
		this.url = `http://127.0.0.1:${(this.server!.address() as { port: number }).port}/hook`;
		return this;
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve));
	}
}
