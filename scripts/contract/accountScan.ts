import type { IDataObject } from 'n8n-workflow';

import { listRequest, type ListPage } from './accountClient';
import { idsOf, type CheckContext } from './accountJobs';
import { MAIL_RUN_REFERENCE } from '../../nodes/Intelliprint/rowRecords';

/**
 * The history scan of `npm run check:api`: the account's real history, the last 30 days of live and of test jobs read as the
 * node's look-back reads them (newest first, 1,000 a page). Each page is judged by the node's rules (order, projection,
 * counts, paging on real data), and keyed jobs (metadata `n8n_sent_key`) whose reference is no longer their key are
 * counted: a fresh process that looks keys up by reference would not find them (keyed-reference).
 */

const DAY_SECONDS = 86_400;
const SCAN_FIELDS = ['id', 'created', 'metadata', 'reference', 'testmode'];
/** How many renamed jobs the row names. */
const NAMED = 5;
const n = (count: number) => count.toLocaleString('en-GB');

interface Scan {
	jobs: number;
	keyed: number;
	renamed: string[];
	/** Jobs listed without metadata or reference: keyed ones cannot be told among them. */
	unreadable: number;
	/** Where a read stopped before the end of the 30 days. */
	cut: string[];
}

function count(scan: Scan, entry: IDataObject): void {
	scan.jobs++;
	const metadata = entry.metadata;
	if (typeof metadata !== 'object' || metadata === null || !('reference' in entry)) {
		scan.unreadable++;
		return;
	}
	const { n8n_sent_key: key, n8n_run_key: runKey, n8n_keys: rowKeys } = metadata as IDataObject;
	// As the node makes them: an item's job has its key as reference; a keyed mail run's (its rows' keys in its
	// records) has the reference all of them share. A mail run made before 0.1.0 kept the user's reference
	// (its key `<run key>#<rows>/<count>/<digest>`): a rerun now reads its rows from the window, not by reference.
	const expected = typeof runKey === 'string' || typeof rowKeys === 'string' ? MAIL_RUN_REFERENCE : typeof key === 'string' && !/#\d+-\d+\/\d+\/[\w-]+$/.test(key) ? key : undefined;
	if (expected === undefined) return;
	scan.keyed++;
	const named = expected === key ? `key ${JSON.stringify(key)}` : 'a keyed mail run';
	if (entry.reference !== expected) scan.renamed.push(`${String(entry.id)} (${named}, reference ${JSON.stringify(entry.reference ?? null)})`);
}

/** One mode's last 30 days, at most `maxPages` pages; returns how many jobs it read. */
async function scanMode(ctx: CheckContext, scan: Scan, testmode: boolean, since: number, maxPages: number): Promise<number> {
	const seen = new Set<string>();
	const label = testmode ? 'test' : 'live';
	let previous: ListPage | undefined;
	let skip = 0;
	for (let pages = 0; ; pages++) {
		if (pages >= maxPages) {
			scan.cut.push(`the newest ${n(seen.size)} ${label} jobs only (CHECK_API_SCAN_PAGES=${maxPages})`);
			return seen.size;
		}
		const qs = { testmode, sort_field: 'created', sort_order: 'desc', fields: SCAN_FIELDS, limit: 1000, skip };
		const page = await ctx.client.list('/prints', qs);
		const fresh = page.data.filter((entry) => !seen.has(String(entry.id)));
		if (previous?.has_more && fresh.length === 0) {
			ctx.findings.breach('paging', `${listRequest('/prints', qs)} brought ${page.data.length ? `only jobs of the page before (${idsOf(page).slice(0, 3).join(', ')}…)` : 'nothing'}, after a page that said has_more`);
			scan.cut.push(`the ${label} jobs up to skip ${n(skip)} only (paging)`);
			return seen.size;
		}
		ctx.findings.judge('/prints', qs, page, previous);
		for (const entry of fresh) {
			if (typeof entry.created === 'number' && entry.created < since) return seen.size;
			seen.add(String(entry.id));
			count(scan, entry);
		}
		if (!page.has_more) return seen.size;
		skip += page.data.length;
		previous = page;
	}
}

/** The keyed-reference row from the last 30 days of live and test jobs, at most `maxPages` pages of each. */
export async function scanHistory(ctx: CheckContext, maxPages: number): Promise<void> {
	const since = Math.floor(Date.now() / 1000) - 30 * DAY_SECONDS;
	const scan: Scan = { jobs: 0, keyed: 0, renamed: [], unreadable: 0, cut: [] };
	const live = await scanMode(ctx, scan, false, since, maxPages);
	const test = await scanMode(ctx, scan, true, since, maxPages);
	ctx.log(`  read ${n(live)} live and ${n(test)} test jobs of the last 30 days: ${n(scan.keyed)} keyed, ${scan.renamed.length} renamed`);
	const cut = scan.cut.length ? `; read ${scan.cut.join(', ')}` : '';
	if (scan.renamed.length) {
		const more = scan.renamed.length > NAMED ? ` and ${scan.renamed.length - NAMED} more` : '';
		const names = `${scan.renamed.slice(0, NAMED).join(', ')}${more}`;
		ctx.findings.breach('keyed-reference', `${scan.renamed.length} keyed print job(s) of the last 30 days carry a reference other than the one the node gave them (an item's key, metadata n8n_sent_key; a keyed mail run's "n8n mail run"): ${names}${cut}`);
	} else if (scan.unreadable) {
		ctx.findings.notChecked('keyed-reference', `${n(scan.unreadable)} of the ${n(scan.jobs)} jobs read came without metadata or reference (see projection): keyed jobs cannot be told among them${cut}`);
	} else if (scan.keyed) {
		ctx.findings.held('keyed-reference', `no renamed keyed job: ${n(scan.keyed)} keyed among ${n(live)} live and ${n(test)} test jobs of the last 30 days, each reference its key${cut}`);
	} else {
		ctx.findings.held('keyed-reference', `no keyed job (metadata n8n_sent_key) among ${n(live)} live and ${n(test)} test jobs of the last 30 days, so none renamed${cut}`);
	}
}
