import type { IExecuteFunctions, INodeExecutionData, NodeError } from 'n8n-workflow';

import { createdBy } from './ledger';
import { errorForModel, usedAsTool } from './toolMode';

/**
 * An error item for Continue On Fail, naming what the item had created before it failed. An AI
 * agent's tool (n8n 1.x hands a model the item) gets the error as errorForModel words it.
 */
export function errorItem(ctx: IExecuteFunctions, error: NodeError, itemIndex: number): INodeExecutionData {
	const created = createdBy(ctx, itemIndex);
	const forModel = usedAsTool(ctx);
	if (forModel) errorForModel(ctx, error);
	return {
		json: {
			error: error.message,
			...(error.description && !forModel ? { description: error.description } : {}),
			...(created.length ? { created_ids: created } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}
