import { afterEach, describe, expect, it } from 'vitest';

import { chooseTool, decide, FakeModel, words, type ChatMessage, type ChatRequest, type ToolSpec } from '../e2e/fakeModel';

/** Tools as an agent offers them: names and schemas a node author could have written, none of them known to the fake. */
const tool = (name: string, description: string, properties: ToolSpec['function']['parameters']): ToolSpec => ({
	type: 'function',
	function: { name, description, parameters: { type: 'object', properties: properties?.properties ?? {} } },
});
const listJobs = tool('Get_many_print_jobs_in_Intelliprint', 'Get many print jobs in Intelliprint', {
	properties: { Limit: { type: 'number' }, Test_Mode: { type: 'boolean' }, Reference: { type: 'string' } },
});
const createLetter = tool('Send_letter', 'Create a print job: letters posted to a recipient', {
	properties: {
		Letter_Text: { type: 'string', description: 'The content of the letter, as text or HTML' },
		Recipient_Name: { type: 'string', description: 'Who the letter is addressed to' },
		Postal_Address: { type: 'string', description: 'Address lines and postcode, one per line' },
		Test_Mode: { type: 'boolean', description: 'Whether this is a test job that is never printed' },
	},
});
const getJob = tool('Get_print_job', 'Get a print job and its letters', {
	properties: { Print_Job: { type: 'string', description: 'The ID of the print job' } },
});
const tools = [listJobs, createLetter, getJob];

const ask = (messages: ChatMessage[], offered = tools): ChatRequest => ({ model: 'fake-model', messages, tools: offered });
const user: ChatMessage = { role: 'user', content: 'Post a letter to Ann' };
const called = (name: string, id: string): ChatMessage => ({ role: 'assistant', content: null, tool_calls: [{ id, function: { name, arguments: '{}' } }] });
const result = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });

const script = [
	{ intent: 'list print jobs', facts: { testmode: true, limit: 5 } },
	{ intent: 'create a letter', facts: { content: 'Dear Ann, hello.', name: 'Ann Example', address: '1 High St\nLondon\nSW1A 1AA', testmode: true } },
	{ intent: 'get print job by id', idFrom: 'previous tool result' as const },
	'Your letter to Ann is ready.',
];

describe('the fake model: choosing a tool and its arguments', () => {
	it('splits names and sentences into comparable words', () => {
		expect(words('Get_many_print_jobs in IntelliprintTool')).toEqual(['get', 'many', 'print', 'job', 'intelliprint', 'tool']);
	});

	it('picks the tool whose name and description best match the intent, or none', () => {
		expect(chooseTool('list print jobs', tools)).toBe(listJobs);
		expect(chooseTool('create a letter', tools)).toBe(createLetter);
		expect(chooseTool('get print job by id', tools)).toBe(getJob);
		expect(chooseTool('order a pizza', tools)).toBeUndefined();
	});

	it('fills each parameter from the facts by name or description, in its JSON type', () => {
		expect(decide(script, ask([user]))).toEqual({ tool: listJobs.function.name, args: { Limit: 5, Test_Mode: true } });
		expect(decide(script, ask([user, called(listJobs.function.name, 'c1'), result('c1', '[]')]))).toEqual({
			tool: 'Send_letter',
			args: { Letter_Text: 'Dear Ann, hello.', Recipient_Name: 'Ann Example', Postal_Address: '1 High St\nLondon\nSW1A 1AA', Test_Mode: true },
		});
	});

	it('takes an id from the latest tool result for a parameter that mentions an id', () => {
		const messages = [user, called('x', 'c1'), result('c1', '[]'), called('Send_letter', 'c2'), result('c2', '[{"id":"print_AbC123","object":"print"}]')];
		expect(decide(script, ask(messages))).toEqual({ tool: 'Get_print_job', args: { Print_Job: 'print_AbC123' } });
		// Without a word about ids, the first string parameter left empty gets it.
		const bare = tool('Get_print_job', 'Get a print job', { properties: { Job: { type: 'string' } } });
		expect(decide(script, ask(messages, [bare]))).toEqual({ tool: 'Get_print_job', args: { Job: 'print_AbC123' } });
	});

	it('answers with the final text once the tool steps are done, and says so when no tool matches', () => {
		const messages = [user, called('a', 'c1'), result('c1', '1'), called('b', 'c2'), result('c2', '2'), called('c', 'c3'), result('c3', '3')];
		expect(decide(script, ask(messages))).toEqual({ text: 'Your letter to Ann is ready.' });
		expect(decide([{ intent: 'list print jobs' }], ask([user, called('a', 'c1'), result('c1', '[]')]))).toEqual({ text: 'Done.' });
		expect(decide([{ intent: 'order a pizza' }], ask([user]))).toEqual({ text: expect.stringContaining('No tool matches "order a pizza"') });
	});
});

describe('the fake model over HTTP, as an OpenAI client calls it', () => {
	let model: FakeModel | undefined;
	afterEach(async () => model?.stop());
	const post = async (body: object) =>
		await fetch(`${model!.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

	it('lists its model and answers a chat completion with a tool call, recording the request', async () => {
		model = await FakeModel.start(script);
		expect(((await (await fetch(`${model.url}/models`)).json()) as { data: Array<{ id: string }> }).data[0].id).toBe('fake-model');
		const answer = (await (await post(ask([user]))).json()) as { choices: Array<{ message: { tool_calls: Array<{ function: { name: string; arguments: string } }> }; finish_reason: string }> };
		expect(answer.choices[0].finish_reason).toBe('tool_calls');
		expect(answer.choices[0].message.tool_calls[0].function).toEqual({ name: listJobs.function.name, arguments: JSON.stringify({ Limit: 5, Test_Mode: true }) });
		expect(model.requests).toHaveLength(1);
		expect(model.toolsSent('Get_print_job')).toEqual([getJob]);
	});

	it('streams the same answer as server-sent events when asked to', async () => {
		model = await FakeModel.start(['All done.']);
		const response = await post({ ...ask([user]), stream: true, stream_options: { include_usage: true } });
		expect(response.headers.get('content-type')).toBe('text/event-stream');
		const events = (await response.text()).split('\n\n').filter(Boolean).map((line) => line.replace(/^data: /, ''));
		expect(events.at(-1)).toBe('[DONE]');
		const chunks = events.slice(0, -1).map((event) => JSON.parse(event) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }>; usage?: object });
		expect(chunks[0].choices[0].delta.content).toBe('All done.');
		expect(chunks[1].choices[0].finish_reason).toBe('stop');
		expect(chunks[2].usage).toBeDefined();
	});

	it('refuses other endpoints loudly (the Responses API, say)', async () => {
		model = await FakeModel.start([]);
		const response = await fetch(`${model.url}/responses`, { method: 'POST', body: '{}' });
		expect(response.status).toBe(404);
	});
});
