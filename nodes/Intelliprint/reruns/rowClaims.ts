import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { listPage, MAX_PAGE_SIZE, type ListPage } from '../transport';
import { decodeRows, MAIL_RUN_REFERENCE } from '../rowRecords';

/**
 * Two n8n processes running one mail run at the same moment (two workers on one schedule, a manual run beside the
 * scheduled one) both find its rows unsent, and both make a job. So a keyed mail run's part is made as a draft, and
 * confirmed only once the list under the mail runs' reference shows it: every job made before it is listed then too
 * (the contract's listing-delay and list-order). A job made before it that holds one of its rows wins; the draft is
 * withdrawn (createJob.ts). Both processes order the jobs alike (made earlier, then by ID), so exactly one keeps each
 * row. `created` is in whole seconds, so a job of the same second may come after this one in time and before it in
 * that order: the read waits until that second is over (SETTLE_MS after the create's answer), when every such job
 * exists. Costs one list read per part and at most a second and a bit, more only while the API lists the draft late.
 */
const WAIT_MS = 30_000;
const SETTLE_MS = 1_200;
/** How far back before the draft a racing job may stand: one made after this run read the account. */
const RACE_WINDOW_SECONDS = 15 * 60;

const made = (job: IDataObject) => (typeof job.created === 'number' ? job.created : Number.POSITIVE_INFINITY);
const earlier = (a: IDataObject, b: IDataObject) => made(a) < made(b) || (made(a) === made(b) && String(a.id) < String(b.id));

/** The jobs made before `draft` that hold some of `keys`: job ID → the keys it holds. Throws when the draft is not listed in time. */
export async function earlierHolders(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, draft: IDataObject, keys: Set<string>, answeredAt: number): Promise<Map<string, string[]>> {
	return (await earlierHoldersOfEach(ctx, itemIndex, testmode, [{ draft, keys }], answeredAt)).get(String(draft.id))!;
}

/**
 * The same for several drafts of one run at once (its parts, made one after another): one wait, from the last one's
 * answer, and one read for all of them. Draft ID → (job ID → the keys it holds of that draft's).
 */
export async function earlierHoldersOfEach(
	ctx: IExecuteFunctions,
	itemIndex: number,
	testmode: boolean,
	drafts: Array<{ draft: IDataObject; keys: Set<string> }>,
	lastAnsweredAt: number,
): Promise<Map<string, Map<string, string[]>>> {
	await sleep(Math.max(0, lastAnsweredAt + SETTLE_MS - Date.now()));
	const deadline = Date.now() + WAIT_MS;
	const oldest = Math.min(...drafts.map(({ draft }) => made(draft)));
	for (let pause = 200; ; pause = Math.min(pause * 2, 2_000)) {
		const listed = await jobsBack(ctx, itemIndex, testmode, oldest - RACE_WINDOW_SECONDS);
		const byId = new Map(listed.map((job) => [String(job.id), job]));
		const missing = drafts.filter(({ draft }) => !byId.has(String(draft.id)));
		if (!missing.length) {
			const result = new Map<string, Map<string, string[]>>();
			// Each listed job's keys decoded once for the run, not once per draft (86 drafts × 86 jobs at 100,000 rows).
			const keysOfJob = new Map<IDataObject, string[]>();
			const keysOf = (job: IDataObject) => {
				let known = keysOfJob.get(job);
				if (!known) keysOfJob.set(job, (known = (decodeRows(job.metadata as IDataObject | undefined) ?? []).flatMap((record) => (record.key ? [record.key] : []))));
				return known;
			};
			for (const { draft, keys } of drafts) {
				const self = byId.get(String(draft.id))!;
				const holders = new Map<string, string[]>();
				for (const job of listed) {
					if (job.id === draft.id || !earlier(job, self)) continue;
					const held = keysOf(job).filter((key) => keys.has(key));
					if (held.length) holders.set(String(job.id), held);
				}
				result.set(String(draft.id), holders);
			}
			return result;
		}
		if (Date.now() + pause > deadline) {
			const ids = missing.map(({ draft }) => String(draft.id)).join(', ');
			throw new NodeApiError(ctx.getNode(), {}, {
				message: `Intelliprint did not list draft ${ids} within ${WAIT_MS / 1000} seconds`,
				description: `So whether another n8n process sent these rows at the same moment cannot be told, and the draft was not confirmed. Run again later: Skip Items Already Sent finds the draft and confirms it, or the other process's job.`,
				itemIndex,
			});
		}
		await sleep(pause);
	}
}

/** The keyed mail runs' jobs made since `since`, newest first, each page held to the contract at the list's door. */
async function jobsBack(ctx: IExecuteFunctions, itemIndex: number, testmode: boolean, since: number): Promise<IDataObject[]> {
	const jobs: IDataObject[] = [];
	let last: ListPage<IDataObject> | undefined;
	for (let skip = 0; ; ) {
		const qs = { testmode, reference: MAIL_RUN_REFERENCE, sort_field: 'created', sort_order: 'desc', fields: ['id', 'created', 'metadata', 'testmode', 'reference'], limit: MAX_PAGE_SIZE, skip };
		const page: ListPage<IDataObject> = await listPage<IDataObject>(ctx, '/prints', qs, itemIndex, last);
		last = page;
		for (const job of page.data) {
			if (made(job) < since) return jobs;
			jobs.push(job);
		}
		skip += page.data.length;
		if (!page.has_more || page.data.length === 0) return jobs;
	}
}
