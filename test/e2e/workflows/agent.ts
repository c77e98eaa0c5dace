import { LINE } from '../n8n';

/**
 * Workflows for the AI agent tests: Manual Trigger → AI Agent (Tools Agent) with the OpenAI Chat
 * Model (Chat Completions, pointed at the fake model) and this package's node as tools.
 */
export type WorkflowNode = Record<string, unknown> & { name: string };

/** The node as an agent's tool (n8n's tool variant of a usableAsTool node), on the sandbox credential. */
export function intelliprintTool(name: string, parameters: Record<string, unknown>): WorkflowNode {
	return {
		id: name.replace(/\W+/g, '-').toLowerCase(),
		name,
		type: 'n8n-nodes-intelliprint.intelliprintTool',
		typeVersion: 1,
		position: [360, 220],
		parameters,
		credentials: { intelliprintApi: { id: 'ipSandboxCred001', name: 'Intelliprint sandbox' } },
	};
}

export function agentWorkflow(id: string, modelCredential: { id: string; name: string }, tools: WorkflowNode[]) {
	const nodes: WorkflowNode[] = [
		{ id: 'start', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'agent',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			// n8n 1.x's AI Agent ends at 3; 3.1 differs only in the prompt source options.
			typeVersion: LINE === 1 ? 3 : 3.1,
			position: [240, 0],
			parameters: { promptType: 'define', text: 'Send Ann Example a letter saying her order has shipped.', options: {} },
		},
		{
			id: 'model',
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.3,
			position: [160, 220],
			// The fake model speaks Chat Completions; 1.3 would use the Responses API by default.
			parameters: { model: { __rl: true, mode: 'id', value: 'fake-model' }, responsesApiEnabled: false, options: {} },
			credentials: { openAiApi: modelCredential },
		},
		...tools,
	];
	const to = (type: string) => ({ [type]: [[{ node: 'AI Agent', type, index: 0 }]] });
	return {
		id,
		name: `E2E agent ${id}`,
		nodes,
		connections: {
			Start: to('main'),
			'OpenAI Chat Model': to('ai_languageModel'),
			...Object.fromEntries(tools.map((tool) => [tool.name, to('ai_tool')])),
		},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}
