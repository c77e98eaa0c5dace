import type { IExecuteFunctions, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';


/** Collections list their options alphabetically (n8n's UX rule), whatever order they were written in. */
export function alphabetical(properties: INodeProperties[]): INodeProperties[] {
	return [...properties].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** A resource locator's value as n8n stores it (or a plain ID from older or hand-written parameters). */
export type LocatorValue = string | INodeParameterResourceLocator | undefined;

/**
 * The ID inside a resource locator value, checked before it is put into a URL or a body. Returns
 * null when the locator is empty (an optional one the user left blank).
 */
export function locatorId(ctx: IExecuteFunctions, itemIndex: number, value: LocatorValue, prefix: string, what: string): string | null {
	const id = String((typeof value === 'object' ? value?.value : value) ?? '').trim();
	if (!id) return null;
	if (!new RegExp(`^${prefix}[A-Za-z0-9]+$`).test(id)) {
		throw new NodeOperationError(ctx.getNode(), `"${id}" is not a valid ${what} ID`, {
			itemIndex,
			description: `The ID starts with "${prefix}", e.g. ${prefix}4f9a2c7d1e. Pick it from the list or check the expression.`,
		});
	}
	return id;
}

/** The required ID from a top-level resource locator parameter. */
export function getLocatorId(ctx: IExecuteFunctions, itemIndex: number, parameter: string, prefix: string, what: string): string {
	const value = ctx.getNodeParameter(parameter, itemIndex, '', { extractValue: true }) as string;
	const id = locatorId(ctx, itemIndex, value, prefix, what);
	if (id === null) {
		throw new NodeOperationError(ctx.getNode(), `No ${what} chosen`, { itemIndex, description: `Pick a ${what} from the list or give its ID.` });
	}
	return id;
}

export function getPrintJobId(ctx: IExecuteFunctions, itemIndex: number): string {
	return getLocatorId(ctx, itemIndex, 'printJob', 'print_', 'print job');
}

export function getBackgroundId(ctx: IExecuteFunctions, itemIndex: number): string {
	return getLocatorId(ctx, itemIndex, 'background', 'bg_', 'background');
}

