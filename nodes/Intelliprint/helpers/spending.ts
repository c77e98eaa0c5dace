import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequestAllItems, connectionSettings } from '../transport';
import type { PrintJob } from './output';
import { updatePrintJob } from './updatePrintJob';

/** API amounts carry 8 implied decimals of a pound. */
const PER_POUND = 100_000_000;
const pounds = (amount: number) => `£${(amount / PER_POUND).toFixed(2)}`;

const LONDON = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

function londonClock(at: number): { date: number; offset: number } {
	const parts = Object.fromEntries(LONDON.formatToParts(at).map((part) => [part.type, Number(part.value)]));
	const date = Date.UTC(parts.year, parts.month - 1, parts.day);
	// London is UTC or UTC+1: its wall clock read as UTC, less the instant, to the minute.
	return { date, offset: Math.round((date + (parts.hour * 60 + parts.minute) * 60_000 - at) / 60_000) * 60_000 };
}

/**
 * The start (Unix seconds) of the UK calendar day holding `now`: what "today" means for a daily limit. The
 * offset is the one in force at midnight, which on the days the clocks change is not the one in force now.
 */
export function ukMidnight(now = Date.now()): number {
	const { date, offset } = londonClock(now);
	return (date - londonClock(date - offset).offset) / 1000;
}

/** A live confirm this process has sent, counted until the API's list of today's jobs shows it. */
interface Reservation {
	id: string;
	amount: number;
	day: number;
}
/** By credential fingerprint: shared by every item, run and workflow in this n8n process. */
const inFlight = new Map<string, Reservation[]>();

/** What the key confirmed live since UK midnight (cost after tax), and which jobs, read newest first. */
async function confirmedToday(ctx: IExecuteFunctions, itemIndex: number, since: number, draftId: string): Promise<{ total: number; ids: Set<string> }> {
	try {
		const jobs = await apiRequestAllItems<PrintJob>(
			ctx,
			'/prints',
			{ testmode: false, confirmed: true, sort_field: 'confirmed_at', sort_order: 'desc', fields: ['id', 'confirmed_at', 'cost'] },
			{ itemIndex, until: (job) => typeof job.confirmed_at !== 'number' || job.confirmed_at < since },
		);
		return { total: jobs.reduce((sum, job) => sum + (job.cost?.after_tax ?? 0), 0), ids: new Set(jobs.map((job) => job.id)) };
	} catch (error) {
		// Fail closed: a limit that cannot be checked lets nothing through.
		throw refusal(ctx, itemIndex, `Print job ${draftId} was not confirmed: today's spending could not be read`, [
			`The credential has a daily spending limit, and checking it needs the list of today's confirmed print jobs, which failed: ${(error as Error).message}.`,
			'The job stays a draft. Run the item again later, or confirm it by hand in Intelliprint.',
		]);
	}
}

function refusal(ctx: IExecuteFunctions, itemIndex: number, message: string, lines: string[]): NodeOperationError {
	const error = new NodeOperationError(ctx.getNode(), message, { itemIndex, description: lines.join(' ') });
	// A model cannot change a limit: it must not be told to call again.
	error.context.adviceForModel = true;
	return error;
}

/** Whether confirming live jobs is bounded here: by the credential's daily limit or by the node's per-job one. */
export async function limitsApply(ctx: IExecuteFunctions, perJobGbp: number | undefined): Promise<boolean> {
	return Boolean(perJobGbp) || (await connectionSettings(ctx)).dailyLimitGbp !== undefined;
}

/**
 * Whether a create asked to confirm goes through the limits: then the per-job bound (0 for none), for the job
 * to be made as a draft and confirmed once it fits (or a draft found again on a rerun); else undefined.
 */
export async function confirmGuard(ctx: IExecuteFunctions, itemIndex: number, confirmUpTo: unknown, testmode: boolean): Promise<number | undefined> {
	if (testmode || !(ctx.getNodeParameter('confirmed', itemIndex, false) as boolean)) return undefined;
	const perJob = Number(confirmUpTo) || undefined;
	return (await limitsApply(ctx, perJob)) ? (perJob ?? 0) : undefined;
}

/**
 * Before a live draft is confirmed: refuses (the draft stays, the error names it, its cost, today's total and
 * the limit) when the job costs more than "Confirm Only Up To" or would take the day over the credential's
 * daily limit. Otherwise the job's cost is held against the day in this process until the API lists it, so
 * that items confirming at once cannot pass the limit together. Returns what to call once the confirm is
 * known to have failed (a refusal), which gives the held amount back.
 */
export async function holdSpending(ctx: IExecuteFunctions, itemIndex: number, job: PrintJob, perJobGbp: number | undefined): Promise<() => void> {
	const nothing = () => undefined;
	if (job.testmode || job.confirmed) return nothing;
	const cost = job.cost?.after_tax ?? 0;
	const why = `Print job ${job.id} (${job.letters?.length ?? 0} letters, ${pounds(cost)} after tax) was not confirmed`;
	const byHand = 'It stays a draft: a person can check it and confirm it in Intelliprint, or run it again once the limit allows.';
	// Rounded: £10.20 × 10^8 is 1019999999.9999999 in floating point, and a job of exactly the bound must pass.
	const perJob = perJobGbp ? Math.round(perJobGbp * PER_POUND) : undefined;
	if (perJob !== undefined && cost > perJob) throw refusal(ctx, itemIndex, `${why}: it costs more than "Confirm Only Up To" (${pounds(perJob)})`, [byHand]);
	const { dailyLimitGbp, limitKey } = await connectionSettings(ctx);
	if (dailyLimitGbp === undefined) return nothing;
	const limit = Math.round(dailyLimitGbp * PER_POUND);
	const day = ukMidnight();
	const today = await confirmedToday(ctx, itemIndex, day, job.id);
	// From here to the hold nothing awaits, so no other item of this process can check in between.
	const held = (inFlight.get(limitKey) ?? []).filter((hold) => hold.day === day);
	const pending = held.filter((hold) => !today.ids.has(hold.id) && hold.id !== job.id).reduce((sum, hold) => sum + hold.amount, 0);
	if (today.total + pending + cost > limit) {
		throw refusal(ctx, itemIndex, `${why}: it would take today's spending over the daily limit of ${pounds(limit)}`, [
			`Confirmed today (UK time) so far: ${pounds(today.total)}${pending ? `, and ${pounds(pending)} being confirmed by this n8n` : ''}; with this job ${pounds(today.total + pending + cost)}.`,
			byHand,
			'The limit is the Daily Spending Limit on the Intelliprint credential.',
		]);
	}
	const hold: Reservation = { id: job.id, amount: cost, day };
	inFlight.set(limitKey, [...held.filter((other) => !today.ids.has(other.id)), hold]);
	return () => inFlight.set(limitKey, (inFlight.get(limitKey) ?? []).filter((other) => other !== hold));
}

/**
 * Confirms a live draft within the limits (see holdSpending). A refusal by the API (4xx) means nothing was
 * confirmed and gives the held amount back; after a fault the confirm may have happened, so it stays held.
 */
export async function confirmWithinLimits(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, perJobGbp: number | undefined): Promise<PrintJob> {
	const { dailyLimitGbp, limitKey } = await connectionSettings(ctx);
	if (dailyLimitGbp === undefined) return await checkAndConfirm(ctx, itemIndex, draft, perJobGbp);
	// One check and confirm at a time per key in this process: another process (a queue-mode worker, a second
	// n8n) then misses at most the one confirm this process has in flight when it checks, not a hundred.
	const before = confirmLine.get(limitKey) ?? Promise.resolve();
	const mine = before.then(async () => await checkAndConfirm(ctx, itemIndex, draft, perJobGbp));
	confirmLine.set(limitKey, mine.catch(() => undefined));
	return await mine;
}

/** Per credential fingerprint: the confirm under a daily limit now in progress, which the next one waits for. */
const confirmLine = new Map<string, Promise<unknown>>();

async function checkAndConfirm(ctx: IExecuteFunctions, itemIndex: number, draft: PrintJob, perJobGbp: number | undefined): Promise<PrintJob> {
	const release = await holdSpending(ctx, itemIndex, draft, perJobGbp);
	try {
		return await updatePrintJob(ctx, draft.id, { confirmed: true }, itemIndex, 'confirmed again');
	} catch (error) {
		if (/^4/.test(String((error as NodeApiError).httpCode ?? ''))) release();
		// Each re-wrap hands back the same error: updatePrintJob throws only these two kinds.
		if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
}
