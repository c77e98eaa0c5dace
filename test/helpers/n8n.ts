import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { IntelliprintApi } from '../../credentials/IntelliprintApi.credentials';
import { IntelliprintWebhookApi } from '../../credentials/IntelliprintWebhookApi.credentials';
import { Intelliprint } from '../../nodes/Intelliprint/Intelliprint.node';
import { IntelliprintStatusTrigger } from '../../nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node';
import { IntelliprintTrigger } from '../../nodes/IntelliprintTrigger/IntelliprintTrigger.node';
import { TestCredentialsHelper } from './credentials';

/** An input item for a test: JSON plus files that become real n8n binary data. */
export interface TestItem {
	json?: IDataObject;
	files?: Record<string, { data: Buffer; fileName: string; mimeType?: string }>;
}

/** A tiny node that emits the test's items, storing files through n8n's own binary helpers. */
let sourceItems: TestItem[] = [];

class TestSource implements INodeType {
	description = {
		displayName: 'Test Source', name: 'testSource', group: ['input'], version: 1, description: '',
		defaults: { name: 'Test Source' }, inputs: [NodeConnectionTypes.Main], outputs: [NodeConnectionTypes.Main], properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (const [index, item] of sourceItems.entries()) {
			const binary: INodeExecutionData['binary'] = {};
			for (const [name, file] of Object.entries(item.files ?? {})) {
				binary[name] = await this.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType ?? 'application/pdf');
			}
			out.push({ json: item.json ?? {}, binary: Object.keys(binary).length ? binary : undefined, pairedItem: { item: index } });
		}
		return [out];
	}
}

const intelliprint = new Intelliprint();
/** What an AI agent runs: n8n's tool variant of the node, the same node under a name ending in "Tool". */
const intelliprintTool: INodeType = Object.assign(Object.create(intelliprint) as INodeType, { description: { ...intelliprint.description, name: 'intelliprintTool' } });

const nodeClasses: Record<string, INodeType> = {
	'n8n-nodes-intelliprint.intelliprint': intelliprint,
	'n8n-nodes-intelliprint.intelliprintTool': intelliprintTool,
	'n8n-nodes-intelliprint.intelliprintTrigger': new IntelliprintTrigger(),
	'n8n-nodes-intelliprint.intelliprintStatusTrigger': new IntelliprintStatusTrigger(),
	'test.source': new TestSource(),
};

const nodeTypes: INodeTypes = {
	getByName: (type) => nodeClasses[type],
	getByNameAndVersion: (type) => nodeClasses[type],
	getKnownTypes: () => ({}),
} as INodeTypes;

let binaryModeReady: string | undefined;

/** Sets n8n's binary data mode the way an instance does at start-up ('default' keeps files in memory). */
export async function useBinaryMode(mode: 'default' | 'filesystem'): Promise<void> {
	if (binaryModeReady === mode) return;
	const config = Container.get(BinaryDataConfig);
	config.mode = mode as BinaryDataConfig['mode'];
	// localStoragePath keeps n8n's default: a folder under N8N_USER_FOLDER (set in vitest.config.mts).
	await Container.get(BinaryDataService).init();
	binaryModeReady = mode;
}

export interface RunOptions {
	parameters: INodeParameters;
	credentials?: ICredentialDataDecryptedObject;
	items?: TestItem[];
	continueOnFail?: boolean;
	mode?: WorkflowExecuteMode;
	/** The Intelliprint node's version (1 unless given; 1.1 maps recipients with the resource mapper). */
	typeVersion?: number;
	/** Run the node as an AI agent's tool (n8n's "…Tool" variant of it). */
	asTool?: boolean;
	/** n8n's On Error setting (overrides continueOnFail): "continueErrorOutput" gives the node its error output. */
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	/** A second Intelliprint node ("Intelliprint 2", same credential) fed by the first's output, in the same execution. */
	then?: INodeParameters;
}

export interface RunResult {
	items: INodeExecutionData[];
	/** What went to the error output (On Error → "Continue (using error output)"). */
	errorOutput: INodeExecutionData[];
	run: IRun;
	/** The error that stopped the node, if it failed. */
	error?: { message: string; description?: string | null; context?: IDataObject; httpCode?: string | null };
}

/**
 * What n8n hands a running node besides the workflow: credentials, URLs, hooks. Credentials are the
 * Intelliprint API credential's data, plus any other credential types' data by type name.
 */
export function testAdditionalData(
	credentials: ICredentialDataDecryptedObject,
	hooks?: ExecutionLifecycleHooks,
	otherCredentials: Record<string, ICredentialDataDecryptedObject> = {},
	executionId = 'exec-1',
): IWorkflowExecuteAdditionalData {
	const credentialsHelper = new TestCredentialsHelper(
		{ intelliprintApi: new IntelliprintApi(), intelliprintWebhookApi: new IntelliprintWebhookApi() },
		{ intelliprintApi: credentials, ...otherCredentials },
	);
	return {
		hooks, credentialsHelper, executionId, currentNodeExecutionIndex: 0, variables: {},
		restApiUrl: 'http://localhost/rest', instanceBaseUrl: 'http://localhost/', webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting', webhookTestBaseUrl: 'http://localhost/webhook-test',
		formBaseUrl: '', formWaitingBaseUrl: '', formTestBaseUrl: '', mcpBaseUrl: '', mcpTestBaseUrl: '',
		logAiEvent: () => {}, setExecutionStatus: () => {}, sendDataToUI: () => {},
		getRunExecutionData: async () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * A workflow holding one node of the given type, for contexts that act on a single node (list
 * searches, triggers). `staticData` is what n8n would have saved for the workflow between runs.
 */
export function singleNodeWorkflow(
	type: string,
	parameters: INodeParameters = {},
	staticData?: IDataObject,
): { workflow: Workflow; node: INode } {
	const node: INode = {
		id: 'n1', name: 'Node', type, typeVersion: 1, position: [0, 0], parameters,
		credentials: {
			intelliprintApi: { id: 'cred-1', name: 'Intelliprint account' },
			intelliprintWebhookApi: { id: 'cred-2', name: 'Intelliprint webhook' },
		},
	};
	const workflow = new Workflow({
		id: 'wf-single', nodes: [node], connections: {}, nodeTypes, active: true, settings: { executionOrder: 'v1' }, staticData,
	});
	return { workflow, node };
}

let executions = 0;

/** Runs "Test Source → Intelliprint" through n8n-core's WorkflowExecute and returns Intelliprint's output. */
export async function runIntelliprint(options: RunOptions): Promise<RunResult> {
	await useBinaryMode(binaryModeReady === 'filesystem' ? 'filesystem' : 'default');
	sourceItems = options.items ?? [{}];
	const nodes: INode[] = [
		{ id: 'src', name: 'Source', type: 'test.source', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'ip', name: 'Intelliprint', type: `n8n-nodes-intelliprint.intelliprint${options.asTool ? 'Tool' : ''}`, typeVersion: options.typeVersion ?? 1, position: [200, 0],
			parameters: options.parameters, credentials: { intelliprintApi: { id: 'cred-1', name: 'Intelliprint account' } },
			continueOnFail: options.continueOnFail ?? false,
			...(options.onError ? { onError: options.onError } : {}),
		},
	];
	const connections: Workflow['connectionsBySourceNode'] = { Source: { main: [[{ node: 'Intelliprint', type: NodeConnectionTypes.Main, index: 0 }]] } };
	if (options.then) {
		nodes.push({ ...nodes[1], id: 'ip2', name: 'Intelliprint 2', position: [400, 0], parameters: options.then });
		connections.Intelliprint = { main: [[{ node: 'Intelliprint 2', type: NodeConnectionTypes.Main, index: 0 }]] };
	}
	const workflow = new Workflow({ id: 'wf-test', nodes, nodeTypes, active: false, settings: { executionOrder: 'v1' }, connections });

	// Each run is an execution of its own, as in n8n (what the node keeps per execution must not leak between runs).
	const executionId = `exec-${++executions}`;
	const hooks = new ExecutionLifecycleHooks(options.mode ?? 'manual', executionId, { id: 'wf-test', name: 'test', active: false, nodes, connections: {}, settings: {}, createdAt: new Date(), updatedAt: new Date(), isArchived: false } as never);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));
	const additionalData = testAdditionalData(options.credentials ?? {}, hooks, {}, executionId);

	const runData: IRunExecutionData = {
		startData: {}, resultData: { runData: {} },
		executionData: {
			contextData: {}, metadata: {}, waitingExecution: {}, waitingExecutionSource: null,
			nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }],
		},
	} as unknown as IRunExecutionData;
	await new WorkflowExecute(additionalData, options.mode ?? 'manual', runData).processRunExecutionData(workflow);
	const run = await done;

	const task = run.data.resultData.runData.Intelliprint?.[0];
	const items = task?.data?.main?.[0] ?? [];
	const errorOutput = options.onError === 'continueErrorOutput' ? (task?.data?.main?.[1] ?? []) : [];
	const error = task?.error as RunResult['error'];
	return { items, errorOutput, run, error };
}

/**
 * The run a webhook starts, as n8n makes it (webhook-helpers prepareExecutionData): the trigger
 * node first on the stack with the webhook's items, run by n8n-core's WorkflowExecute. What the run
 * hands n8n to answer with (sendResponse, the "responseNode" answer) goes to `onResponse`.
 */
export async function runFromWebhook(
	workflow: Workflow,
	node: INode,
	items: INodeExecutionData[][],
	additionalData: IWorkflowExecuteAdditionalData,
	mode: WorkflowExecuteMode,
	onResponse: (response: { body: unknown; headers?: Record<string, string>; statusCode?: number }) => void,
): Promise<IRun> {
	const hooks = new ExecutionLifecycleHooks(mode, 'exec-webhook', { id: workflow.id, name: 'test', active: true, nodes: [node], connections: {}, settings: {}, createdAt: new Date(), updatedAt: new Date(), isArchived: false } as never);
	let finished!: (run: IRun) => void;
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));
	hooks.addHandler('sendResponse', (response) => onResponse(response as Parameters<typeof onResponse>[0]));
	const runData = {
		startData: {}, resultData: { runData: {} },
		executionData: {
			contextData: {}, metadata: {}, waitingExecution: {}, waitingExecutionSource: null,
			nodeExecutionStack: [{ node, data: { main: items }, source: null }],
		},
	} as unknown as IRunExecutionData;
	await new WorkflowExecute({ ...additionalData, hooks }, mode, runData).processRunExecutionData(workflow);
	return await done;
}
