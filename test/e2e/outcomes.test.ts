import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';
import { simplePdf } from '../helpers/pdfs';
import { LINE, runsFolder, type ExecutionResult } from './n8n';
import {
	actionNode, applies, expectedSends, faultsFor, idsOf, markdown, ON_ERROR, ON_ERROR_LABELS, OPERATIONS, outcomeOf, rowsCode, rowsOf, ROWS_NODES,
	SITUATION_LABELS, SITUATIONS, stoppedOutcome, type Cell, type CellOutcome, type OutItem, type Rows,
} from './outcomeMatrix';
import { suiteN8n } from './server';

/**
 * Issue 39, in real n8n (2.x and 1.x): every input item comes out exactly once, as a result or as an error carrying
 * its own reason. Every operation of the action node that takes items gets three rows, under three situations (the
 * whole request refused; row 2 refused; the connection dropped on item 2's request) and three On Error settings.
 * The two continue settings are branches of one workflow, run once; each Stop Workflow cell is its own run, since a
 * stopping node ends the execution. Each node has its own credential and its own fake API, seeded and faulted for
 * its cell (see outcomeMatrix.ts). The table is printed and written to .e2e/runs/outcomes-n8n<line>.md.
 */
const CONTINUE_WORKFLOW = 'ipOutcomesCont01';
const STOP_RUNS_AT_ONCE = 6;

const cells: Cell[] = OPERATIONS.flatMap((operation) =>
	SITUATIONS.flatMap((situation) => ON_ERROR.map((onError) => ({ operation, situation, onError, name: `${operation.label} [${situation}, ${onError}]` }))),
);
const running = cells.filter((cell) => applies(cell.operation, cell.situation));

interface Prepared {
	cell: Cell;
	fake: FakeIntelliprint;
	credential: string;
	parameters: Record<string, unknown>;
}

/** The cell's own fake API, holding what its operation names, with the cell's faults armed. */
async function prepare(cell: Cell, index: number, pdf: Buffer): Promise<Prepared> {
	const fake = await startFakeIntelliprint({ rateLimit: false });
	const seeded = (await cell.operation.seed?.(fake, pdf)) ?? { ids: [] };
	const ids = idsOf(cell.operation, seeded, cell.situation);
	fake.faults.push(...faultsFor(cell.operation, cell.situation, seeded.ids));
	return { cell, fake, credential: `ipOutcome${index}`, parameters: cell.operation.parameters(ids, seeded, cell.situation) };
}

const credentialOf = ({ cell, fake, credential }: Prepared) => ({
	id: credential, name: cell.name, type: 'intelliprintApi',
	// Operations without "Items in Parallel" get one request at a time, so item 2's request is the second one.
	data: { apiKey: fake.apiKey, baseUrl: fake.url, rateLimitRequests: cell.operation.serial ? 1 : 100_000, rateLimitWindowSeconds: cell.operation.serial ? 0.1 : 60 },
});

const plainNode = (name: string, type: string, position: [number, number], parameters: object = {}, typeVersion = 1) => ({ id: name, name, type, typeVersion, position, parameters });
const connect = (names: string[]) => ({ main: [names.map((node) => ({ node, type: 'main', index: 0 }))] });

/** A workflow of the given cells: Start, the rows they need, each cell's node fed by its rows. */
function workflow(id: string, prepared: Prepared[], pdf: Buffer) {
	const rowsOfCell = ({ cell }: Prepared) => rowsOf(cell.operation, cell.situation);
	const rows = [...new Set(prepared.map(rowsOfCell))];
	const rowsNodes = rows.map((kind, i) => plainNode(ROWS_NODES[kind], 'n8n-nodes-base.code', [200, i * 300], { jsCode: rowsCode(kind, pdf) }, 2));
	const actions = prepared.map((entry, i) => actionNode(entry.cell.name, entry.cell.operation, entry.parameters, entry.credential, entry.cell.onError, [500, i * 150]));
	const fed = (kind: Rows) => prepared.filter((entry) => rowsOfCell(entry) === kind).map((entry) => entry.cell.name);
	const connections = Object.fromEntries([['Start', connect(rows.map((kind) => ROWS_NODES[kind]))], ...rows.map((kind) => [ROWS_NODES[kind], connect(fed(kind))])]);
	const nodes = [plainNode('Start', 'n8n-nodes-base.manualTrigger', [0, 0]), ...rowsNodes, ...actions];
	return { id, name: `Outcomes ${id}`, nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

/** How many times the cell's fake received the operation's own request. */
function sent({ cell, fake }: Prepared): number {
	const request = cell.operation.request;
	return request ? fake.requests.filter((call) => call.method === request.method && request.path.test(call.path)).length : 0;
}

const outputsOf = (result: ExecutionResult | undefined, name: string) => (result?.data.resultData.runData[name]?.[0]?.data?.main ?? []) as OutItem[][];

/** A Stop Workflow cell: the error that ended its run, or, when the run went through, its outputs. */
function stopOutcome(entry: Prepared, run: { result?: ExecutionResult; exitCode: number }): CellOutcome {
	const { operation, situation, name } = entry.cell;
	const error = run.result?.data.resultData.error as { message: string; description?: string; node?: { name: string }; context?: { itemIndex?: unknown } } | undefined;
	if (run.exitCode === 0 || !error) {
		const outcome = outcomeOf(operation, situation, outputsOf(run.result, name), sent(entry));
		return { ...outcome, stop: { failed: false, message: '' }, note: `run went through. ${outcome.note}`.trim() };
	}
	if (error.node && error.node.name !== name) throw new Error(`the run of "${name}" failed at node "${error.node.name}": ${error.message}`);
	const index = error.context?.itemIndex;
	const named = typeof index === 'number' ? index + 1 : Number(/\b(?:item|row) (\d+)/i.exec(error.message)?.[1]) || undefined;
	return stoppedOutcome(situation, sent(entry), named, `${error.message} ${error.description ?? ''}`.trim());
}

/** Runs `work` over the entries, `width` at a time. */
async function inTurns<T>(entries: T[], width: number, work: (entry: T) => Promise<void>): Promise<void> {
	let next = 0;
	const lane = async () => {
		while (next < entries.length) await work(entries[next++]);
	};
	await Promise.all(Array.from({ length: width }, lane));
}

const prepared: Prepared[] = [];
let seconds = 0;
beforeAll(async () => {
	const began = Date.now();
	const pdf = await simplePdf(1, 'Attachment');
	prepared.push(...(await Promise.all(running.map(async (cell, index) => await prepare(cell, index, pdf)))));
	const n8n = suiteN8n('outcomes');
	await n8n.importCredentials(prepared.map(credentialOf));
	const continuing = prepared.filter((entry) => entry.cell.onError !== 'stopWorkflow');
	const stopping = prepared.filter((entry) => entry.cell.onError === 'stopWorkflow');
	const stopId = (index: number) => `ipOutcomesStop${index}`;
	const files = [workflow(CONTINUE_WORKFLOW, continuing, pdf), ...stopping.map((entry, index) => workflow(stopId(index), [entry], pdf))].map((json) => ({ json, file: `${n8n.files}/${json.id}.json` }));
	for (const { json, file } of files) await fs.outputJson(file, json);
	await n8n.importWorkflows(files.map(({ file }) => file));

	const run = await n8n.execute(CONTINUE_WORKFLOW);
	expect(run.exitCode, run.output).toBe(0);
	for (const entry of continuing) entry.cell.outcome = outcomeOf(entry.cell.operation, entry.cell.situation, outputsOf(run.result, entry.cell.name), sent(entry));
	await inTurns(stopping.map((entry, index) => ({ entry, id: stopId(index) })), STOP_RUNS_AT_ONCE, async ({ entry, id }) => {
		entry.cell.outcome = stopOutcome(entry, await n8n.execute(id));
	});
	seconds = Math.round((Date.now() - began) / 1000);

	const table = markdown(cells, `Every input item comes out exactly once: n8n ${LINE}.x, ${running.length} cells in ${seconds} s`);
	const runs = runsFolder().replace(/\/[^/]+$/, '');
	await fs.outputFile(`${runs}/outcomes-n8n${LINE}.md`, table);
	await fs.outputJson(`${runs}/outcomes-n8n${LINE}.json`, running.map(({ name, outcome }) => ({ name, ...outcome })), { spaces: 1 });
	// Printed straight to the terminal (n8n's lint forbids the console in every file, tests included).
	fs.writeSync(1, `\n${table}\n`);
});
afterAll(async () => Promise.all(prepared.map(async ({ fake }) => await fake.stop())));

/** What every continue cell must show: each row an outcome, failures apart from successes, each refusal its own. */
function checkContinue({ operation, situation, onError }: Cell, outcome: CellOutcome) {
	expect(outcome.withoutOutcome, `rows without an outcome (${outcome.note})`).toEqual([]);
	if (onError === 'continueErrorOutput') expect(outcome.mainErrors, `error items on the success output (${outcome.note})`).toBe(0);
	expect(outcome.claimsSuccess, 'error items carrying an ID at the top, as if they had succeeded').toBe(0);
	if (situation === 'row') expect(outcome.notOwn, `rows whose outcome is not their own reason (${outcome.note})`).toEqual([]);
	if (situation === 'network' && operation.creates) {
		expect(outcome.sent, 'the dropped create was sent again').toBe(expectedSends(operation));
		expect(outcome.errorRows, 'the rows of the dropped create come out as errors').toEqual(operation.run ? [1, 2, 3] : [2]);
	}
}

/** A Stop Workflow cell: a refusal stops the run; a run that goes through still gives every row an outcome. */
function checkStop({ operation, situation }: Cell, outcome: CellOutcome) {
	if (situation !== 'network' && !operation.verdicts) expect(outcome.stop?.failed, `the run stopped (${outcome.note})`).toBe(true);
	if (outcome.withoutOutcome !== 'stopped') expect(outcome.withoutOutcome, `rows without an outcome (${outcome.note})`).toEqual([]);
	// The run stops at the dropped create: the items after it are never sent.
	if (situation === 'network' && operation.creates) expect(outcome.sent, 'the dropped create was sent again').toBeLessThanOrEqual(expectedSends(operation));
}

describe(`every input item comes out exactly once, as a result or as an error with its own reason, in real n8n ${LINE}.x`, () => {
	for (const operation of OPERATIONS) {
		describe(operation.label, () => {
			for (const cell of running.filter((entry) => entry.operation === operation)) {
				it(`${SITUATION_LABELS[cell.situation]}, ${ON_ERROR_LABELS[cell.onError]}`, () => {
					expect(cell.outcome, 'the cell ran').toBeDefined();
					if (cell.onError === 'stopWorkflow') checkStop(cell, cell.outcome!);
					else checkContinue(cell, cell.outcome!);
				});
			}
		});
	}
});
