import type { IExecuteFunctions, INodeExecutionData, NodeError } from 'n8n-workflow';

import { createdBy } from './ledger';

/** An error item for Continue On Fail, naming what the item had created before it failed. */
export function errorItem(ctx: IExecuteFunctions, error: NodeError, itemIndex: number): INodeExecutionData {
	const created = createdBy(ctx, itemIndex);
	return {
		json: {
			error: error.message,
			...(error.description ? { description: error.description } : {}),
			...(created.length ? { created_ids: created } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}
