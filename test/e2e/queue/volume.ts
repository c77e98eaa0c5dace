import type { FakeIntelliprint } from '../../fake-api/server';
import type { QueueExecution } from './cluster';

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export interface VolumeRun {
	/** Every reference the runs were asked to post a letter for. */
	wanted: string[];
	startedAt: number;
	executions: QueueExecution[];
	/** The worker (1-based) each execution ran on. */
	workers: Array<number | undefined>;
	limit: { requests: number; windowMs: number };
	latencyMs: number;
}

/**
 * What a volume run did, as the API saw it: time against the least the sliding window allows,
 * 429s, failed runs, letters posted twice or not at all, and a timeline per window.
 */
export function measure(api: FakeIntelliprint, run: VolumeRun) {
	const endedAt = Math.max(...run.executions.map((execution) => Date.parse(String(execution.stoppedAt))));
	const created = new Map<string, number>();
	for (const job of api.createdPrintJobs()) created.set(String(job.reference), (created.get(String(job.reference)) ?? 0) + 1);
	const requests = run.wanted.length;
	// A full window's worth at once, then one more per window, plus one answer.
	const minimumMs = (Math.ceil(requests / run.limit.requests) - 1) * run.limit.windowMs + run.latencyMs;
	const creates = api.requests.filter((request) => request.method === 'POST' && request.path === '/v1/prints');
	// Per window from the start: creates accepted and refused, per run (by reference prefix).
	const timeline: Array<Record<string, number>> = [];
	for (const request of creates) {
		const window = Math.floor(((request.at ?? run.startedAt) - run.startedAt) / run.limit.windowMs);
		timeline[window] ??= { window: window + 1, A: 0, B: 0, refusedA: 0, refusedB: 0 };
		const prefix = String(request.body.reference ?? '?').slice(0, 1);
		if (request.status === 429) timeline[window][`refused${prefix}`]++;
		else if (request.status < 300) timeline[window][prefix]++;
	}
	return {
		runs: run.executions.map((execution, i) => ({
			id: execution.id,
			status: execution.status,
			worker: run.workers[i],
			seconds: seconds(Date.parse(String(execution.stoppedAt)) - Date.parse(String(execution.startedAt))),
		})),
		requests,
		timeSeconds: seconds(endedAt - run.startedAt),
		minimumSeconds: seconds(minimumMs),
		xMinimum: Math.round(((endedAt - run.startedAt) / minimumMs) * 100) / 100,
		rateLimited: creates.filter((request) => request.status === 429).length,
		failedRuns: run.executions.filter((execution) => execution.status !== 'success').length,
		duplicates: [...created.values()].filter((count) => count > 1).length,
		lost: run.wanted.filter((reference) => !created.has(reference)).length,
		created: created.size,
		latencyMs: run.latencyMs,
		window: run.limit,
		timeline: timeline.filter(Boolean),
	};
}
