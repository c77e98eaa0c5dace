// One run of a workflow in this process through n8n-core's engine, shared by the in-process benches.
/**
 * One run of a workflow in this process through n8n-core's own engine, as the unit tests' harness runs it
 * (test/helpers/n8n.ts): its first node started with one empty item, each run an execution of its own. n8n-core's
 * classes are passed in (a bench may load another build's). `onHooks` adds handlers before the run.
 */
export async function runInEngine({ WorkflowExecute, ExecutionLifecycleHooks, workflow, nodes, credentialsHelper, executionId, onHooks }) {
	const hooks = new ExecutionLifecycleHooks('manual', executionId, { id: 'wf-bench', name: 'bench', active: false, nodes, connections: {}, settings: {}, createdAt: new Date(), updatedAt: new Date(), isArchived: false });
	onHooks?.(hooks);
	let finished;
	const done = new Promise((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (result) => finished(result));
	const additionalData = {
		hooks, credentialsHelper, executionId, currentNodeExecutionIndex: 0, variables: {},
		restApiUrl: 'http://localhost/rest', instanceBaseUrl: 'http://localhost/', webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting', webhookTestBaseUrl: 'http://localhost/webhook-test',
		formBaseUrl: '', formWaitingBaseUrl: '', formTestBaseUrl: '', mcpBaseUrl: '', mcpTestBaseUrl: '',
		logAiEvent: () => {}, setExecutionStatus: () => {}, sendDataToUI: () => {}, getRunExecutionData: async () => undefined,
	};
	const runData = {
		startData: {}, resultData: { runData: {} },
		executionData: { contextData: {}, metadata: {}, waitingExecution: {}, waitingExecutionSource: null, nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }] },
	};
	await new WorkflowExecute(additionalData, 'manual', runData).processRunExecutionData(workflow);
	return await done;
}

/**
 * The credentials side of n8n for one API key credential (test/helpers/credentials.ts, cut to what the node's header
 * credential needs): a class over n8n-workflow's ICredentialsHelper and the credential type, both passed in (a bench
 * may load another build's).
 */
export function credentialsHelperClass(ICredentialsHelper, CredentialType) {
	return class Credentials extends ICredentialsHelper {
		constructor(data) {
			super();
			this.data = data;
			this.type = new CredentialType();
		}
		getParentTypes() { return []; }
		isCredentialUsableByNode() { return true; }
		// The credential's own authenticate (a function: the Bearer header), as n8n's CredentialsHelper calls it.
		async authenticate(credentials, _typeName, requestOptions) { return await this.type.authenticate(credentials, requestOptions); }
		async preAuthentication() { return undefined; }
		async runPreAuthentication() { return undefined; }
		async getCredentials() { throw new Error('not used'); }
		async getDecrypted() { return { ...this.data }; }
		async updateCredentials() {}
		async updateCredentialsOauthTokenData() {}
		getCredentialsProperties() { return this.type.properties; }
	};
}
