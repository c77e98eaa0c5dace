import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { metadataBreach } from '../../nodes/Intelliprint/transport';
import { AccountClient, UnexpectedAnswer, describeBody, type Answer } from './accountClient';
import type { Findings } from './findings';

/**
 * The print jobs `npm run check:api` makes: test-mode drafts only (`testmode=true`: never printed, posted or charged),
 * two of them confirmed so that the confirmed lists have something to show, and all of them cleaned up at the end.
 */

/** A print job the check made. */
export interface CheckJob {
	id: string;
	reference: string;
	confirmed: boolean;
	/** When it was made and when confirmed (ms): how late the lists show it is counted from these. */
	madeAt: number;
	confirmedAt?: number;
}

/** What every step of the check shares. */
export interface CheckContext {
	client: AccountClient;
	findings: Findings;
	log: (line: string) => void;
	/** This run's mark: in each job's reference and in its metadata (`n8n_check`). */
	run: string;
	/** Every print job the check made, in order: cleaned up at the end whatever happens. */
	made: CheckJob[];
	/** Whether the lists showed all the check's jobs (listing-delay): later steps expect them in lists only then. */
	listed: boolean;
	/** Where the check's own metadata was seen kept, and where a price was read (with one as an example). */
	metadataSeen: Set<string>;
	pricesRead: number;
	examplePrice?: number;
}

/** How long the lists may take to show a job (the contract's listing-delay). */
export const LISTING_WAIT_MS = 30_000;
/** Apart enough that jobs made (or confirmed) one after the other differ in `created` (or `confirmed_at`), Unix seconds. */
const SECOND_APART_MS = 1_100;

/** The look-back's projection (reruns/sentKeyIndex.ts) and today's confirms' (spending/dayRead.ts). */
export const LOOK_BACK_FIELDS = ['id', 'created', 'metadata', 'testmode'];
export const CONFIRMS_FIELDS = ['id', 'confirmed_at', 'cost', 'confirmed', 'testmode'];

const idOf = (entry: unknown) => String((entry as IDataObject | null)?.id ?? '');
export const idsOf = (page: { data: unknown[] }) => page.data.map(idOf);

/** The price of a job the check read: `cost.after_tax` a whole, non-negative number of 10⁻⁸ GBP. */
export function checkPrice(ctx: CheckContext, where: string, job: IDataObject): void {
	const value = (job.cost as IDataObject | undefined)?.after_tax;
	if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
		ctx.pricesRead++;
		ctx.examplePrice ??= value;
		return;
	}
	ctx.findings.breach('price-on-jobs', `${where}: print job ${idOf(job)} came with cost.after_tax ${JSON.stringify(value ?? null)}, not a whole number of 10⁻⁸ GBP`);
}

/** The check's own metadata (`n8n_check`) on a job it read: kept as sent. */
export function checkMetadata(ctx: CheckContext, where: string, job: IDataObject): void {
	const breach = metadataBreach({ n8n_check: ctx.run }, job);
	if (breach) ctx.findings.breach('metadata-kept', `${breach.detail} (${where})`);
	else ctx.metadataSeen.add(where);
}

/** Where a check draft is addressed (its recipient's name is always the check's). */
export interface CheckAddress {
	line: string;
	postcode: string;
	country: string;
}

/** The check's UK address: every draft goes there unless a step names another. */
export const UK_ADDRESS: CheckAddress = { line: '1 Test Street, Leeds', postcode: 'LS1 4AP', country: 'GB' };

/** The fields of a test-mode draft to one recipient at `to`, marked with this run; `fields` give its source (content or a template) and any others. */
function draftForm(ctx: CheckContext, reference: string, fields: Record<string, string>, to: CheckAddress): Record<string, string> {
	return {
		testmode: 'true',
		confirmed: 'false',
		...fields,
		'recipients[0][address][name]': 'n8n contract check',
		'recipients[0][address][line]': to.line,
		'recipients[0][address][postcode]': to.postcode,
		'recipients[0][address][country]': to.country,
		reference,
		'metadata[n8n_check]': ctx.run,
	};
}

/** POSTs a test-mode draft; a job the answer names is remembered for the clean-up at once, whatever else it says. */
export async function postDraft(ctx: CheckContext, reference: string, fields: Record<string, string>, to = UK_ADDRESS): Promise<Answer> {
	const answer = await ctx.client.send('POST', '/prints', { form: draftForm(ctx, reference, fields, to) });
	const id = (answer.body as IDataObject | undefined)?.id;
	if (typeof id === 'string' && id.startsWith('print_')) ctx.made.push({ id, reference, confirmed: (answer.body as IDataObject).confirmed === true, madeAt: Date.now() });
	return answer;
}

/** A job the API made as asked (a test-mode draft), or UnexpectedAnswer: the check goes no further with a job it did not ask for. */
function madeAsAsked(what: string, answer: Answer, confirmed: boolean): IDataObject {
	const job = answer.body as IDataObject;
	const ok = answer.status >= 200 && answer.status < 300 && typeof job === 'object' && job !== null && job.object === 'print';
	if (!ok) throw new UnexpectedAnswer(what, answer);
	if (job.testmode !== true || job.confirmed !== confirmed) {
		throw new UnexpectedAnswer(what, answer, `with testmode ${JSON.stringify(job.testmode)} and confirmed ${JSON.stringify(job.confirmed)} (asked: testmode true, confirmed ${String(confirmed)})`);
	}
	return job;
}

/** Three test drafts a second apart, the first two then confirmed a second apart (test jobs are free). */
export async function makeJobs(ctx: CheckContext): Promise<CheckJob[]> {
	for (let i = 1; i <= 3; i++) {
		if (i > 1) await sleep(SECOND_APART_MS);
		const reference = `n8n-check-${ctx.run}-${i}`;
		const answer = await postDraft(ctx, reference, { content: '<p>n8n check</p>' });
		const job = madeAsAsked(`POST /prints (${reference})`, answer, false);
		checkMetadata(ctx, 'create answers', job);
		checkPrice(ctx, `the create answer of ${reference}`, job);
		ctx.log(`  made test draft ${String(job.id)} (${reference}, cost.after_tax ${JSON.stringify((job.cost as IDataObject | undefined)?.after_tax ?? null)})`);
	}
	const jobs = ctx.made.slice(-3);
	for (const job of jobs.slice(0, 2)) {
		await sleep(SECOND_APART_MS);
		const answer = await ctx.client.send('POST', `/prints/${job.id}`, { form: { confirmed: 'true' } });
		if (answer.status >= 200 && answer.status < 300) Object.assign(job, { confirmed: true, confirmedAt: Date.now() });
		const confirmed = madeAsAsked(`POST /prints/${job.id} (confirm)`, answer, true);
		checkMetadata(ctx, 'confirm answers', confirmed);
		checkPrice(ctx, `the confirm answer of ${job.id}`, confirmed);
		ctx.log(`  confirmed test job ${job.id} (free: test mode)`);
	}
	ctx.log('  note: confirmed test jobs cannot be deleted; Intelliprint removes them a week after confirmation');
	return jobs;
}

/** How soon the lists show the drafts (newest first) and the confirms (the confirmed list), 0.5 s apart for at most 30 s. */
export async function waitUntilListed(ctx: CheckContext, jobs: CheckJob[]): Promise<void> {
	const started = Date.now();
	const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
	const confirmed = jobs.filter((job) => job.confirmed);
	const reads = [
		{ what: 'drafts', done: 'made', since: (job: CheckJob) => job.madeAt, jobs, qs: { testmode: true, sort_field: 'created', sort_order: 'desc', fields: LOOK_BACK_FIELDS, limit: 100 } },
		{
			what: 'confirms',
			done: 'confirmed',
			since: (job: CheckJob) => job.confirmedAt ?? job.madeAt,
			jobs: confirmed,
			qs: { testmode: true, confirmed: true, sort_field: 'confirmed_at', sort_order: 'desc', fields: CONFIRMS_FIELDS, limit: 100 },
		},
	];
	const shownAfter: string[] = [];
	let missing: string[] = [];
	for (const read of reads) {
		for (let reads = 1; ; reads++) {
			const page = await ctx.client.list('/prints', read.qs);
			ctx.findings.judge('/prints', read.qs, page);
			missing = read.jobs.map((job) => job.id).filter((id) => !idsOf(page).includes(id));
			if (missing.length === 0) {
				const last = Math.max(...read.jobs.map(read.since));
				shownAfter.push(`our ${read.jobs.length} ${read.what} were listed within ${seconds(last)} s of the last being ${read.done} (${reads} read${reads > 1 ? 's' : ''})`);
				break;
			}
			if (Date.now() - started >= LISTING_WAIT_MS) break;
			await sleep(500);
		}
		if (missing.length) break;
	}
	ctx.listed = missing.length === 0;
	if (ctx.listed) return ctx.findings.held('listing-delay', shownAfter.join(', '));
	const why = `after ${seconds(started)} s of reading again the list still left out ${missing.join(', ')}`;
	if (ctx.findings.broken('list-order')) ctx.findings.notChecked('listing-delay', `${why}, but the list does not keep its order (list-order), so they may stand past the page read`);
	else ctx.findings.breach('listing-delay', why);
}

/** The clean-up: deletes every job the check made. A draft goes; a confirmed test job stays, its letters cancelled. */
export async function cleanUp(ctx: CheckContext): Promise<void> {
	const done: string[] = [];
	const kept: string[] = [];
	const failed: string[] = [];
	for (const job of ctx.made) {
		const answer = await ctx.client.send('DELETE', `/prints/${job.id}`).catch((error: unknown) => error as Error);
		if (answer instanceof Error) failed.push(`${job.id} (${answer.message})`);
		else if (answer.status < 200 || answer.status > 299) failed.push(`${job.id} (HTTP ${answer.status}: ${describeBody(answer.body)})`);
		else if ((answer.body as IDataObject | undefined)?.deleted === true) done.push(job.id);
		else kept.push(job.id);
	}
	if (done.length) ctx.log(`  deleted test drafts ${done.join(', ')}`);
	if (kept.length) ctx.log(`  cancelled the letters of confirmed test jobs ${kept.join(', ')}: they cannot be deleted; Intelliprint removes them a week after confirmation`);
	if (failed.length) ctx.log(`  could not delete ${failed.join('; ')}: delete them in the dashboard (test mode), or leave them (test jobs are never charged or posted)`);
	if (!ctx.made.length) ctx.log('  nothing to clean up');
}
