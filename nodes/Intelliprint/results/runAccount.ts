import type { IExecuteFunctions } from 'n8n-workflow';

import type { PrintJob } from './output';
import { priceAfterTax } from '../values';

/**
 * The execution's account of print jobs: what it created or confirmed, each job once whichever nodes touched it,
 * and the drafts a spending limit held back, apart. Jobs are noted where they are made or confirmed (print job
 * create, and updatePrintJob's confirm: the only two requests that do either), so the account is true whatever the
 * items say and however the run ends; the router writes it to n8n's execution custom data after every node run,
 * a run that stops on an error included ("which run posted print_…?" is answered from n8n's executions).
 */

/** n8n keeps at most 10 custom data keys per execution, keys of up to 50 letters, digits and "_", values of 255 characters. */
const VALUE_LIMIT = 255;
export const CUSTOM_DATA_KEYS = {
	jobs: 'intelliprint_print_jobs',
	ids: 'intelliprint_print_job_ids',
	letters: 'intelliprint_letters',
	mode: 'intelliprint_mode',
	cost: 'intelliprint_cost_gbp',
	held: 'intelliprint_held_drafts',
} as const;

interface Entry {
	testmode: boolean;
	letters: number;
	/** Pence after tax; undefined when the API's answer gave no readable price. */
	pence?: number;
	/** A draft a spending limit held back (until a later node of the execution confirms it). */
	held: boolean;
}

/** What the custom data said when this process first saw the execution (a run resumed after a Wait, elsewhere). */
interface Base {
	jobs: number;
	ids: string[];
	letters: number;
	pence: number;
	modes: string[];
	held: string[];
}

interface Account {
	base?: Base;
	jobs: Map<string, Entry>;
}

/** Per execution ID, oldest first, so that a long-running n8n keeps a bounded number. */
const accounts = new Map<string, Account>();
const MAX_ACCOUNTS = 500;
/** A node run without an execution ID (never in n8n itself) keeps its own. */
const unnamed = new WeakMap<IExecuteFunctions, Account>();

function accountOf(ctx: IExecuteFunctions): Account {
	const executionId = typeof ctx.getExecutionId === 'function' ? ctx.getExecutionId() : undefined;
	if (!executionId) {
		let own = unnamed.get(ctx);
		if (!own) unnamed.set(ctx, (own = { jobs: new Map() }));
		return own;
	}
	let account = accounts.get(executionId);
	if (!account) {
		account = { base: baseOf(customDataOf(ctx)?.getAll() ?? {}), jobs: new Map() };
		accounts.set(executionId, account);
		if (accounts.size > MAX_ACCOUNTS) accounts.delete(accounts.keys().next().value!);
	}
	return account;
}

function baseOf(before: Record<string, string>): Base | undefined {
	if (!before[CUSTOM_DATA_KEYS.jobs] && !before[CUSTOM_DATA_KEYS.held]) return undefined;
	const list = (value: string | undefined) => String(value ?? '').split(/, | … /).filter(Boolean);
	return {
		jobs: Number(before[CUSTOM_DATA_KEYS.jobs] ?? 0),
		ids: list(before[CUSTOM_DATA_KEYS.ids]),
		letters: Number(before[CUSTOM_DATA_KEYS.letters] ?? 0),
		pence: Math.round(parseFloat(before[CUSTOM_DATA_KEYS.cost] ?? '0') * 100) || 0,
		modes: before[CUSTOM_DATA_KEYS.mode] ? String(before[CUSTOM_DATA_KEYS.mode]).split('+') : [],
		held: list(/\((.*)\)/.exec(String(before[CUSTOM_DATA_KEYS.held] ?? ''))?.[1]),
	};
}

/** A print job this execution created or confirmed, as the API's answer shows it now (a later state replaces an earlier). */
export function noteJob(ctx: IExecuteFunctions, job: PrintJob): void {
	const price = priceAfterTax(job);
	accountOf(ctx).jobs.set(job.id, {
		testmode: job.testmode === true,
		letters: Array.isArray(job.letters) ? job.letters.length : Number(job.letter_count ?? 0),
		pence: price === undefined ? undefined : Math.round(price / 1_000_000),
		held: false,
	});
}

/** A draft deleted again before it was confirmed: it is neither created nor held by this execution. */
export function forgetJob(ctx: IExecuteFunctions, id: string): void {
	accountOf(ctx).jobs.delete(id);
}

/** A draft a spending limit (or an unreadable day or price) held back: counted apart, not as created or posted. */
export function noteHeld(ctx: IExecuteFunctions, draft: PrintJob): void {
	const jobs = accountOf(ctx).jobs;
	const known = jobs.get(draft.id);
	jobs.set(draft.id, { ...(known ?? { testmode: draft.testmode === true, letters: draft.letters?.length ?? 0 }), held: true });
}

type CustomData = { getAll: () => Record<string, string>; setAll: (values: Record<string, string>) => void };

/** n8n 2.x hands nodes `customData`; n8n 1.x has it only as `$execution.customData`, the same store. */
function customDataOf(ctx: IExecuteFunctions): CustomData | undefined {
	if ('customData' in ctx && ctx.customData) return ctx.customData as CustomData;
	return (ctx.getWorkflowDataProxy(0).$execution as { customData?: CustomData } | undefined)?.customData;
}

/**
 * Within `room` characters (n8n's 255 at most): all the IDs, or the lowest and the highest ID (items run in parallel
 * note their jobs in the order the answers came, so the first and last noted would bound nothing).
 */
function listed(ids: string[], count = ids.length, room = VALUE_LIMIT): string {
	const all = ids.join(', ');
	const sorted = [...ids].sort();
	return all.length <= room && count === ids.length ? all : `${sorted[0]} … ${sorted[sorted.length - 1]}`;
}

/** Writes the execution's account to its custom data (nothing when it has no print job). */
export function recordAccount(ctx: IExecuteFunctions): void {
	const { base, jobs } = accountOf(ctx);
	const known = new Set(base?.ids ?? []);
	const made = [...jobs].filter(([, entry]) => !entry.held);
	const fresh = made.filter(([id]) => !known.has(id));
	const held = [...new Set([...(base?.held ?? []), ...[...jobs].filter(([, entry]) => entry.held).map(([id]) => id)])].filter((id) => !jobs.get(id) || jobs.get(id)!.held);
	if (!made.length && !held.length && !base) return;
	const data = customDataOf(ctx);
	if (!data) return;
	const ids = [...(base?.ids ?? []), ...fresh.map(([id]) => id)];
	const count = (base?.jobs ?? 0) + fresh.length;
	const values: Record<string, string> = {};
	if (count) {
		const modes = new Set([...(base?.modes ?? []), ...made.map(([, entry]) => (entry.testmode ? 'test' : 'live'))]);
		const pence = fresh.reduce((sum, [, entry]) => sum + (entry.pence ?? 0), base?.pence ?? 0);
		const unpriced = fresh.filter(([, entry]) => entry.pence === undefined).length;
		values[CUSTOM_DATA_KEYS.jobs] = String(count);
		values[CUSTOM_DATA_KEYS.ids] = listed(ids, count);
		values[CUSTOM_DATA_KEYS.letters] = String(fresh.reduce((sum, [, entry]) => sum + entry.letters, base?.letters ?? 0));
		values[CUSTOM_DATA_KEYS.mode] = [...modes].sort().join('+');
		// A job the API gave no price for is not £0: the total says how many it leaves out.
		values[CUSTOM_DATA_KEYS.cost] = `${(pence / 100).toFixed(2)}${unpriced ? ` (and ${unpriced} job${unpriced === 1 ? '' : 's'} without a price)` : ''}`;
	}
	const prefix = `${held.length} (`;
	if (held.length || base?.held.length) values[CUSTOM_DATA_KEYS.held] = held.length ? `${prefix}${listed(held, held.length, VALUE_LIMIT - prefix.length - 1)})` : '0';
	if (Object.keys(values).length) data.setAll(values);
}
