import execa, { type ExecaChildProcess } from 'execa';
import { sleep } from 'n8n-workflow';

import { node24 } from '../../scripts/node24/index.mjs';
import { hasEnded, residentMb, savedExecutions } from './executions';
import { signedDelivery } from './signedDelivery';

/**
 * n8n's environment for the instances that take deliveries by the hundred (the delivery proofs, the fuzz). Their
 * workflows are the trigger alone, or hold expressions only after it, so they keep n8n's previous expression
 * engine: n8n's default ("vm", 1.123 and 2.41) makes a fresh isolate for every webhook request and every run,
 * about 200 ms of CPU per delivery, most of what n8n spends on one (`npm run bench:delivery-cpu`: 253 ms against
 * 31 on n8n 1.x, 225 against 34 on 2.x). The proofs are about the trigger's answers and runs, not the engine;
 * every other end-to-end test (the suite's n8n, queue mode) keeps the default engine.
 */
export const DELIVERY_LOAD_ENV: Readonly<Record<string, string>> = { N8N_EXPRESSION_ENGINE: 'legacy' };

/** A busy host: one process per core spinning beside n8n, at normal priority. Stop it with stop(). */
export function cpuHog(processes = 2): { stop: () => Promise<void> } {
	const hogs: ExecaChildProcess[] = Array.from({ length: processes }, () => execa(node24().node, ['-e', 'for (;;) {}'], { reject: false }));
	return {
		stop: async () => {
			for (const hog of hogs) hog.kill('SIGKILL');
			await Promise.all(hogs);
		},
	};
}

/** What one delivery attempt got. */
export interface Attempt {
	event: string;
	status: number;
	body: string;
	ms: number;
}

/** A mail.failed event for letter n, delivered with the webhook-id `msg_<tag>_<n>`. */
export const loadEvent = (tag: string, n: number) => ({ type: 'mail.failed', id: `ltr_${tag}_${n}`, print_id: `print_${tag}` });

/**
 * Sends deliveries as a sender does: `ids` (repeats allowed, each a repeat of the same event) at
 * `concurrency`, each answered or failed before the next is taken up by that lane. A connection
 * error counts as status 0. `stopWhen` ends the run early (a bounded run).
 */
export async function deliverAll(
	url: string,
	secret: string,
	tag: string,
	ids: number[],
	concurrency: number,
	timeoutMs = 60_000,
): Promise<Attempt[]> {
	const attempts: Attempt[] = [];
	let next = 0;
	const lane = async () => {
		while (next < ids.length) {
			const n = ids[next++];
			const { body, headers } = signedDelivery(secret, `msg_${tag}_${n}`, loadEvent(tag, n));
			const started = Date.now();
			try {
				const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
				attempts.push({ event: `ltr_${tag}_${n}`, status: response.status, body: (await response.text()).slice(0, 200), ms: Date.now() - started });
			} catch (error) {
				attempts.push({ event: `ltr_${tag}_${n}`, status: 0, body: String(error).slice(0, 200), ms: Date.now() - started });
			}
		}
	};
	await Promise.all(Array.from({ length: concurrency }, lane));
	return attempts;
}

/** The trigger output's `id` of each successful run of a workflow, once n8n has finished them all. */
export async function runsOf(userFolder: string, workflowId: string, settleMs = 60_000): Promise<{ succeeded: string[]; other: string[] }> {
	const deadline = Date.now() + settleMs;
	for (;;) {
		const executions = (await savedExecutions(userFolder)).filter((e) => e.workflowId === workflowId);
		const done = executions.every(hasEnded);
		if (done || Date.now() > deadline) {
			// The trigger's item is the event; n8n's Webhook node's is the request, the event under body.
			const idOf = (e: (typeof executions)[number]) => {
				const item = e.items?.[0] as { id?: unknown; body?: { id?: unknown } } | undefined;
				return String(item?.id ?? item?.body?.id);
			};
			return {
				succeeded: executions.filter((e) => e.status === 'success').map(idOf),
				other: executions.filter((e) => e.status !== 'success').map((e) => `${e.id} ${e.status} ${idOf(e)}`),
			};
		}
		await sleep(1000);
	}
}

/** What a load run showed: the promises checked event by event, and its figures. */
export interface LoadReport {
	deliveries: number;
	statuses: Record<string, number>;
	/** Events answered 2xx {"received":true} whose run is not there (or did not succeed). */
	acceptedWithoutRun: string[];
	/** Events with more than one successful run. */
	ranTwice: string[];
	/** Runs of events never answered 2xx {"received":true}. */
	unexpectedRuns: string[];
	runsNotSucceeded: string[];
	p50Ms: number;
	p99Ms: number;
	peakRssMb?: number;
}

export function report(attempts: Attempt[], runs: { succeeded: string[]; other: string[] }, peakRssMb?: number): LoadReport {
	const accepted = new Set(attempts.filter((a) => a.status >= 200 && a.status < 300 && a.body === '{"received":true}').map((a) => a.event));
	const count = new Map<string, number>();
	for (const id of runs.succeeded) count.set(id, (count.get(id) ?? 0) + 1);
	const statuses: Record<string, number> = {};
	for (const a of attempts) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
	const ms = attempts.map((a) => a.ms).sort((a, b) => a - b);
	const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
	return {
		deliveries: attempts.length,
		statuses,
		acceptedWithoutRun: [...accepted].filter((id) => !count.has(id)),
		ranTwice: [...count].filter(([, n]) => n > 1).map(([id]) => id),
		unexpectedRuns: [...count.keys()].filter((id) => !accepted.has(id)),
		runsNotSucceeded: runs.other,
		p50Ms: at(0.5),
		p99Ms: at(0.99),
		peakRssMb,
	};
}

/** Samples a process's resident memory every second until stopped; returns the peak in MB. */
export function watchRss(pid: number | undefined): { stop: () => Promise<number | undefined> } {
	let peak: number | undefined;
	let running = true;
	const loop = (async () => {
		while (running) {
			const mb = await residentMb(pid);
			if (mb !== undefined) peak = Math.max(peak ?? 0, mb);
			await sleep(1000);
		}
	})();
	return {
		stop: async () => {
			running = false;
			await loop;
			return peak;
		},
	};
}
