import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, EXPECT } from '../transport';
import { errorOfItem } from '../results';
import { toGbp, type PrintJob } from '../results';

/**
 * The field labels a model's arguments fill (registered by actions/tool.descriptions.ts as the tool's fields are
 * made), so an error about a field can name the argument instead.
 */
export const MODEL_ARGUMENTS = new Map<string, string>();

/** Whether an AI agent runs this node as its tool (n8n's tool variant of a node is named "…Tool"). */
export function usedAsTool(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/** Whether this run may post real mail: always outside an agent; inside one, only if the builder allowed it. */
export function liveAllowed(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return !usedAsTool(ctx) || ctx.getNodeParameter('allowLive', itemIndex, false) === true;
}

/**
 * Refuses what only the builder may allow: confirming a live draft sends it to print and charges for it. A test
 * job may be confirmed (it is never printed, posted or charged); it is read first to tell, and handed back.
 */
export async function testJobOrRefuse(ctx: IExecuteFunctions, itemIndex: number, id: string): Promise<PrintJob | undefined> {
	if (liveAllowed(ctx, itemIndex)) return undefined;
	const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex });
	if (job.testmode) return job;
	const error = new NodeOperationError(ctx.getNode(), 'This tool may not confirm a live print job: the workflow does not allow live letters', {
		itemIndex,
		description: `Confirming ${id} would post real letters and charge for them, so only the workflow's builder can allow it ("Allow Live Letters" in the tool's panel). Do not retry: tell the user the print job ID so they can check the draft and confirm it in Intelliprint themselves.`,
	});
	// No argument of the model's can change this: errorForModel must not invite another call.
	error.context.adviceForModel = true;
	throw error;
}

/** Names in the `$fromAI()` calls of the node's parameters: the arguments this tool takes. */
export function toolArguments(ctx: IExecuteFunctions): string[] {
	const keys = JSON.stringify(ctx.getNode().parameters).matchAll(/\$fromAI\(\s*\\?["'`]([\w-]+)/g);
	return [...new Set([...keys].map((match) => match[1]))];
}

function pounds(amount: unknown): string | undefined {
	return typeof amount === 'number' && Number.isFinite(amount) ? `£${amount.toFixed(2)}` : undefined;
}

/** One sentence a model can pass on: what the job is, whether it will be posted, what it costs. */
export function printJobSummary(job: IDataObject): string {
	const cost = job.cost as IDataObject | undefined;
	const net = pounds(job.cost_gbp ?? toGbp(cost?.amount as number | undefined));
	const gross = pounds(job.cost_after_tax_gbp ?? toGbp(cost?.after_tax as number | undefined));
	const letters = Number(job.letter_count ?? (job.letters as unknown[] | undefined)?.length ?? 0);
	const parts = [
		`${job.testmode ? 'Test' : 'Live'} print job ${String(job.id)}`,
		`${letters} letter${letters === 1 ? '' : 's'}`,
		job.confirmed ? 'confirmed' : 'a draft, not confirmed',
		// A test job costs nothing: its price is what the same job would cost live.
		net ? (job.testmode ? `free (live, it would cost ${net}${gross ? `, ${gross} with VAT` : ''})` : `cost ${net}${gross ? ` (${gross} with VAT)` : ''}`) : undefined,
	];
	const after = job.testmode
		? job.confirmed
			? 'It is a test job: confirming it printed and posted nothing, and no letter will arrive.'
			: 'Test jobs are never printed or posted.'
		: job.confirmed
			? 'It will be printed, posted and charged.'
			: 'Nothing is printed or charged until it is confirmed.';
	return `${parts.filter(Boolean).join(', ')}. ${after}`;
}

/**
 * What an agent gets back, worded at the one door where items leave the node (the router): each print job with a
 * one-line summary (and a word when a live job was asked for but a test job made), each error item as the model
 * should read it.
 */
export function forModel(ctx: IExecuteFunctions, items: INodeExecutionData[]): INodeExecutionData[] {
	// An empty output reaches a model as an empty string, which it cannot tell from a failure.
	if (!items.length) return [{ json: { found: 0, summary: 'Nothing found: no entries match.' }, pairedItem: { item: 0 } }];
	return items.map((item) => {
		const json = item.json;
		const error = errorOfItem(json);
		if (error) {
			// n8n hands a model the item: the error in its words, and the IDs it must pass on; no panel's description.
			const kept = Object.entries(json).filter(([key]) => key !== 'description' && key !== 'message');
			return { ...item, json: { ...Object.fromEntries(kept), error: modelMessage(ctx, error) } };
		}
		if (typeof json.id !== 'string' || !json.id.startsWith('print_')) return item;
		const refused = json.live_refused ? ' A live job was asked for, but this workflow lets the agent make test jobs only.' : '';
		return { ...item, json: { ...json, summary: `${printJobSummary(json)}${refused}` } };
	});
}

/**
 * An error as a model should read it: about its own arguments, not about "item 1" or fields of a panel it cannot
 * see, with what to do in the message (n8n hands a model the message alone). Worded from the error as it was
 * made, so wording twice cannot repeat the advice.
 */
export function modelMessage(ctx: IExecuteFunctions, error: NodeError): string {
	const names = toolArguments(ctx);
	let message = error.message.replace(/^Item 1 has/, 'The tool call has');
	// An error that already tells the model what to do gets no general invitation to call again.
	const hint = names.length > 0 && error.context?.adviceForModel !== true ? `If an argument you gave (${names.join(', ')}) caused this, correct it and call the tool again.` : '';
	const advice = [error.description, hint].filter((text) => text && !message.includes(text)).join(' ');
	if (advice) message = `${message.replace(/\.$/, '')}. ${advice}`;
	for (const [label, key] of MODEL_ARGUMENTS) message = message.split(`"${label}"`).join(`the argument "${key}"`);
	return message.charAt(0).toUpperCase() + message.slice(1);
}

/** A thrown error, worded for the model once, where it leaves the node. */
export function errorForModel(ctx: IExecuteFunctions, error: NodeError): NodeError {
	error.message = modelMessage(ctx, error);
	// The message now holds the advice, in the model's argument names: n8n's execution view shows both, so the
	// description would repeat it in the panel's labels.
	error.description = null;
	return error;
}
