import type { IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeError, NodeOperationError } from 'n8n-workflow';

import { errorItem, everyRowFailed, recordAccount } from '../results';
import { allCreated, createdBy, type Created } from '../results';
import { hintRun } from './runReport';
import { errorForModel, forModel, usedAsTool } from '../agent';
import { inTurns } from '../values';
import { itemsInParallel } from './itemsInParallel';
import * as address from './address';
import * as background from './background';
import * as mailingList from './mailingList';
import * as mailingListRecipient from './mailingListRecipient';
import * as merge from './merge';
import * as printJob from './printJob';

type Operation = {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** Whether this run's settings make the operation one request for all items (a mail run, a merge across items). */
	runsOnce?: (this: IExecuteFunctions) => boolean;
	/** Checks every item before any is sent, when a failure stops the run (nothing must go out then). */
	checkItems?: (this: IExecuteFunctions) => void;
};

const resources: Record<string, Record<string, Operation>> = {
	address: address as unknown as Record<string, Operation>,
	printJob: printJob as unknown as Record<string, Operation>,
	background: background as unknown as Record<string, Operation>,
	merge: merge as unknown as Record<string, Operation>,
	mailingList: mailingList as unknown as Record<string, Operation>,
	mailingListRecipient: mailingListRecipient as unknown as Record<string, Operation>,
};

function handlerFor(ctx: IExecuteFunctions, itemIndex: number): Operation {
	const resource = ctx.getNodeParameter('resource', itemIndex) as string;
	const operation = ctx.getNodeParameter('operation', itemIndex) as string;
	if (operation === '__CUSTOM_API_CALL__') {
		throw new NodeOperationError(ctx.getNode(), 'The Intelliprint node has no Custom API Call', {
			itemIndex,
			description:
				"For a request the node does not offer, use n8n's HTTP Request node with Authentication → Predefined Credential Type → Intelliprint API: it sends your API key the same way.",
		});
	}
	const handler = resources[resource]?.[operation];
	if (!handler?.execute) {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operation}" is not known for "${resource}"`, { itemIndex });
	}
	return handler;
}

async function runItem(ctx: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	return await handlerFor(ctx, itemIndex).execute.call(ctx, itemIndex);
}

/** The item's error, as a NodeError that names the item and what it created before failing. */
function itemError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeError {
	// Both constructors hand back the same error when it already is one of theirs.
	const nodeError =
		error instanceof NodeApiError
			? new NodeApiError(ctx.getNode(), error as unknown as JsonObject)
			: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	if (nodeError.context.itemIndex === undefined) nodeError.context.itemIndex = itemIndex;
	const created = createdBy(ctx, itemIndex);
	if (created.length && !nodeError.context.createdIds) {
		nodeError.context.createdIds = created;
		// A spending refusal says itself what a rerun does with its draft.
		const note = nodeError.context.rerunAdvised ? '' : ': do not run it again, or it is created twice';
		nodeError.description = `${nodeError.description ?? ''} ${created.join(', ')} was created for this item before this happened${note}.`.trim();
	}
	return nodeError;
}

/** Adds to the error that stops the run which items had already created what, so a rerun can skip them. */
function stoppingError(ctx: IExecuteFunctions, error: NodeError, itemCount: number): NodeError {
	const created = allCreated(ctx);
	if (!created.length) return error;
	const listed = (entries: Array<[number, Created[]]>) => {
		const shown = entries.slice(0, 200).map(([item, made]) => `item ${item + 1} → ${made.map((entry) => entry.id).join(', ')}`);
		return `${shown.join('; ')}${entries.length > shown.length ? ` and ${entries.length - shown.length} more` : ''}`;
	};
	const only = (state: boolean | undefined) =>
		created.map(([item, made]): [number, Created[]] => [item, made.filter((entry) => entry.confirmed === state)]).filter(([, made]) => made.length);
	const groups: Array<[string, Array<[number, Created[]]>]> = [
		['Confirmed print jobs', only(true)],
		['Drafts (not confirmed, nothing charged)', only(false)],
		['Also created', only(undefined)],
	];
	const keyed = created.every(([, made]) => made.every((entry) => entry.keyed));
	// Only Print Job → Create has "Skip Items Already Sent": no other operation is told to turn it on.
	const skippable = ctx.getNodeParameter('resource', 0, '') === 'printJob' && ctx.getNodeParameter('operation', 0, '') === 'create';
	error.description = [
		error.description,
		`The run stopped at item ${Number(error.context.itemIndex) + 1} of ${itemCount}, but these had already been created:`,
		...groups.filter(([, entries]) => entries.length).map(([label, entries]) => `${label}: ${listed(entries)}.`),
		keyed
			? 'Running the same items again is safe: Skip Items Already Sent skips what was sent and confirms the drafts a limit held back once it allows.'
			: `Running the same items again would create these again: run only the items not listed here${skippable ? ' (turned on now, Skip Items Already Sent cannot find jobs made without it; set it before a run to make that run safe to repeat)' : ''}.`,
	]
		.filter(Boolean)
		.join(' ');
	error.context.createdByItem = Object.fromEntries(created.map(([item, made]) => [item, made.map((entry) => entry.id)]));
	return error;
}

/**
 * Runs the chosen operation for every input item, several at once within the credential's rate
 * budget. Output keeps input order. A failed item becomes an error item with Continue On Fail;
 * otherwise the run stops once the items already in flight have finished, and the error says what
 * had been created by then.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const tool = usedAsTool(this);
	try {
		const output = await runItems.call(this);
		await hintRun(this, output[0] ?? []);
		// The door where items leave the node: an AI agent reads print jobs with a summary, errors about its arguments.
		return tool ? output.map((items) => forModel(this, items)) : output;
	} catch (caught) {
		const error = caught instanceof NodeError ? caught : new NodeOperationError(this.getNode(), caught as Error);
		throw tool ? errorForModel(this, error) : error;
	} finally {
		// What the execution did to print jobs, however this run ended (a run that stops after charging included).
		recordAccount(this);
	}
}

async function runItems(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const once = items.length > 0 ? handlerFor(this, 0) : undefined;
	if (once?.runsOnce?.call(this)) {
		// The operation reads every item itself and pairs its output (and its error items) with them.
		try {
			return [await once.execute.call(this, 0)];
		} catch (caught) {
			const error = itemError(this, caught, 0);
			if (!this.continueOnFail()) throw stoppingError(this, error, items.length);
			// It failed before it could tell its rows apart: each of them gets the error, none goes without an outcome.
			return [everyRowFailed(this, error)];
		}
	}
	const continueOnFail = this.continueOnFail();
	if (!continueOnFail) once?.checkItems?.call(this);
	const runOne = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		try {
			return await runItem(this, itemIndex);
		} catch (caught) {
			const error = itemError(this, caught, itemIndex);
			if (!continueOnFail) throw error;
			return [errorItem(this, error, itemIndex)];
		}
	};
	try {
		const results = await inTurns(items.length, await itemsInParallel(this, items.length), runOne);
		return [results.flatMap((result) => result ?? [])];
	} catch (failure) {
		throw stoppingError(this, failure as NodeError, items.length);
	}
}
