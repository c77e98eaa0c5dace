import type { IExecuteFunctions, INodeExecutionData, IPairedItemData } from 'n8n-workflow';
import { NodeError, NodeOperationError } from 'n8n-workflow';

import { errorItem } from './errorItem';

/**
 * One rule for the operations that send many rows in one request (a mail run, a mailing list made or filled from
 * items, recipients added): every input row comes out exactly once, with what happened to it. A row refused on its
 * own keeps its own reason; a request the API refuses, or that fails on the way, gives its error to the rows it
 * carried, and to no other. Without Continue On Fail the first failure stops the run and says which rows it concerns.
 */

/** What a row stands for in an operation's words: a letter, or a recipient stored on a mailing list. */
export function rowsAre(ctx: IExecuteFunctions): 'letters' | 'recipients' {
	return ctx.getNodeParameter('resource', 0, 'printJob') === 'printJob' ? 'letters' : 'recipients';
}

/** Rows in words, numbered from 1: "item 4", "items 1 to 100", "97 items from item 1 to item 100". */
export function rowsInWords(rows: number[]): string {
	const [first, last] = [rows[0] + 1, rows[rows.length - 1] + 1];
	if (rows.length === 1) return `item ${first}`;
	return last - first + 1 === rows.length ? `items ${first} to ${last}` : `${rows.length} items from item ${first} to item ${last}`;
}

/**
 * A failure as each of the rows it concerns sees it: with Continue On Fail an error item per row, paired with it;
 * without, the error (thrown) names the rows, and what had already been done for others (`before`).
 */
export function rowsFailed(ctx: IExecuteFunctions, caught: unknown, rows: number[], before?: string): INodeExecutionData[] {
	const error = caught instanceof NodeError ? caught : new NodeOperationError(ctx.getNode(), caught as Error, { itemIndex: rows[0] });
	if (!ctx.continueOnFail()) {
		const concerns = `This concerns the ${rowsAre(ctx)} of ${rowsInWords(rows)}.`;
		if (!error.description?.includes(concerns)) error.description = [error.description, concerns, before].filter(Boolean).join(' ');
		throw error;
	}
	return rows.map((row) => errorItem(ctx, error, row));
}

/** The rows of a run: those that can be sent, and the refused ones' own error items (addresses/recipients.ts makes it). */
interface RunRows {
	recipients: unknown[];
	itemIndexes: number[];
	errorItems: INodeExecutionData[];
}

const rowOf = (item: INodeExecutionData) => (Array.isArray(item.pairedItem) ? 0 : ((item.pairedItem as IPairedItemData | undefined)?.item ?? 0));

/**
 * Sends the rows that could be read (`run`), keeping the refused ones' own errors: a failure of the whole send
 * becomes an error on each row it carried. Results first, then every error in row order.
 */
export async function forEveryRow(
	ctx: IExecuteFunctions,
	run: RunRows,
	send: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	if (!run.recipients.length) return run.errorItems;
	let output: INodeExecutionData[];
	try {
		output = await send();
	} catch (caught) {
		output = rowsFailed(ctx, caught, run.itemIndexes);
	}
	const failed = [...output.filter((item) => item.json.error !== undefined), ...run.errorItems].sort((a, b) => rowOf(a) - rowOf(b));
	return [...output.filter((item) => item.json.error === undefined), ...failed];
}

/** Every input item's error, when an operation that takes them all at once failed before it could tell them apart. */
export function everyRowFailed(ctx: IExecuteFunctions, error: NodeError): INodeExecutionData[] {
	return ctx.getInputData().map((_, row) => errorItem(ctx, error, row));
}
