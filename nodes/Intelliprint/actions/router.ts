import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeError, NodeOperationError } from 'n8n-workflow';

import * as background from './background';
import * as merge from './merge';
import * as printJob from './printJob';

type Operation = { execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]> };

const resources: Record<string, Record<string, Operation>> = {
	printJob: printJob as unknown as Record<string, Operation>,
	background: background as unknown as Record<string, Operation>,
	merge: merge as unknown as Record<string, Operation>,
};

/** Runs the chosen operation once per input item; a failed item either stops the run or, with Continue On Fail, becomes an error item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operation = this.getNodeParameter('operation', itemIndex) as string;
		const handler = resources[resource]?.[operation];
		try {
			if (!handler?.execute) {
				throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not known for "${resource}"`, {
					itemIndex,
				});
			}
			returnData.push(...(await handler.execute.call(this, itemIndex)));
		} catch (error) {
			if (error instanceof NodeError && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
			if (this.continueOnFail()) {
				const description = (error as NodeError).description;
				returnData.push({
					json: { error: (error as Error).message, ...(description ? { description } : {}) },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			// Both constructors hand back the same error when it already is one of theirs.
			if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}
	return [returnData];
}
