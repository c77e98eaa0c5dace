import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';

import { connectionSettings, requestsSent } from '../transport';
import { repeatsSent } from './duplicates';
import { jobShape } from './printJobSource';
import { usedAsTool } from './toolMode';

/**
 * What a node run leaves beside its items: n8n's execution custom data (which print jobs this execution created or
 * confirmed, so "which run posted print_…?" is answered from n8n's executions) and hints where a user is about to be
 * surprised. Hints are for a person looking at the panel, never for an AI agent.
 */

/** n8n keeps at most 10 custom data keys per execution, keys of up to 50 letters, digits and "_", values of 255 characters. */
const VALUE_LIMIT = 255;
export const CUSTOM_DATA_KEYS = {
	jobs: 'intelliprint_print_jobs',
	ids: 'intelliprint_print_job_ids',
	letters: 'intelliprint_letters',
	mode: 'intelliprint_mode',
	cost: 'intelliprint_cost_gbp',
} as const;
/** A mail run of more rows than this, sent without Skip Items Already Sent, gets a hint that a rerun sends it again. */
const FEW_ROWS = 5;

const isPrintJob = (item: INodeExecutionData) => typeof item.json.id === 'string' && item.json.id.startsWith('print_') && item.json.error === undefined;

/** The print jobs this run created or confirmed (not those found again as already sent, nor drafts only changed). */
function jobsMade(ctx: IExecuteFunctions, output: INodeExecutionData[]): IDataObject[] {
	const operation = ctx.getNodeParameter('operation', 0, '') as string;
	if (ctx.getNodeParameter('resource', 0, '') !== 'printJob' || !['create', 'confirm', 'update'].includes(operation)) return [];
	const jobs = new Map<string, IDataObject>();
	for (const item of output.filter(isPrintJob)) {
		if (item.json.already_sent === true || (operation !== 'create' && item.json.confirmed !== true)) continue;
		// One item per letter (Output: Letters) repeats its job: each job counts once.
		jobs.set(String(item.json.print_job_id ?? item.json.id), item.json);
	}
	return [...jobs.values()];
}

type CustomData = { getAll: () => Record<string, string>; setAll: (values: Record<string, string>) => void };

/** n8n 2.x hands nodes `customData`; n8n 1.x has it only as `$execution.customData`, the same store. */
function customDataOf(ctx: IExecuteFunctions): CustomData | undefined {
	if ('customData' in ctx && ctx.customData) return ctx.customData as CustomData;
	return (ctx.getWorkflowDataProxy(0).$execution as { customData?: CustomData } | undefined)?.customData;
}

function recordCustomData(ctx: IExecuteFunctions, jobs: IDataObject[]): void {
	const data = jobs.length ? customDataOf(ctx) : undefined;
	if (!data) return;
	const before = data.getAll();
	const ids = [...String(before[CUSTOM_DATA_KEYS.ids] ?? '').split(/, | … /).filter(Boolean), ...jobs.map((job) => String(job.id))];
	const count = Number(before[CUSTOM_DATA_KEYS.jobs] ?? 0) + jobs.length;
	const listed = ids.join(', ');
	const modes = new Set([...(before[CUSTOM_DATA_KEYS.mode] ? String(before[CUSTOM_DATA_KEYS.mode]).split('+') : []), ...jobs.map((job) => (job.testmode ? 'test' : 'live'))]);
	const letters = jobs.reduce((sum, job) => sum + Number(job.letter_count ?? 0), Number(before[CUSTOM_DATA_KEYS.letters] ?? 0));
	const pence = jobs.reduce((sum, job) => sum + Math.round(Number(job.cost_after_tax_gbp ?? 0) * 100), Math.round(Number(before[CUSTOM_DATA_KEYS.cost] ?? 0) * 100));
	data.setAll({
		[CUSTOM_DATA_KEYS.jobs]: String(count),
		// All the IDs while they fit in n8n's 255 characters; past that, the first and the last.
		[CUSTOM_DATA_KEYS.ids]: listed.length <= VALUE_LIMIT && count === ids.length ? listed : `${ids[0]} … ${ids[ids.length - 1]}`,
		[CUSTOM_DATA_KEYS.letters]: String(letters),
		[CUSTOM_DATA_KEYS.mode]: [...modes].sort().join('+'),
		[CUSTOM_DATA_KEYS.cost]: (pence / 100).toFixed(2),
	});
}

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
			message: `This mail run of ${rows} rows has no "Skip Items Already Sent": running it again sends every letter again. Set it under Options (e.g. {{ $json.id }}) to make reruns safe.`,
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
		const minutes = (requests / limit.requests) * (limit.windowMs / 60_000);
		found.push({
			type: 'info',
			location: 'outputPane',
			message: `This run needed ${requests} requests to Intelliprint, which allows ${limit.requests} per ${limit.windowMs / 1000} s: it takes about ${minutes < 1 ? 'a minute' : `${Math.round(minutes)} minutes`} at that pace.${mailRun ? '' : ' A mail run (Recipients: All Input Items) sends many letters in one request.'}`,
		});
	}
	return found;
}

/** After the items of a run are made: the execution's custom data, and the run's hints (not for an AI agent). */
export async function reportRun(ctx: IExecuteFunctions, output: INodeExecutionData[]): Promise<void> {
	recordCustomData(ctx, jobsMade(ctx, output));
	if (usedAsTool(ctx) || typeof ctx.addExecutionHints !== 'function') return;
	const found = await hints(ctx, output);
	if (found.length) ctx.addExecutionHints(...found);
}
