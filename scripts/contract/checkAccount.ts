import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { AccountClient, UnexpectedAnswer, describeBody } from './accountClient';
import { cleanUp, makeJobs, postDraft, waitUntilListed, type CheckContext } from './accountJobs';
import { postageAbroad } from './accountPostage';
import { metadataBudget } from './accountBudget';
import { returnedDates } from './accountReturns';
import { readBack } from './accountReads';
import { scanHistory } from './accountScan';
import { Findings, type CheckRow } from './findings';

export { formatTable } from './findings';
export type { CheckRow, Verdict } from './findings';

/**
 * `npm run check:api` (scripts/check-api.mjs): a real Intelliprint account checked against every row of the API
 * contract (nodes/Intelliprint/transport/contract.ts), in test mode only: nothing is printed, posted or charged. It
 * makes three test drafts with references of their own, confirms two (free in test mode), reads them back every way
 * the node reads lists, scans the last 30 days for renamed keyed jobs, tries test drafts abroad (accountPostage.ts),
 * and cleans up whatever happens.
 */

export interface CheckOptions {
	/** The API's base URL, e.g. https://api.intelliprint.net/v1. */
	baseUrl: string;
	apiKey: string;
	/** A template made in the dashboard: checked with a test draft made from it (and deleted) when given. */
	templateId?: string;
	/** Pages of 1,000 the history scan reads of live jobs and of test jobs, each (default 10). */
	scanPages?: number;
	/** Progress, a line at a time (never the key). */
	log?: (line: string) => void;
}

/** The check could not start (no answer, or the key refused): nothing was made. */
export class CheckNotStarted extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CheckNotStarted';
	}
}

/** The check stopped at a step after it started; what it made was cleaned up, and `rows` say what it saw. */
export class CheckStopped extends Error {
	constructor(
		message: string,
		readonly rows: CheckRow[],
	) {
		super(message);
		this.name = 'CheckStopped';
	}
}

const MISSING = 'print_n8ncheckmissing';
/** An error in words, with its cause where fetch hides the reason behind "fetch failed". */
function messageOf(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const cause = error.cause instanceof Error ? error.cause.message || (error.cause as { code?: string }).code : undefined;
	return cause ? `${error.message} (${cause})` : error.message;
}

/** A 404 in the API's error shape, with its request-id header. */
async function errorAnswers(ctx: CheckContext): Promise<void> {
	const what = `GET /prints/${MISSING}`;
	const answer = await ctx.client.send('GET', `/prints/${MISSING}`);
	const error = (answer.body as { error?: IDataObject } | undefined)?.error;
	const shaped = typeof error === 'object' && error !== null && ['message', 'type', 'code'].every((key) => typeof error[key] === 'string');
	// A job that does not exist is a 404; another 4xx in the same shape is an error answer as the node reads them too.
	const status = `${answer.status}${answer.status === 404 ? '' : ' (404 expected)'}`;
	if (answer.status < 400 || answer.status > 499) ctx.findings.breach('error-answers', `${what} answered HTTP ${answer.status}, not 404: ${describeBody(answer.body)}`);
	else if (!shaped) ctx.findings.breach('error-answers', `${what} answered ${status} with ${describeBody(answer.body)}, not {error: {message, type, code}}`);
	else if (!answer.requestId) ctx.findings.breach('error-answers', `${what} answered ${status} ${String(error.code)} in the right shape, but without a request-id header`);
	else ctx.findings.held('error-answers', `${what} answered ${status} ${String(error.code)} (${String(error.type)}) with request-id ${answer.requestId}`);
}

/** The list of mailing lists, in the list envelope, its entries mailing lists. */
async function mailingLists(ctx: CheckContext): Promise<void> {
	const qs = { limit: 1 };
	const page = await ctx.client.list('/mailing_lists', qs).catch((error: unknown) => error as Error);
	if (page instanceof UnexpectedAnswer) return ctx.findings.breach('mailing-lists', page.message);
	if (page instanceof Error) throw page;
	ctx.findings.judge('/mailing_lists', qs, page);
	const odd = page.data.find((entry) => entry.object !== 'mailing_list' || !String(entry.id).startsWith('mal_'));
	if (odd) return ctx.findings.breach('mailing-lists', `GET /mailing_lists?limit=1 held ${JSON.stringify(odd).slice(0, 120)}, not a mailing list`);
	ctx.findings.held('mailing-lists', `GET /mailing_lists?limit=1 answered a list of mailing lists (total_available ${String(page.total_available ?? 'not given')})`);
}

/** A test draft from the template, when one is named (it is deleted in the clean-up). */
async function templates(ctx: CheckContext, templateId: string | undefined): Promise<void> {
	if (!templateId) {
		return ctx.findings.notChecked('templates', 'no template ID given (no endpoint lists templates): set INTELLIPRINT_TEMPLATE_ID to one made in the dashboard to check it with a test draft, deleted again');
	}
	const answer = await postDraft(ctx, `n8n-check-${ctx.run}-template`, { template: templateId });
	const made = ctx.made.find((job) => job.reference === `n8n-check-${ctx.run}-template`);
	const what = `POST /prints with template=${templateId}`;
	if (answer.status >= 200 && answer.status < 300 && made) ctx.findings.held('templates', `${what} made test draft ${made.id} (deleted at the end)`);
	else if (answer.status >= 400 && answer.status < 500) ctx.findings.breach('templates', `${what} was refused: HTTP ${answer.status}: ${describeBody(answer.body)}`);
	else ctx.findings.notChecked('templates', `${what} answered HTTP ${answer.status}: ${describeBody(answer.body)}`);
}

/** The steps after the first read, each settling the rows it alone decides. */
async function steps(ctx: CheckContext, options: CheckOptions): Promise<void> {
	const { findings, log } = ctx;
	log(`2. Making 3 test drafts (references n8n-check-${ctx.run}-1..3) and confirming 2 of them (test mode: free, never posted)`);
	const jobs = await makeJobs(ctx);
	log('3. Waiting for the lists to show them (at most 30 s)');
	await waitUntilListed(ctx, jobs);
	findings.settle('listing-delay');
	log('4. Reading them back as the node does: look-back, paging, today\'s confirms, claims, lookup by reference, one alone');
	await readBack(ctx, jobs);
	findings.settle('reference-filter', 'metadata-kept', 'price-on-jobs');
	log(`5. Reading the last 30 days of the account (at most ${options.scanPages ?? 10} pages of 1,000 each for live and test jobs)`);
	await scanHistory(ctx, options.scanPages ?? 10);
	findings.settle('keyed-reference', 'list-order', 'mode-filters', 'projection', 'counts', 'paging');
	log('6. An error answer, the mailing lists, templates, returned letters');
	await errorAnswers(ctx);
	await mailingLists(ctx);
	await templates(ctx, options.templateId);
	await returnedDates(ctx);
	findings.notChecked('rate-limit', "not provoked: a 429 would spend the account's rate budget (100 requests a minute)");
	findings.settle('error-answers', 'mailing-lists', 'templates', 'rate-limit', 'returned-date');
	log('7. Letters abroad: a test draft to France by international, then what the account does with the pairs the node never sends');
	await postageAbroad(ctx);
	findings.settle('postage-abroad');
	log('8. The metadata budget: a test draft carrying as much metadata as a mail run may, read back');
	await metadataBudget(ctx);
	findings.settle('metadata-budget');
}

/** The list rows' notes from every list answer judged (their breaches, if any, were kept as they came). */
function noteLists(findings: Findings): void {
	const lists = `${findings.listsJudged} list answers`;
	if (!findings.listsJudged) return;
	findings.held('list-order', `${lists} in the order asked`, true);
	findings.held('mode-filters', `${lists} held only the test mode and confirmed state asked for`, true);
	findings.held('counts', `${lists} added up (no more than limit; has_more agrees with skip and total_available)`, true);
	if (findings.projectedJudged) findings.held('projection', `each entry of ${findings.projectedJudged} list answers asked with fields[] carried every field asked for`, true);
}

/**
 * Checks the account at `baseUrl` against every row of the contract: one row each, in the contract's order. Throws
 * CheckNotStarted when the first read fails (nothing made), CheckStopped when a later step fails (after the clean-up).
 */
export async function checkAccount(options: CheckOptions): Promise<CheckRow[]> {
	const log = options.log ?? (() => undefined);
	const client = new AccountClient(options.baseUrl, options.apiKey, log);
	const findings = new Findings();
	const ctx: CheckContext = { client, findings, log, run: randomBytes(4).toString('hex'), made: [], listed: false, metadataSeen: new Set(), pricesRead: 0 };
	log('1. Reading one test-mode print job (the key, the list envelope)');
	const qs = { testmode: true, limit: 1 };
	const first = await client.list('/prints', qs).catch((error: unknown) => error as Error);
	if (first instanceof Error) throw new CheckNotStarted(`the first read failed, nothing was made: ${messageOf(first)}`);
	findings.judge('/prints', qs, first);
	let stopped: string | undefined;
	try {
		await steps(ctx, options);
	} catch (error) {
		stopped = messageOf(error);
		log(`The check stopped: ${stopped}`);
	} finally {
		log('9. Cleaning up the jobs the check made');
		await cleanUp(ctx);
	}
	noteLists(findings);
	log(`${client.requests} requests${client.rateLimited ? ` (${client.rateLimited} answered 429 and sent again)` : ''}`);
	const rows = findings.rows(stopped);
	if (stopped !== undefined) throw new CheckStopped(`the check stopped: ${stopped}`, rows);
	return rows;
}
