import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { FakeIntelliprint, Fault } from '../fake-api/server';
import { runIntelliprint, type TestItem } from '../helpers/n8n';

/**
 * The fault matrix: each row is one bad habit of the world (a redirect, a garbage 2xx, a reset, a
 * hang, a 429 storm…) injected into the fake API while the node runs a few items through n8n-core's
 * engine with Continue On Fail. Every row is judged by the same rules: no duplicate letters, no
 * vanished item, no success without a real job, no API key sent to another host.
 */
export interface Row {
	name: string;
	operation: 'create' | 'get' | 'getMany' | 'update' | 'createLetters' | 'mailRun' | 'mailRunKeyed';
	faults?: Fault[];
	/** Set on the fake for the row (global latency, a list that ignores skip). */
	fake?: { latencyMs?: number; ignoreSkip?: boolean };
	items?: number;
	/** What the row must end with: succeeded items and print jobs the fake created. */
	expect: { successes: number; jobs?: number; requests?: number; mayHaveActed?: boolean };
}

export interface Tally {
	row: string;
	items: number;
	requests: number;
	jobsCreated: number;
	duplicates: number;
	successes: number;
	errors: number;
	vanished: number;
	fakeSuccesses: number;
	keyLeaks: number;
	errorMessages: string[];
	errorItems: INodeExecutionData[];
}

const post: Fault = { method: 'POST', path: /^\/v1\/prints$/ };
const read: Fault = { method: 'GET', path: /^\/v1\/prints\/print_/ };
const list: Fault = { method: 'GET', path: /^\/v1\/prints$/ };
const all = Number.POSITIVE_INFINITY;

export const ROWS: Row[] = [
	{ name: 'latency 300 ms on every answer', operation: 'create', fake: { latencyMs: 300 }, expect: { successes: 3, jobs: 3, requests: 3 } },
	...([301, 302, 303, 307, 308] as const).map((status): Row => ({
		name: `create redirected ${status} to another host`, operation: 'create', faults: [{ ...post, redirect: { status, to: 'elsewhere' }, times: all }], expect: { successes: 0, jobs: 0, requests: 3, mayHaveActed: true },
	})),
	{ name: 'create redirected 302 on the same host', operation: 'create', faults: [{ ...post, redirect: { status: 302, to: 'same' }, times: all }], expect: { successes: 0, jobs: 0, requests: 3 } },
	{ name: 'create answered 302 after the API acted', operation: 'create', faults: [{ ...post, redirect: { status: 302, to: 'elsewhere' }, afterActing: true, times: all }], expect: { successes: 0, jobs: 3, requests: 3, mayHaveActed: true } },
	{ name: 'get redirected 301 to another host', operation: 'get', faults: [{ ...read, redirect: { status: 301, to: 'elsewhere' }, times: all }], expect: { successes: 0, jobs: 0 } },
	...(['html', 'invalidJson', 'empty', 'noId', 'wrongObject', 'truncatedJson', 'jsonNull', 'jsonArray'] as const).map((garbage): Row => ({
		name: `create answered 200 with ${garbage} after the API acted`, operation: 'create', faults: [{ ...post, garbage, afterActing: true, times: all }], expect: { successes: 0, jobs: 3, requests: 3, mayHaveActed: true },
	})),
	{ name: 'create answered 200 with html before the API acted', operation: 'create', faults: [{ ...post, garbage: 'html', times: all }], expect: { successes: 0, jobs: 0, requests: 3, mayHaveActed: true } },
	{ name: 'get answered 200 with html', operation: 'get', faults: [{ ...read, garbage: 'html', times: all }], expect: { successes: 0, jobs: 0 } },
	{ name: 'get many answered with no list shape', operation: 'getMany', faults: [{ ...list, garbage: 'notList', times: all }], items: 1, expect: { successes: 0 } },
	{ name: 'get many on a list that ignores skip', operation: 'getMany', fake: { ignoreSkip: true }, items: 1, expect: { successes: 0 } },
	{ name: 'create reset before the API acted', operation: 'create', faults: [{ ...post, reset: 'beforeActing', times: all }], expect: { successes: 0, jobs: 0, requests: 3, mayHaveActed: true } },
	{ name: 'create reset after the API acted', operation: 'create', faults: [{ ...post, reset: 'afterActing', times: all }], expect: { successes: 0, jobs: 3, requests: 3, mayHaveActed: true } },
	{ name: 'create reset in the middle of the answer', operation: 'create', faults: [{ ...post, reset: 'midBody', times: all }], expect: { successes: 0, jobs: 3, requests: 3, mayHaveActed: true } },
	{ name: 'get reset once, then answered', operation: 'get', faults: [{ ...read, reset: 'afterActing', times: 3 }], expect: { successes: 3 } },
	{ name: 'create hangs after the API acted', operation: 'create', faults: [{ ...post, hang: true, afterActing: true, times: all }], expect: { successes: 0, jobs: 3, requests: 3, mayHaveActed: true } },
	{ name: 'get hangs every time', operation: 'get', faults: [{ ...read, hang: true, times: all }], items: 1, expect: { successes: 0 } },
	{ name: 'create 429 storm, Retry-After in seconds', operation: 'create', faults: [{ ...post, status: 429, retryAfter: 1, times: 6 }], expect: { successes: 3, jobs: 3, requests: 9 } },
	{ name: 'create 429 storm, Retry-After as an HTTP date', operation: 'create', faults: [{ ...post, status: 429, retryAfter: 'httpDate', retryAfterSeconds: 1, times: 3 }], expect: { successes: 3, jobs: 3, requests: 6 } },
	{ name: 'create 429 for longer than the item may wait', operation: 'create', faults: [{ ...post, status: 429, retryAfter: 3600, times: all }], expect: { successes: 0, jobs: 0, requests: 3 } },
	{ name: 'create 429 without Retry-After, persistent', operation: 'create', faults: [{ ...post, status: 429, retryAfter: 'none', times: all }], items: 1, expect: { successes: 0, jobs: 0 } },
	{ name: 'get 503 with Retry-After, then answered', operation: 'get', faults: [{ ...read, status: 503, retryAfter: 1, times: 3 }], expect: { successes: 3 } },
	{ name: 'create 500 after the API acted', operation: 'create', faults: [{ ...post, status: 500, afterActing: true, times: all }], expect: { successes: 0, jobs: 3, requests: 3, mayHaveActed: true } },
	{ name: 'create 503 before the API acted', operation: 'create', faults: [{ ...post, status: 503, retryAfter: 1, times: all }], expect: { successes: 0, jobs: 0, requests: 3, mayHaveActed: true } },
	// Each item reads its job first (a new Reference: the contract's keyed-reference), then its update is refused.
	{ name: 'update of a draft under a persistent 429', operation: 'update', faults: [{ method: 'POST', path: /^\/v1\/prints\/print_/, status: 429, retryAfter: 3600, times: all }], expect: { successes: 0, jobs: 0, requests: 6 } },
	{ name: 'letter PDF download fails with 500 after the job was created', operation: 'createLetters', faults: [{ host: 'files', status: 500, times: all }], expect: { successes: 0, jobs: 3 } },
	{ name: 'letter PDF download hangs after the job was created', operation: 'createLetters', faults: [{ host: 'files', hang: true, times: all }], items: 1, expect: { successes: 0, jobs: 1 } },
	{ name: 'letter PDF link redirects to another host', operation: 'createLetters', faults: [{ host: 'files', redirect: { status: 302, to: 'elsewhere' }, times: all }], expect: { successes: 3, jobs: 3 } },
	// A mail run: all items' rows in one print job; whatever happens to it, every row has an outcome.
	{ name: 'mail run refused by the API (400)', operation: 'mailRun', faults: [{ ...post, status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Invalid value for content.', param: 'content' }, times: all }], expect: { successes: 0, jobs: 0, requests: 1 } },
	{ name: 'mail run reset after the API acted', operation: 'mailRun', faults: [{ ...post, reset: 'afterActing', times: all }], expect: { successes: 0, jobs: 1, requests: 1, mayHaveActed: true } },
	{ name: 'mail run 503 before the API acted', operation: 'mailRun', faults: [{ ...post, status: 503, retryAfter: 1, times: all }], expect: { successes: 0, jobs: 0, requests: 1, mayHaveActed: true } },
	{ name: 'mail run whose already-sent lookup gets an html page', operation: 'mailRunKeyed', faults: [{ ...list, garbage: 'html', times: all }], expect: { successes: 0, jobs: 0 } },
	{ name: 'letter PDF answered with an html page', operation: 'createLetters', faults: [{ host: 'files', garbage: 'html', times: all }], items: 1, expect: { successes: 0, jobs: 1 } },
];

/** Credentials that make hangs and long waits short enough for a test run. */
export function matrixCredentials(fake: FakeIntelliprint) {
	return { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60, timeoutSeconds: 1, maxWaitSeconds: 8 };
}

function parametersFor(row: Row, ids: string[]): INodeParameters {
	const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });
	switch (row.operation) {
		case 'get':
			return { resource: 'printJob', operation: 'get', printJob: { ...byId('={{ $json.id }}') } };
		case 'update':
			return { resource: 'printJob', operation: 'update', printJob: byId('={{ $json.id }}'), updateFields: { reference: 'changed' } };
		case 'getMany':
			return { resource: 'printJob', operation: 'getMany', returnAll: true, filters: { testmode: true } };
		case 'mailRun':
		case 'mailRunKeyed':
			return {
				resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello {{ref}}</p>', testmode: true,
				...(row.operation === 'mailRunKeyed' ? { options: { sentKey: 'matrix-run' } } : {}),
			};
		case 'createLetters':
		case 'create':
			void ids;
			return {
				resource: 'printJob', operation: 'create', binaryPropertyName: 'data', testmode: true,
				options: { reference: '={{ $json.ref }}' },
				...(row.operation === 'createLetters' ? { output: 'letters', downloadLetterPdfs: true } : {}),
			};
	}
}

/** Runs one row against the fake and counts what happened, item by item. */
export async function runRow(fake: FakeIntelliprint, row: Row, pdf: Buffer, tag: string): Promise<Tally> {
	fake.calm();
	const existing = row.operation === 'get' || row.operation === 'update' ? fake.prints.seed(row.items ?? 3, { testmode: true }) : [];
	if (row.operation === 'getMany') fake.prints.seed(2500, { testmode: true });
	fake.resetRecording();
	if (row.fake?.latencyMs) fake.latencyMs = row.fake.latencyMs;
	if (row.fake?.ignoreSkip) fake.ignoreSkip = true;
	fake.faults.push(...(row.faults ?? []).map((fault) => ({ ...fault })));
	const before = new Set(fake.prints.jobs.keys());
	const count = row.items ?? 3;
	const items: TestItem[] = Array.from({ length: count }, (_, i) => ({
		json: { ref: `${tag}-${i}`, id: existing[i]?.id, name: `Row ${i + 1}`, address: `${i + 1} High Street`, postcode: 'LS1 4AP' },
		files: { data: { data: pdf, fileName: `${tag}-${i}.pdf` } },
	}));
	const { items: out, error } = await runIntelliprint({
		parameters: parametersFor(row, existing.map((job) => job.id)), items, continueOnFail: true, credentials: matrixCredentials(fake) as never,
	});
	fake.faults.length = 0;
	const createdJobs = [...fake.prints.jobs.values()].filter((job) => !before.has(job.id));
	const references = createdJobs.map((job) => String(job.reference));
	// A mail run's print job pairs with every row it holds.
	const rowsOf = (item: INodeExecutionData) => [item.pairedItem ?? []].flat().map((paired) => (typeof paired === 'number' ? paired : paired.item));
	const itemsOut = new Set(out.flatMap(rowsOf));
	const errorItems = out.filter((item) => item.json.error !== undefined);
	const successes = out.filter((item) => item.json.error === undefined);
	const succeededItems = new Set(successes.flatMap(rowsOf));
	const real = (item: INodeExecutionData) => {
		const id = String(item.json.print_id ?? item.json.id ?? '');
		return fake.prints.jobs.has(id) || (row.operation === 'getMany' && id.startsWith('print_'));
	};
	return {
		row: row.name,
		items: count,
		requests: fake.requests.filter((request) => !request.path.startsWith('files:')).length,
		jobsCreated: createdJobs.length,
		duplicates: references.length - new Set(references).size,
		successes: row.operation === 'getMany' ? (successes.length ? 1 : 0) : succeededItems.size,
		errors: new Set(errorItems.flatMap(rowsOf)).size + (error ? 1 : 0),
		vanished: row.operation === 'getMany' ? (out.length || error ? 0 : 1) : count - itemsOut.size,
		fakeSuccesses: successes.filter((item) => !real(item)).length,
		keyLeaks: fake.keyLeaks(),
		errorMessages: errorItems.map((item) => String(item.json.error)),
		errorItems,
	};
}
