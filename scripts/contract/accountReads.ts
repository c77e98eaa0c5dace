import type { IDataObject } from 'n8n-workflow';

import { listRequest, type ListPage } from './accountClient';
import { CONFIRMS_FIELDS, LOOK_BACK_FIELDS, checkMetadata, checkPrice, idsOf, type CheckContext, type CheckJob } from './accountJobs';

/**
 * How `npm run check:api` reads its jobs back: the check's own jobs read back every way the node reads lists (each answer
 * judged by the node's own rules, listBreach), then what listBreach cannot see: an answer can pass it by luck (an
 * order kept by chance, a filter that happened to hold), so each answer must also hold our jobs where they belong.
 */

const PRINTS = '/prints';
const asked = (qs: IDataObject) => listRequest(PRINTS, qs);
const entryOf = (page: ListPage, id: string) => page.data.find((entry) => entry.id === id);

/** Our jobs (given newest first) in the page in that order, none left out. */
function expectInOrder(ctx: CheckContext, qs: IDataObject, page: ListPage, ids: string[], order: string): boolean {
	if (!ctx.listed) return false;
	const ours = idsOf(page).filter((id) => ids.includes(id));
	const left = ids.filter((id) => !ours.includes(id));
	if (left.length) ctx.findings.breach('list-order', `${asked(qs)} left out ${left.join(', ')}, listed before, from a list asked for the ${order} first`);
	else if (ours.join() !== ids.join()) ctx.findings.breach('list-order', `${asked(qs)} held our jobs as ${ours.join(', ')}; the ${order} first is ${ids.join(', ')}`);
	return !left.length && ours.join() === ids.join();
}

/** The metadata and price of our jobs in a page, where the page carries them (a field left out is projection's). */
function checkOurEntries(ctx: CheckContext, where: string, page: ListPage, jobs: CheckJob[]): void {
	for (const job of jobs) {
		const entry = entryOf(page, job.id);
		if (entry && 'metadata' in entry) checkMetadata(ctx, where, entry);
		if (entry && 'cost' in entry) checkPrice(ctx, where, entry);
	}
}

/** The look-back (reruns/sentKeyIndex.ts) and the claims (spending/dayRead.ts): our three jobs, newest first. */
async function newestFirst(ctx: CheckContext, jobs: CheckJob[], fields: string[], name: string): Promise<boolean> {
	const qs = { testmode: true, sort_field: 'created', sort_order: 'desc', fields, limit: 1000, skip: 0 };
	const page = await ctx.client.list(PRINTS, qs);
	ctx.findings.judge(PRINTS, qs, page);
	checkOurEntries(ctx, `the ${name} list`, page, jobs);
	return expectInOrder(ctx, qs, page, jobs.map((job) => job.id).reverse(), 'newest');
}

/** The look-back a page of one at a time: skip 0, 1 and 2 bring three different jobs, each after the last in order. */
async function pagedByOne(ctx: CheckContext): Promise<void> {
	const seen: string[] = [];
	let previous: ListPage | undefined;
	for (const skip of [0, 1, 2]) {
		const qs = { testmode: true, sort_field: 'created', sort_order: 'desc', fields: LOOK_BACK_FIELDS, limit: 1, skip };
		const page = await ctx.client.list(PRINTS, qs);
		const fresh = idsOf(page).filter((id) => !seen.includes(id));
		if (previous?.has_more && fresh.length === 0) {
			// The counts of a page that ignored skip cannot add up: that is this breach, not another.
			ctx.findings.breach('paging', `${asked(qs)} brought ${idsOf(page).join(', ') || 'nothing'}, already on the page before (${seen.join(', ')}), though that page said has_more`);
		} else {
			ctx.findings.judge(PRINTS, qs, page, previous);
		}
		seen.push(...fresh);
		previous = page;
	}
	if (ctx.findings.broken('paging')) return;
	if (seen.length < 3) ctx.findings.breach('paging', `limit=1 at skip 0, 1 and 2 brought ${seen.length} different jobs (${seen.join(', ')}), though the list holds at least our 3`);
	else ctx.findings.held('paging', `limit=1 at skip 0, 1 and 2 brought 3 different jobs (${seen.join(', ')})`);
}

/** Today's confirms (spending/dayRead.ts): our two confirms, the later first, and not our draft. */
async function confirms(ctx: CheckContext, jobs: CheckJob[]): Promise<void> {
	const qs = { testmode: true, confirmed: true, sort_field: 'confirmed_at', sort_order: 'desc', fields: CONFIRMS_FIELDS, limit: 1000, skip: 0 };
	const page = await ctx.client.list(PRINTS, qs);
	ctx.findings.judge(PRINTS, qs, page);
	checkOurEntries(ctx, "today's confirms", page, jobs);
	const drafts = jobs.filter((job) => !job.confirmed && entryOf(page, job.id));
	if (drafts.length) ctx.findings.breach('mode-filters', `${asked(qs)} held our draft ${drafts.map((job) => job.id).join(', ')}`);
	else ctx.findings.held('mode-filters', 'the confirmed list left out our draft');
	const confirmed = jobs.filter((job) => job.confirmed).map((job) => job.id);
	if (expectInOrder(ctx, qs, page, confirmed.reverse(), 'latest confirmed')) ctx.findings.held('list-order', 'our 2 confirms came the latest first');
}

/** The node's lookup of a key (reruns/sentKeyIndex.ts), unprojected: the one job made with that reference, and only it. */
async function lookUp(ctx: CheckContext, job: CheckJob): Promise<void> {
	const qs = { testmode: true, reference: job.reference, sort_field: 'created', sort_order: 'desc', limit: 100 };
	const page = await ctx.client.list(PRINTS, qs);
	ctx.findings.judge(PRINTS, qs, page);
	const ids = idsOf(page);
	if (!ids.includes(job.id) && ctx.listed) ctx.findings.breach('reference-filter', `${asked(qs)} did not hold ${job.id}, made with that reference`);
	else if (!ids.includes(job.id)) ctx.findings.notChecked('reference-filter', `the lookup of ${job.reference} did not hold ${job.id}, but the lists had not shown it yet (listing-delay)`);
	else if (ids.some((id) => id !== job.id)) ctx.findings.breach('reference-filter', `${asked(qs)} held ${ids.length} jobs (${ids.slice(0, 5).join(', ')}), not only ${job.id}`);
	else ctx.findings.held('reference-filter', `the lookup of ${job.reference} held ${job.id} alone`);
	const entry = entryOf(page, job.id);
	if (entry) checkMetadata(ctx, 'a list without fields[]', entry);
	if (entry) checkPrice(ctx, 'a list without fields[]', entry);
}

/** The lists the node reads, the lookup, and one job read alone (its metadata and price). */
export async function readBack(ctx: CheckContext, jobs: CheckJob[]): Promise<void> {
	const lookBack = await newestFirst(ctx, jobs, LOOK_BACK_FIELDS, 'look-back');
	await pagedByOne(ctx);
	await confirms(ctx, jobs);
	const claims = await newestFirst(ctx, jobs, ['id', 'created', 'confirmed', 'cost', 'metadata', 'testmode'], 'claims');
	if (lookBack && claims) ctx.findings.held('list-order', 'our 3 jobs came newest first in the look-back and the claims lists');
	await lookUp(ctx, jobs[1]);
	const alone = await ctx.client.object('GET', `${PRINTS}/${jobs[1].id}`);
	checkMetadata(ctx, `${jobs[1].id} read alone`, alone);
	checkPrice(ctx, `${jobs[1].id} read alone`, alone);
	const seen = [...ctx.metadataSeen];
	if (!ctx.findings.broken('metadata-kept')) ctx.findings.held('metadata-kept', `n8n_check = "${ctx.run}" kept: ${seen.join(', ')}`);
	const price = ctx.examplePrice === undefined ? '' : ` (e.g. ${ctx.examplePrice} = £${(ctx.examplePrice / 1e8).toFixed(2)})`;
	ctx.findings.held('price-on-jobs', `cost.after_tax a whole number on each of ${ctx.pricesRead} answers and entries read${price}`);
}
