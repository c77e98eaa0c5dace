import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject, NodeError } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { createdBy } from './ledger';

/**
 * An error item for Continue On Fail, naming what the item had created before it failed (and the draft a spending
 * limit held back, with its cost). Every item that did not succeed is made here, so this is where it is shaped for
 * n8n's error output. Under On Error → "Continue (using error output)" n8n moves an item there only when its JSON
 * is `{ error }` or `{ error, message }` (n8n-core handleNodeErrorOutput: 1.x takes no other keys, 2.x also
 * `details`), and merges the row's own fields into it; an item carrying `INodeExecutionData.error` is moved too,
 * but n8n then cuts its JSON down to the message. So there `message` says, in words, what to do and which IDs were
 * made; under the other settings the item keeps its fields. An AI agent's tool (n8n 1.x hands a model the item)
 * gets the error as errorForModel words it.
 */
export function errorItem(ctx: IExecuteFunctions, error: NodeError, itemIndex: number): INodeExecutionData {
	const created = createdBy(ctx, itemIndex);
	const held = error.context.heldDraft as IDataObject | undefined;
	const pairedItem = { item: itemIndex };
	if (ctx.getNode().onError === 'continueErrorOutput') {
		const told = [error.description, created.length && !error.description?.includes(created[0]) ? `Created for this item: ${created.join(', ')}.` : ''];
		return kept({ json: { error: error.message, message: told.filter(Boolean).join(' ') || error.message }, pairedItem }, error);
	}
	const json: IDataObject = {
		error: error.message,
		...(error.description ? { description: error.description } : {}),
		...(created.length ? { created_ids: created } : {}),
		...(held ? { draft_id: held.id, draft_cost_after_tax_gbp: held.costGbp } : {}),
	};
	return kept({ json, pairedItem }, error);
}

/** Each error item's error, for the wording an AI agent reads (toolMode.ts), kept beside the item, not in it. */
const errorsOfItems = new WeakMap<IDataObject, NodeError>();

function kept(item: INodeExecutionData, error: NodeError): INodeExecutionData {
	errorsOfItems.set(item.json, error);
	return item;
}

export function errorOfItem(json: IDataObject): NodeError | undefined {
	return errorsOfItems.get(json);
}

/** A caught error as the node's own kind: re-wrapping hands back the same error when it already is one. */
export function asNodeError(ctx: IExecuteFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError) return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error);
}
