import connect from 'connect';

import type { IncomingMessage, ServerResponse } from '../fake-api/http';

type Server = ReturnType<ReturnType<typeof connect>['listen']>;

/**
 * A fake OpenAI-compatible chat model for driving n8n's AI Agent without a real model.
 *
 * It plays a script of goals, but never knows our node's parameter names: for each goal it picks
 * one of the tools the agent offers it and fills that tool's arguments from the tool's JSON schema.
 * So a test fails when the tool n8n builds from the node is not usable by a model that reads names
 * and descriptions, which is the point.
 *
 * How it decides (stateless: the conversation the agent sends is the only state):
 * - The step is the number of assistant tool calls already in the conversation.
 * - A string step is the answer text. Past the end of the script it answers with the last string.
 * - A goal picks the tool whose words best match the intent's words: 2 points for each intent word
 *   in the tool's name, 1 for each in its description, and half a point for each among its
 *   parameter names (a tie-breaker: a "Print Job" parameter must not make a Get tool win "list
 *   print jobs"). A few verbs match their usual synonyms (SYNONYMS), as "list" matches "get many".
 *   No tool scoring above 0 gives a text answer saying so, so the test fails visibly.
 * - Each parameter takes the fact whose key matches its name (ignoring case and punctuation), or
 *   else the fact whose key's words appear most in the parameter's name and description (names
 *   count twice). Values are converted to the parameter's JSON type. Parameters no fact fits are
 *   left out.
 * - With `idFrom`, an id matching `idPattern` is pulled from the latest tool result and given to
 *   the parameters that mention "id" (or, when none does, to the first string parameter left empty).
 */

export interface Goal {
	intent: string;
	facts?: Record<string, unknown>;
	idFrom?: 'previous tool result';
	/** What an id looks like in a tool result; print job ids by default. */
	idPattern?: RegExp;
}
export type ScriptStep = Goal | string;

export interface JsonSchema {
	type?: string;
	description?: string;
	properties?: Record<string, JsonSchema>;
	anyOf?: JsonSchema[];
	[key: string]: unknown;
}
export interface ToolSpec {
	type: 'function';
	function: { name: string; description?: string; parameters?: JsonSchema };
}
export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}
export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ToolSpec[];
	stream?: boolean;
	[key: string]: unknown;
}
export type Reply = { text: string } | { tool: string; args: Record<string, unknown> };

const STOP_WORDS = new Set(['a', 'an', 'the', 'by', 'of', 'to', 'in', 'for', 'and', 'or', 'from', 'with', 'on', 'is', 'it', 'its', 'this', 'that', 'be', 'my', 'me', 'all', 'one']);

/** Lower-case words of a name or a sentence, camelCase and snake_case split, plural "s" dropped. */
export function words(text: string): string[] {
	return text
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((word) => word && !STOP_WORDS.has(word))
		.map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/** Words a model would take as meaning the intent's word: what n8n calls "Get Many" is a list. */
const SYNONYMS: Record<string, string[]> = { list: ['many', 'all', 'search', 'find'], create: ['send', 'new', 'add'], get: ['fetch', 'read', 'retrieve'] };
const matches = (word: string, among: Set<string>) => among.has(word) || (SYNONYMS[word] ?? []).some((synonym) => among.has(synonym));

const flat = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const propertiesOf = (tool: ToolSpec) => tool.function.parameters?.properties ?? {};

/** The offered tool that best matches the intent (see the scoring above), if any matches at all. */
export function chooseTool(intent: string, tools: ToolSpec[]): ToolSpec | undefined {
	let best: { tool: ToolSpec; score: number } | undefined;
	for (const tool of tools) {
		const name = new Set(words(tool.function.name));
		const description = new Set(words(tool.function.description ?? ''));
		const parameters = new Set(Object.keys(propertiesOf(tool)).flatMap(words));
		const score = words(intent).reduce((sum, word) => sum + (matches(word, name) ? 2 : 0) + (matches(word, description) ? 1 : 0) + (matches(word, parameters) ? 0.5 : 0), 0);
		if (score > 0 && (!best || score > best.score)) best = { tool, score };
	}
	return best?.tool;
}

/** The key of the fact meant for a parameter, if any. */
function factFor(parameter: string, schema: JsonSchema, facts: Record<string, unknown>): string | undefined {
	const keys = Object.keys(facts);
	const exact = keys.find((key) => flat(key) === flat(parameter));
	if (exact) return exact;
	const nameWords = words(parameter);
	const descriptionWords = words(schema.description ?? '');
	let best: { key: string; score: number } | undefined;
	for (const key of keys) {
		const score = words(key).reduce((sum, word) => sum + (nameWords.includes(word) ? 2 : 0) + (descriptionWords.includes(word) ? 1 : 0), 0);
		if (score > 0 && (!best || score > best.score)) best = { key, score };
	}
	return best?.key;
}

/** A fact's value as the parameter's JSON type asks for it. */
function convert(value: unknown, schema: JsonSchema): unknown {
	switch (schema.type ?? schema.anyOf?.[0]?.type) {
		case 'boolean':
			return typeof value === 'boolean' ? value : String(value).toLowerCase() === 'true';
		case 'number':
		case 'integer':
			return Number(value);
		case 'string':
			return typeof value === 'string' ? value : JSON.stringify(value);
		default:
			return value;
	}
}

/** The text of the latest tool result in the conversation. */
function latestToolResult(messages: ChatMessage[]): string {
	const message = [...messages].reverse().find((m) => m.role === 'tool');
	return typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content ?? '');
}

/** The arguments a goal gives the chosen tool, filled from its schema (see above). */
export function fillArguments(goal: Goal, tool: ToolSpec, messages: ChatMessage[]): Record<string, unknown> {
	const args: Record<string, unknown> = {};
	const properties = propertiesOf(tool);
	for (const [name, schema] of Object.entries(properties)) {
		const key = factFor(name, schema, goal.facts ?? {});
		if (key !== undefined) args[name] = convert(goal.facts?.[key], schema);
	}
	if (goal.idFrom) {
		const id = (goal.idPattern ?? /\bprint_[A-Za-z0-9]+/).exec(latestToolResult(messages))?.[0];
		const mentionsId = ([name, schema]: [string, JsonSchema]) => words(`${name} ${schema.description ?? ''}`).includes('id');
		const targets = Object.entries(properties).filter(mentionsId);
		const fallback = Object.entries(properties).find(([name, schema]) => !(name in args) && (schema.type ?? 'string') === 'string');
		for (const [name] of targets.length ? targets : fallback ? [fallback] : []) if (id) args[name] = id;
	}
	return args;
}

/** What the model answers to a request, given the script. */
export function decide(script: ScriptStep[], request: ChatRequest): Reply {
	const done = request.messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
	const step = script[done];
	if (step === undefined) return { text: [...script].reverse().find((s): s is string => typeof s === 'string') ?? 'Done.' };
	if (typeof step === 'string') return { text: step };
	const tools = request.tools ?? [];
	const tool = chooseTool(step.intent, tools);
	if (!tool) return { text: `No tool matches "${step.intent}". Offered: ${tools.map((t) => t.function.name).join(', ') || 'none'}.` };
	return { tool: tool.function.name, args: fillArguments(step, tool, request.messages) };
}

/** The fake model's HTTP server: `url` is the base URL an OpenAI client (or n8n's credential) takes. */
export class FakeModel {
	/** Every request body received, in order, with its path. */
	readonly requests: Array<{ path: string; body: ChatRequest }> = [];
	url = '';
	private server?: Server;
	private calls = 0;

	constructor(readonly script: ScriptStep[]) {}

	static async start(script: ScriptStep[]): Promise<FakeModel> {
		const model = new FakeModel(script);
		const app = connect().use((req: IncomingMessage, res: ServerResponse) => {
			model.handle(req, res).catch((error: Error) => json(res, 400, { error: { message: error.message, type: 'invalid_request_error' } }));
		});
		model.server = await new Promise<Server>((resolve) => {
			const server: Server = app.listen(0, '127.0.0.1', () => resolve(server));
		});
		model.url = `http://127.0.0.1:${(model.server.address() as { port: number }).port}/v1`;
		return model;
	}

	/** The chat requests' tool entries with this name (every request offers the tools again). */
	toolsSent(name: string): ToolSpec[] {
		return this.requests.flatMap((r) => r.body.tools ?? []).filter((tool) => tool.function.name === name);
	}

	async stop(): Promise<void> {
		await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const path = (req.url ?? '').split('?')[0];
		const text = Buffer.concat(chunks).toString('utf8');
		if (req.method === 'GET' && path.endsWith('/models')) {
			return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'tests' }] });
		}
		const body = (text ? JSON.parse(text) : {}) as ChatRequest;
		this.requests.push({ path, body });
		// Anything else (the Responses API, say) is refused loudly rather than half-imitated.
		if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
			return json(res, 404, { error: { message: `The fake model serves only /v1/chat/completions and /v1/models, not ${req.method} ${path}`, type: 'invalid_request_error' } });
		}
		const reply = decide(this.script, body);
		const toolCalls = 'tool' in reply ? [{ id: `call_${++this.calls}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] : undefined;
		const message = { role: 'assistant', content: 'text' in reply ? reply.text : null, ...(toolCalls && { tool_calls: toolCalls }) };
		const finish = toolCalls ? 'tool_calls' : 'stop';
		const base = { id: `chatcmpl-${this.requests.length}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake-model' };
		const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
		if (!body.stream) {
			return json(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage });
		}
		// Streamed: the whole answer in one delta (tool call arguments included), then the finish, usage if asked, [DONE].
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
		const delta = { ...message, ...(toolCalls && { tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }) };
		send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] });
		send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] });
		if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage });
		res.end('data: [DONE]\n\n');
	}
}

function json(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}
