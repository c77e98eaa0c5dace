// The n8n the webhook benches deliver to: a fresh instance with the fuzz workflows and the peer, n8n's own Webhook
// node (Respond: Immediately), the trigger a user has without this package (it checks no signature and dedupes
// nothing). One of the two is published; n8n is started and waited for until the webhook answers.
import fs from 'fs-extra';

import runnerModule from '../test/e2e/n8n.ts';
import fuzzModule from '../test/e2e/webhookFuzz.ts';

const { N8nInstance, ROOT } = runnerModule;
const { FUZZ_WORKFLOWS, writeFuzzWorkflows } = fuzzModule;

const PEER = { id: 'ipBenchPeerHook1', webhookId: 'b0b0b0b0-0000-4000-8000-00000000b001' };
const peerWorkflow = {
	id: PEER.id, name: 'Peer: n8n Webhook node', active: false, settings: { executionOrder: 'v1' }, connections: {}, pinData: {},
	nodes: [{ id: 'peer-hook', name: 'Trigger', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: PEER.webhookId,
		parameters: { httpMethod: 'POST', path: PEER.webhookId, responseMode: 'onReceived', options: {} } }],
};

/**
 * Starts n8n for one bench row, `kind` "node" (the trigger's mail.failed workflow) or "peer", in its own folder under
 * .bench (the e2e suite clears .e2e/runs when it starts). Returns the instance, its webhook URL and the workflow's ID.
 */
export async function startWebhookN8n({ name, kind, secret, port, env = {}, line }) {
	const n8n = await N8nInstance.create(name, env, `${ROOT}/.bench/n8n/${name}-${Date.now()}`, line);
	await n8n.importCredentials([{ id: 'ipWebhookCred001', name: 'Intelliprint webhook', type: 'intelliprintWebhookApi', data: { signingSecret: secret } }]);
	const files = await writeFuzzWorkflows(`${n8n.userFolder}/wf`, { id: 'ipWebhookCred001', name: 'Intelliprint webhook' });
	await fs.outputJson(`${n8n.userFolder}/wf/peer.json`, peerWorkflow);
	await n8n.importWorkflows([...files, `${n8n.userFolder}/wf/peer.json`]);
	const workflowId = kind === 'node' ? FUZZ_WORKFLOWS.failed.id : PEER.id;
	await n8n.publish(workflowId);
	await n8n.start(port);
	const url = kind === 'node' ? `http://127.0.0.1:${port}/webhook/${FUZZ_WORKFLOWS.failed.webhookId}/webhook` : `http://127.0.0.1:${port}/webhook/${PEER.webhookId}`;
	while ((await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status === 404) await new Promise((r) => setTimeout(r, 300));
	return { n8n, url, workflowId };
}
