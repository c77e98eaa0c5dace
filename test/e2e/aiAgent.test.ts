import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX, startSandbox } from '../fake-api/sandbox';
import type { FakeIntelliprint } from '../fake-api/server';
import { FakeModel, type ChatMessage, type ScriptStep } from './fakeModel';
import { LINE, N8nInstance, ROOT, type ExecutionResult, type NodeRun, type RunItem } from './n8n';
import { N8nServer, suiteN8n } from './server';
import { agentWorkflow, intelliprintTool, type WorkflowNode } from './workflows/agent';

/** This file's own sandbox account on the suite's shared n8n (see startSandbox). */
const KEY = 'sandbox_key_ai_agent';

/**
 * Real n8n's AI Agent (Tools Agent) with the OpenAI Chat Model pointed at a fake model, and this
 * package's node as tools. The fake model never knows our parameter names: it picks tools by
 * their names and descriptions and fills arguments from the JSON schema n8n sends it, so every
 * argument here exists, and is described, because the node's tool variant says so.
 */

const TEST_MODE = "={{ $fromAI('test_mode', 'true for a free test job that is never printed or posted; false for a real letter that is printed, posted and charged', 'boolean') }}";
const LETTER = { 'letter text': '<p>Dear Ann,</p><p>Your order has shipped.</p>', name: 'Ann Example', address: '1 High Street, London', postcode: 'SW1A 1AA', country: 'GB' };
const tools = {
	list: intelliprintTool('List print jobs', { resource: 'printJob', operation: 'getMany', filters: { testmode: true } }),
	get: intelliprintTool('Get a print job', { resource: 'printJob', operation: 'get' }),
	// n8n 2.x hands a tool's error to the model; 1.x stops the whole run unless the tool continues on error.
	confirm: { ...intelliprintTool('Confirm a print job', { resource: 'printJob', operation: 'confirm' }), ...(LINE === 1 ? { onError: 'continueRegularOutput' } : {}) },
	post: (allowLive: boolean) => intelliprintTool('Post a letter', { resource: 'printJob', operation: 'create', testmode: TEST_MODE, allowLive }),
	postPdf: intelliprintTool('Post a PDF', { resource: 'printJob', operation: 'create', source: 'url' }),
	/** Posts and confirms live letters, on a credential with a daily spending limit of £0.50 (less than one letter). */
	postLimited: {
		...intelliprintTool('Post a letter', { resource: 'printJob', operation: 'create', testmode: false, confirmed: true, allowLive: true }),
		credentials: { intelliprintApi: { id: 'ipSandboxLimit01', name: 'Intelliprint sandbox, £0.50 a day' } },
		...(LINE === 1 ? { onError: 'continueRegularOutput' } : {}),
	},
	/** Post a letter whose refusals reach the model on both lines (see confirm). */
	postTolerant: { ...intelliprintTool('Post a letter', { resource: 'printJob', operation: 'create', testmode: TEST_MODE }), ...(LINE === 1 ? { onError: 'continueRegularOutput' } : {}) },
};

interface Run {
	model: FakeModel;
	result?: ExecutionResult;
	exitCode: number;
	output: string;
	/** The print jobs that exist after this run and did not before. */
	created: string[];
}

let fake: FakeIntelliprint;
let n8n: N8nServer;
const runs: Record<string, Run> = {};

/** One agent run: its own fake model playing `script`, its own workflow with `toolNodes`. */
async function runAgent(name: string, script: ScriptStep[], toolNodes: WorkflowNode[]): Promise<Run> {
	const model = await FakeModel.start(script);
	const id = `ipE2eAgent${name}`.padEnd(16, '0').slice(0, 16);
	await n8n.importCredentials([{ id: `${id}m`.slice(-16), name: `Fake model ${name}`, type: 'openAiApi', data: { apiKey: 'fake_model_key_not_secret', url: model.url } }]);
	const file = `${n8n.files}/${id}.json`;
	await fs.outputJson(file, agentWorkflow(id, { id: `${id}m`.slice(-16), name: `Fake model ${name}` }, toolNodes));
	await n8n.importWorkflows([file]);
	const before = new Set(fake.prints.jobs.keys());
	const executed = await n8n.execute(id);
	return { model, ...executed, created: [...fake.prints.jobs.keys()].filter((job) => !before.has(job)) };
}

let liveDraft: string;
beforeAll(async () => {
	fake = await startSandbox(undefined, KEY);
	n8n = suiteN8n('ai-agent');
	await n8n.importCredentials([
		{ id: 'ipSandboxCred001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: KEY, baseUrl: SANDBOX.apiUrl } },
		{ id: 'ipSandboxLimit01', name: 'Intelliprint sandbox, £0.50 a day', type: 'intelliprintApi', data: { apiKey: KEY, baseUrl: SANDBOX.apiUrl, dailySpendingLimit: 0.5 } },
	]);
	runs.test = await runAgent('Test', [
		{ intent: 'list print jobs', facts: { limit: 5 } },
		{ intent: 'post letter', facts: { ...LETTER, 'test mode': true } },
		{ intent: 'get print job', idFrom: 'previous tool result' },
		'I posted a test letter to Ann Example.',
	], [tools.list, tools.post(false), tools.get]);
	// A live draft made elsewhere (by a person, say), which the model then tries to confirm.
	liveDraft = fake.prints.seed(1, { reference: 'live draft for the agent' })[0].id;
	runs.live = await runAgent('Live', [
		{ intent: 'post letter', facts: { ...LETTER, 'test mode': false } },
		{ intent: 'confirm print job', idFrom: 'previous tool result' },
		{ intent: 'confirm print job', facts: { 'print job id': liveDraft } },
		'Done.',
	], [tools.post(false), tools.confirm]);
	runs.pdf = await runAgent('Pdf', [{ intent: 'post pdf', facts: { 'pdf link': `${SANDBOX.filesUrl}/demo/cover-letter.pdf` } }, 'Done.'], [tools.postPdf]);
	runs.flawed = await runAgent('Flawed', [
		{ intent: 'post letter', facts: { ...LETTER, postcode: ' ', 'test mode': true } },
		{ intent: 'post letter', facts: { ...LETTER, country: 'Atlantis', 'test mode': true } },
		'Done.',
	], [tools.postTolerant]);
	runs.allowed = await runAgent('Allowed', [{ intent: 'post letter', facts: { ...LETTER, 'test mode': false } }, 'Done.'], [tools.post(true)]);
	runs.limited = await runAgent('Limited', [{ intent: 'post letter', facts: LETTER }, 'Done.'], [tools.postLimited]);
});
afterAll(async () => {
	await Promise.all(Object.values(runs).map(async (run) => await run.model.stop()));
	await fake?.stop();
});

/** What each tool call gave the model, in order. */
const toolResults = (run: Run): string[] =>
	(run.model.requests.at(-1)?.body.messages ?? []).filter((m: ChatMessage) => m.role === 'tool').map((m) => String(m.content));
const idIn = (text: string) => /print_[A-Za-z0-9]+/.exec(text)?.[0];

describe('an AI agent in real n8n posts a letter through the Intelliprint tool', () => {
	it('lists jobs, posts a test letter from the text and address it wrote, and reads it back by id', async () => {
		const run = runs.test;
		expect(run.exitCode, run.output).toBe(0);
		const [listed, posted, got] = toolResults(run);
		// The sandbox starts with no test jobs: the model is told so in words, not given an empty answer.
		expect(JSON.parse(listed)).toEqual([expect.objectContaining({ summary: expect.stringMatching(/^Nothing found/) })]);
		expect(posted).toContain('Test print job');
		const id = idIn(posted);
		expect(id).toBeDefined();
		expect(got).toContain(id);
		const job = fake.prints.jobs.get(id!);
		expect(job?.testmode).toBe(true);
		expect(job?.letters.map((letter) => letter.address)).toEqual([expect.objectContaining({ name: 'Ann Example', postcode: 'SW1A 1AA', country: 'GB' })]);
		expect(fake.requests.some((r) => r.method === 'POST' && r.path === '/v1/prints' && String(r.body.content ?? '').includes('Your order has shipped'))).toBe(true);
		// The cost comes back, so an agent can report it.
		expect(JSON.parse(posted)[0]).toMatchObject({ id, testmode: true, summary: expect.stringMatching(/cost £\d+\.\d\d/) });
		expect(N8nInstance.node(run.result, 'AI Agent').items[0]?.json.output).toBe('I posted a test letter to Ann Example.');
	});

	it('tells the model what each tool does, that it costs money, and what every argument is', async () => {
		const offered = runs.test.model.requests[0].body.tools ?? [];
		expect(offered.map((tool) => tool.function.name).sort()).toEqual(['Get_a_print_job', 'List_print_jobs', 'Post_a_letter']);
		const post = offered.find((tool) => tool.function.name === 'Post_a_letter')!;
		expect(post.function.description).toMatch(/costs money/i);
		expect(post.function.description).toMatch(/test/i);
		for (const tool of offered) {
			const properties = Object.entries(tool.function.parameters?.properties ?? {});
			expect(properties.length, `${tool.function.name} leaves nothing to the model`).toBeGreaterThan(0);
			const bare = properties.filter(([, schema]) => !schema.description?.trim()).map(([key]) => key);
			expect(bare, `${tool.function.name}: arguments without a description`).toEqual([]);
		}
		// Kept for the record: one tool entry exactly as the model received it.
		await fs.outputJson(`${ROOT}/.e2e/ai-agent-tool-entry-n8n${LINE}.json`, post, { spaces: 2 });
	});

	it('makes a test job when the model asks for a live one, confirms that test job, and refuses to confirm a live draft, unless the builder allowed it', () => {
		const run = runs.live;
		expect(run.exitCode, run.output).toBe(0);
		const [posted, testConfirmed, confirmed] = toolResults(run);
		expect(JSON.parse(posted)[0]).toMatchObject({ testmode: true, live_refused: true, summary: expect.stringContaining('test jobs only') });
		// A test job is never printed, posted or charged: confirming it needs no permission.
		expect(JSON.parse(testConfirmed)[0]).toMatchObject({ testmode: true, confirmed: true });
		expect(confirmed).toContain('may not confirm a live print job');
		expect(confirmed).toContain(liveDraft);
		expect(confirmed).toContain('tell the user');
		// "Do not retry" stands alone: no invitation to call again after it.
		expect(confirmed).not.toMatch(/call the tool again/i);
		// Told in advance: the tool's own description says what the builder allowed.
		const offered = (allowed: Run) => allowed.model.requests[0].body.tools?.find((tool) => tool.function.name === 'Post_a_letter')?.function.description;
		expect(offered(run)).toContain('test jobs only');
		expect(offered(runs.allowed)).toContain('allows live letters');
		// Nothing live exists and nothing was confirmed; the failed tool call shows as an error in the run.
		expect(run.created).toHaveLength(1);
		expect(fake.prints.jobs.get(run.created[0])).toMatchObject({ testmode: true, confirmed: true });
		expect(fake.prints.jobs.get(liveDraft)).toMatchObject({ testmode: false, confirmed: false });
		const confirmRun = run.result?.data.resultData.runData['Confirm a print job']?.at(-1) as (NodeRun & { data?: { ai_tool?: RunItem[][] } }) | undefined;
		expect(LINE === 2 ? confirmRun?.error?.message : String(confirmRun?.data?.ai_tool?.[0]?.[0]?.json.error)).toContain('may not confirm');
	});

	it("tells the model what was wrong in its own argument names: a blank postcode, a country that is not a code", () => {
		const run = runs.flawed;
		expect(run.exitCode, run.output).toBe(0);
		const [blankPostcode, badCountry] = toolResults(run);
		expect(blankPostcode).toMatch(/the argument \\?"recipient_postcode\\?" filled in/);
		expect(blankPostcode).not.toMatch(/toolCallId|item's fields|Map /);
		expect(badCountry).toMatch(/The argument \\?"recipient_country\\?" was refused: Country \\?"Atlantis\\?" is not a country Intelliprint knows/);
		expect(badCountry).toContain('two-letter code (GB, IE, FR…), its three-letter code or its name');
		expect(run.created).toEqual([]);
	});

	it('posts a PDF from a link the model gives, as a test job', () => {
		const run = runs.pdf;
		expect(run.exitCode, run.output).toBe(0);
		const offered = run.model.requests[0].body.tools?.[0]?.function.parameters?.properties ?? {};
		expect(Object.keys(offered)).toEqual(['pdf_url']);
		expect(JSON.parse(toolResults(run)[0])[0]).toMatchObject({ testmode: true, summary: expect.stringContaining('Test print job') });
		expect(run.created.map((id) => fake.prints.jobs.get(id)?.testmode)).toEqual([true]);
		expect(fake.prints.jobs.get(run.created[0])?.letters.length).toBeGreaterThan(0);
	});

	it('makes a live draft, never confirmed, when the builder allowed live letters', () => {
		const run = runs.allowed;
		expect(run.exitCode, run.output).toBe(0);
		const posted = JSON.parse(toolResults(run)[0])[0];
		expect(posted).toMatchObject({ testmode: false, confirmed: false, summary: expect.stringContaining('Nothing is printed or charged until it is confirmed') });
		expect(posted.live_refused).toBeUndefined();
		expect(run.created.map((id) => fake.prints.jobs.get(id)?.testmode)).toEqual([false]);
	});

	it('is held to the daily spending limit like any workflow, told so in advance and told not to retry', () => {
		const run = runs.limited;
		expect(run.exitCode, run.output).toBe(0);
		const description = run.model.requests[0].body.tools?.[0]?.function.description;
		expect(description).toContain('Spending limits may hold a live job back as a draft');
		const [refused] = toolResults(run);
		expect(refused).toMatch(/was not confirmed: it would take today's spending over the daily limit of £0\.50/);
		expect(refused).not.toMatch(/call the tool again/i);
		expect(run.created.map((id) => fake.prints.jobs.get(id)).map((job) => [job?.testmode, job?.confirmed])).toEqual([[false, false]]);
	});
});
