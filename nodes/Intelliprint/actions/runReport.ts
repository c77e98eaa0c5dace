import type { IExecuteFunctions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { connectionSettings, requestsSent, shortestPacedMs } from '../transport';
import { repeatsSent } from '../addresses';
import { jobShape } from '../building';
import { usedAsTool } from '../agent';

/**
 * The hints a node run leaves beside its items, where a user is about to be surprised: for a person looking at the
 * panel, never for an AI agent. (What the run did to print jobs goes to n8n's execution custom data: runAccount.ts.)
 */

/** A mail run of more rows than this, sent without Skip Items Already Sent, gets a hint that a rerun sends it again. */
const FEW_ROWS = 5;

async function hints(ctx: IExecuteFunctions, output: INodeExecutionData[]): Promise<NodeExecutionHint[]> {
	const found: NodeExecutionHint[] = [];
	const rows = ctx.getInputData().length;
	const refused = output.filter((item) => item.json.error !== undefined).length;
	const creating = ctx.getNodeParameter('resource', 0, '') === 'printJob' && ctx.getNodeParameter('operation', 0, '') === 'create';
	if (creating && refused) {
		const where = ctx.getNode().onError === 'continueErrorOutput' ? 'the error output' : 'the items with an "error" field';
		found.push({ type: 'warning', location: 'outputPane', message: `${refused} of ${rows} row${rows === 1 ? '' : 's'} ${refused === 1 ? 'was' : 'were'} not sent: see ${where} for the reason on each.` });
	}
	const mailRun = creating && rows > 0 && jobShape(ctx, 0).recipients === 'allItems';
	if (mailRun && rows > FEW_ROWS && !ctx.getNodeParameter('options.sentKey', 0, '')) {
		found.push({
			type: 'warning',
			location: 'outputPane',
			message: `This mail run of ${rows} rows has no "Skip Items Already Sent": running it again sends every letter again (turned on now, it cannot find the letters this run sent). Set it under Options (e.g. {{ $json.id }}) before a run to make that run safe to repeat.`,
		});
	}
	const repeats = repeatsSent(ctx);
	if (repeats) {
		found.push({
			type: 'warning',
			location: 'outputPane',
			message: `${repeats} row${repeats === 1 ? ' repeats' : 's repeat'} the recipient of an earlier row, and each got a letter of its own. To send one letter per recipient, turn on Options → One Letter per Recipient.`,
		});
	}
	const { limit } = await connectionSettings(ctx);
	const requests = requestsSent(ctx);
	if (requests > limit.requests) {
		found.push({
			type: 'info',
			location: 'outputPane',
			message: `This run needed ${requests} requests to Intelliprint, which allows ${limit.requests} per ${limit.windowMs / 1000} s: at that pace it takes at least ${inWords(shortestPacedMs(requests, limit))}.${mailRun ? '' : ' A mail run (Recipients: All Input Items) sends many letters in one request.'}`,
		});
	}
	return found;
}

/** A duration as a person says it: seconds up to a minute and a half, then minutes. */
function inWords(ms: number): string {
	const seconds = ms / 1000;
	if (seconds < 90) return `${Number(seconds.toPrecision(2))} s`;
	return `${Math.round(seconds / 60)} minutes`;
}

/** After the items of a run are made: the run's hints (not for an AI agent). */
export async function hintRun(ctx: IExecuteFunctions, output: INodeExecutionData[]): Promise<void> {
	if (usedAsTool(ctx) || typeof ctx.addExecutionHints !== 'function') return;
	const found = await hints(ctx, output);
	if (found.length) ctx.addExecutionHints(...found);
}
