import type { IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { apiRequestAllItems } from '../transport';
import type { PrintJob } from './output';
import { priceAfterTax } from './strictValues';

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

export interface Day {
	/** Cost after tax of the live jobs the key confirmed since UK midnight, as the API lists them. */
	total: number;
	ids: Set<string>;
}

/** What the key confirmed live since `since` (Unix seconds), read newest first; throws what the read threw. */
export async function confirmedSince(ctx: IExecuteFunctions, itemIndex: number, since: number): Promise<Day> {
	const jobs = await apiRequestAllItems<PrintJob>(
		ctx,
		'/prints',
		{ testmode: false, confirmed: true, sort_field: 'confirmed_at', sort_order: 'desc', fields: ['id', 'confirmed_at', 'cost'] },
		{ itemIndex, until: (job) => typeof job.confirmed_at !== 'number' || job.confirmed_at < since },
	);
	let total = 0;
	for (const job of jobs) {
		const cost = priceAfterTax(job);
		// Counted as £0, a job listed without its price would let the day pass its limit: the day is unknown instead.
		if (cost === undefined) throw new Error(`Intelliprint listed print job ${job.id}, confirmed today, without a price that can be read`);
		total += cost;
	}
	return { total, ids: new Set(jobs.map((job) => job.id)) };
}

/**
 * How long a process waits for the API to list its own last confirm before it checks the day again. An API
 * that lists a write late (a cache, a replica) would otherwise let each process confirm many jobs the others
 * cannot see yet; waiting keeps it to one per process, whatever the delay. Past this, nothing is confirmed.
 */
export const LISTING_WAIT_MS = 30_000;

/**
 * Today's list once it shows `ownLast` (this process's last confirm, when it was today): read again after
 * growing pauses until it does. Undefined when it still does not after LISTING_WAIT_MS.
 */
export async function dayShowing(ctx: IExecuteFunctions, itemIndex: number, since: number, ownLast: string | undefined): Promise<Day | undefined> {
	const deadline = Date.now() + LISTING_WAIT_MS;
	let pause = 200;
	for (;;) {
		const day = await confirmedSince(ctx, itemIndex, since);
		if (ownLast === undefined || day.ids.has(ownLast)) return day;
		if (Date.now() + pause > deadline) return undefined;
		await sleep(pause);
		pause = Math.min(pause * 2, 2_000);
	}
}
