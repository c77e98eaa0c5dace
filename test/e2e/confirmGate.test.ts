import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { LINE, N8nInstance, ROOT, type ExecutionResult } from './n8n';
import { N8nServer, suiteN8n } from './server';

/**
 * The paths beside the tested ones, in real n8n (2.x and 1.x), in one workflow and one `n8n execute`: each case
 * is a branch with its own credential and its own fake API (its own day). A live letter costs £1.02 after tax.
 *
 * 1. Update with Confirm under a daily limit of £100, with £98.50 confirmed today: one of three drafts fits.
 * 2. Confirm = {{ $json.send }} with "false", "false", "no": drafts and an error, with no limit, a daily limit, a per-job limit.
 * 3. Limits that are not amounts in pounds (-5, "£100", "100,50", "abc", {{ -1 }}; Confirm Only Up To "£1.00", -1): nothing created.
 * 5. Today's spending unreadable (the list answers 500): 300 items refused, one draft, four list reads.
 * (4, the listing delay across processes, is in spendingLimits.test.ts; 6, the wording, is checked on every item here.)
 */
const CASES = {
	update: 'gateUpdate',
	falseNoLimit: 'gateFalseNone',
	falseDaily: 'gateFalseDaily',
	falsePerJob: 'gateFalsePerJob',
	closed: 'gateClosed',
	badPerJob: 'gateBadPerJob',
} as const;
const BAD_DAILY = ['-5', '£100', '100,50', 'abc', '={{ -1 }}'];
const WORKFLOW = 'ipConfirmGate01';

const node = (name: string, type: string, typeVersion: number, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
const intelliprint = (name: string, credential: string, parameters: object, y: number, x = 400) =>
	node(name, 'n8n-nodes-intelliprint.intelliprint', 1.2, [x, y], parameters, { credentials: { intelliprintApi: { id: credential, name: credential } }, onError: 'continueRegularOutput' });
const create = (extra: object) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}, this is a live letter.</p>', recipientsFrom: 'eachItem',
	recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: false, confirmed: true, ...extra,
});
const rows = (count: number, send?: string[]) =>
	`return Array.from({ length: ${count} }, (_, i) => ({ json: { name: 'Customer ' + (i + 1), address: (i + 1) + ' High Street\\nLeeds', postcode: 'LS1 4AP'${send ? `, send: ${JSON.stringify(send)}[i]` : ''} } }));`;

function workflow() {
	const nodes: object[] = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Three rows', 'n8n-nodes-base.code', 2, [200, 0], { jsCode: rows(3, ['false', 'false', 'no']) }),
		node('300 rows', 'n8n-nodes-base.code', 2, [200, 600], { jsCode: rows(300) }),
		intelliprint('Drafts', CASES.update, create({ confirmed: false }), -200),
		intelliprint('Update and confirm', CASES.update, { resource: 'printJob', operation: 'update', printJob: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, updateFields: { confirmed: true } }, -200, 600),
		intelliprint('Send false, no limit', CASES.falseNoLimit, create({ confirmed: '={{ $json.send }}' }), 0),
		intelliprint('Send false, daily limit', CASES.falseDaily, create({ confirmed: '={{ $json.send }}' }), 100),
		intelliprint('Send false, per-job limit', CASES.falsePerJob, create({ confirmed: '={{ $json.send }}', options: { confirmUpTo: 5 } }), 200),
		...BAD_DAILY.map((limit, i) => intelliprint(`Daily limit ${limit}`, `gateBadDaily${i}`, create({}), 300 + i * 50)),
		intelliprint('Confirm Only Up To £1.00', CASES.badPerJob, create({ options: { confirmUpTo: '£1.00' } }), 560),
		intelliprint('Confirm Only Up To -1', CASES.badPerJob, create({ options: { confirmUpTo: -1 } }), 580),
		intelliprint('Spending unreadable', CASES.closed, create({ options: { parallelItems: 1 } }), 600),
	];
	const to = (...names: string[]) => ({ main: [names.map((name) => ({ node: name, type: 'main', index: 0 }))] });
	const fromThree = (nodes as Array<{ name: string; position: number[] }>).filter((n) => n.position[1] < 600 && n.position[0] === 400).map((n) => n.name);
	const connections = {
		Start: to('Three rows', '300 rows'),
		'Three rows': to(...fromThree),
		Drafts: to('Update and confirm'),
		'300 rows': to('Spending unreadable'),
	};
	return { id: WORKFLOW, name: 'Every path to a confirm', nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const fakes = new Map<string, FakeIntelliprint>();
let n8n: N8nServer;
beforeAll(async () => {
	const limits: Record<string, unknown> = { [CASES.update]: 100, [CASES.falseDaily]: 100, [CASES.closed]: 100, [CASES.badPerJob]: 0, [CASES.falseNoLimit]: 0, [CASES.falsePerJob]: 0 };
	BAD_DAILY.forEach((limit, i) => (limits[`gateBadDaily${i}`] = limit));
	for (const id of Object.keys(limits)) fakes.set(id, await startFakeIntelliprint({ rateLimit: false }));
	// £98.50 confirmed earlier today on the account of case 1.
	fakes.get(CASES.update)!.prints.seed(1, { confirmed: true, confirmed_at: Math.floor(Date.now() / 1000) - 60, cost: { amount: 8_208_333_333, after_tax: 9_850_000_000, currency: 'GBP' } });
	fakes.get(CASES.closed)!.faults.push({ method: 'GET', path: /\/prints$/, status: 500, times: Number.POSITIVE_INFINITY });
	n8n = suiteN8n('confirm-gate');
	await n8n.importCredentials(
		[...fakes].map(([id, fake]) => ({
			id, name: id, type: 'intelliprintApi',
			data: { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60, dailySpendingLimit: limits[id] },
		})),
	);
	const file = `${n8n.files}/${WORKFLOW}.json`;
	await fs.outputJson(file, workflow());
	await n8n.importWorkflows([file]);
});
afterAll(async () => Promise.all([...fakes.values()].map((fake) => fake.stop())));

const liveGbp = (fake: FakeIntelliprint) => Math.round([...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e6) / 100;

describe(`every path to a confirm keeps the spending limits, in real n8n ${LINE}.x`, () => {
	let result: ExecutionResult | undefined;
	const outcome = (name: string) => N8nInstance.node(result, name).items.map((item) => (item.json.error ? `error: ${String(item.json.error)}` : `${String(item.json.confirmed ? 'confirmed' : 'draft')}`));
	const summary: Record<string, unknown> = {};

	beforeAll(async () => {
		const run = await n8n.execute(WORKFLOW);
		expect(run.exitCode, run.output).toBe(0);
		result = run.result;
	});
	afterAll(async () => fs.outputJson(`${ROOT}/.e2e/confirm-gate-n8n${LINE}.json`, summary, { spaces: 2 }));

	it('1. Update with Confirm: with £98.50 confirmed today under £100, one draft of three is confirmed, two are held back', () => {
		const items = outcome('Update and confirm');
		summary.update = { spent: liveGbp(fakes.get(CASES.update)!), items };
		expect(items.filter((item) => item === 'confirmed')).toHaveLength(1);
		const refused = items.filter((item) => item !== 'confirmed');
		// The confirm leaves less than a letter: the other two are refused in the gate's line or before it.
		expect(refused).toHaveLength(2);
		for (const item of refused) expect(item).toMatch(/^error: (Nothing was sent for this item|Print job print_\w+ was not confirmed): today's spending cannot take another letter$/);
		expect(liveGbp(fakes.get(CASES.update)!)).toBe(99.52);
	});

	it('2. Confirm "false" from an expression is a draft with or without a limit, and "no" is an error, never a confirm', () => {
		for (const [name, id] of [['Send false, no limit', CASES.falseNoLimit], ['Send false, daily limit', CASES.falseDaily], ['Send false, per-job limit', CASES.falsePerJob]]) {
			const items = outcome(name);
			summary[name] = { spent: liveGbp(fakes.get(id)!), items };
			expect(items, name).toEqual(['draft', 'draft', 'error: "Confirm" must be true or false, but got "no"']);
			expect(liveGbp(fakes.get(id)!), name).toBe(0);
			expect(fakes.get(id)!.createdPrintJobs(), name).toHaveLength(2);
		}
	});

	it('3. a limit that is not an amount in pounds confirms nothing and creates nothing, and says which field', () => {
		BAD_DAILY.forEach((limit, i) => {
			const items = outcome(`Daily limit ${limit}`);
			summary[`daily ${limit}`] = items[0];
			expect(items, limit).toEqual(Array(3).fill(expect.stringMatching(/^error: The credential's "Daily Spending Limit \(GBP\)" must be an amount in pounds of 0 or more/)));
			expect(fakes.get(`gateBadDaily${i}`)!.createdPrintJobs(), limit).toEqual([]);
		});
		for (const name of ['Confirm Only Up To £1.00', 'Confirm Only Up To -1']) {
			const items = outcome(name);
			summary[name] = items[0];
			expect(items, name).toEqual(Array(3).fill(expect.stringMatching(/^error: "Confirm Only Up To \(GBP\)" must be an amount in pounds of 0 or more/)));
		}
		expect(fakes.get(CASES.badPerJob)!.createdPrintJobs()).toEqual([]);
	});

	it('5. today\'s spending unreadable: 300 items refused after one read (with its retries), one draft, nothing confirmed', () => {
		const task = result?.data.resultData.runData['Spending unreadable']?.[0] as { executionTime?: number } | undefined;
		const items = outcome('Spending unreadable');
		const reads = fakes.get(CASES.closed)!.requests.filter((call) => call.method === 'GET' && call.path === '/v1/prints').length;
		summary.closed = { items: items.length, seconds: (task?.executionTime ?? 0) / 1000, reads, drafts: fakes.get(CASES.closed)!.createdPrintJobs().length };
		expect(items).toHaveLength(300);
		expect(items.every((item) => /: today's spending could not be read$/.test(item))).toBe(true);
		expect(reads).toBe(4);
		expect(fakes.get(CASES.closed)!.createdPrintJobs()).toHaveLength(1);
		expect(liveGbp(fakes.get(CASES.closed)!)).toBe(0);
	});
});
