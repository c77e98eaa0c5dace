import fs from 'fs-extra';

import { ROOT } from '../n8n';

/**
 * Twins of examples/approve-before-posting.json that a test can start on a running n8n: a manual
 * trigger only runs from the editor, so each twin has a Webhook trigger in its place (still named
 * "Run now", so the connections stay as they are). Everything after the trigger is the example's
 * own nodes, read from the file at test time, so the twins cannot drift from it.
 */
export const APPROVAL_TWINS = {
	/** The example's steps as they are: the draft waits up to 7 days for a decision. */
	decided: { id: 'ipE2eApproval001', path: 'approval-e2e', webhookId: '3c9e5f1a-7b2d-4e60-8a14-6f0b2d9c1e01' },
	/** The same with a 5-second limit, to see an unanswered draft deleted. */
	unanswered: { id: 'ipE2eApproval002', path: 'approval-e2e-unanswered', webhookId: '3c9e5f1a-7b2d-4e60-8a14-6f0b2d9c1e02' },
};

export const EXAMPLE = `${ROOT}/examples/approve-before-posting.json`;

type Node = { name: string; type: string; parameters: Record<string, unknown> } & Record<string, unknown>;

/** Writes both twins into `folder` and returns their paths. */
export async function writeApprovalTwins(folder: string): Promise<string[]> {
	const files: string[] = [];
	for (const [kind, twin] of Object.entries(APPROVAL_TWINS)) {
		const workflow = (await fs.readJson(EXAMPLE)) as { id: string; name: string; nodes: Node[]; active: boolean };
		workflow.id = twin.id;
		workflow.name = `E2E approval (${kind})`;
		workflow.nodes = workflow.nodes.map((node) => {
			if (node.name === 'Run now') {
				return {
					...node, type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: twin.webhookId,
					parameters: { httpMethod: 'POST', path: twin.path, responseMode: 'onReceived', options: {} },
				};
			}
			if (kind === 'unanswered' && node.type === 'n8n-nodes-base.wait') {
				return { ...node, parameters: { ...node.parameters, resumeAmount: 5, resumeUnit: 'seconds' } };
			}
			return node;
		});
		const file = `${folder}/${twin.id}.json`;
		await fs.outputJson(file, workflow, { spaces: '\t' });
		files.push(file);
	}
	return files;
}
