import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PRINT_JOB_ID_REGEX } from '../actions/common.descriptions';

/** Collections list their options alphabetically (n8n's UX rule), whatever order they were written in. */
export function alphabetical(properties: INodeProperties[]): INodeProperties[] {
	return [...properties].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** The print job ID from the resource locator, checked before it is put into a URL. */
export function getPrintJobId(ctx: IExecuteFunctions, itemIndex: number): string {
	const id = String(ctx.getNodeParameter('printJob', itemIndex, '', { extractValue: true }) ?? '').trim();
	if (!new RegExp(PRINT_JOB_ID_REGEX).test(id)) {
		throw new NodeOperationError(ctx.getNode(), `"${id}" is not a print job ID`, {
			itemIndex,
			description: 'A print job ID starts with "print_", e.g. print_4f9a2c7d1e. Pick the job from the list or check the expression.',
		});
	}
	return id;
}

export function getOutputChoice(ctx: IExecuteFunctions, itemIndex: number): { output: string; simplify: boolean } {
	return {
		output: ctx.getNodeParameter('output', itemIndex, 'printJob') as string,
		simplify: ctx.getNodeParameter('simplify', itemIndex, true) as boolean,
	};
}
