import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import type { Background, PrintJob } from '../results';
import { listPage } from '../transport';

const PAGE_SIZE = 100;

/** One page of a list endpoint, filtered on the text the user typed (matched against name and ID). */
async function searchPage<T extends IDataObject & { id: string }>(
	ctx: ILoadOptionsFunctions,
	path: string,
	qs: IDataObject,
	skip: number,
	filter: string | undefined,
	toItem: (entry: T) => INodeListSearchItems,
): Promise<{ results: INodeListSearchItems[]; nextSkip?: number }> {
	const page = await listPage<T>(ctx, path, { ...qs, limit: PAGE_SIZE, skip });
	const needle = filter?.trim().toLowerCase();
	const results = page.data
		.map(toItem)
		.filter((item) => !needle || `${item.name} ${String(item.value)}`.toLowerCase().includes(needle));
	return { results, nextSkip: page.has_more ? skip + page.data.length : undefined };
}

/** How many pages a search reads ahead for a match before handing back an empty page (n8n asks for more only on scroll). */
const PAGES_PER_SEARCH = 10;

function createdOn(job: PrintJob): string {
	return typeof job.created === 'number' ? new Date(job.created * 1000).toISOString().replace('T', ' ').slice(0, 16) : '';
}

/**
 * Print jobs for the resource locator, newest first as the API lists them: live jobs, then test
 * jobs (the API keeps those out of the default list). The token is "<live|test>:<skip>". When the
 * typed text matches nothing on a page, the next pages are read before answering, so a match among
 * older or test jobs is found without scrolling. Jobs with the same reference are told apart by
 * their creation time and letter count.
 */
export async function searchPrintJobs(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	let token: string | undefined = paginationToken ?? 'live:0';
	const results: INodeListSearchItems[] = [];
	for (let pages = 0; token && pages < PAGES_PER_SEARCH && (pages === 0 || (filter && !results.length)); pages++) {
		const [mode, skipText]: string[] = token.split(':');
		const page: { results: INodeListSearchItems[]; nextSkip?: number } = await searchPage<PrintJob>(this, '/prints', { testmode: mode === 'test' }, Number(skipText) || 0, filter, (job) => ({
			name: [job.reference || job.id, mode === 'test' ? '(test)' : '', job.confirmed ? '' : '(draft)', `· ${createdOn(job)} · ${job.letters?.length ?? 0} letter${job.letters?.length === 1 ? "" : "s"}`]
				.filter(Boolean)
				.join(' '),
			value: job.id,
			description: job.id,
		}));
		results.push(...page.results);
		token = page.nextSkip !== undefined ? `${mode}:${page.nextSkip}` : mode === 'live' ? 'test:0' : undefined;
	}
	return { results, paginationToken: token };
}

/** Backgrounds (letterheads) for the resource locator; the token is the next skip. */
export async function searchBackgrounds(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { results, nextSkip } = await searchPage<Background>(this, '/backgrounds', {}, Number(paginationToken) || 0, filter, (background) => ({
		name: background.name || background.id,
		value: background.id,
		description: background.id,
	}));
	return { results, paginationToken: nextSkip === undefined ? undefined : String(nextSkip) };
}

/** Mailing lists for the resource locator, with their size; the token is the next skip. */
export async function searchMailingLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const { results, nextSkip } = await searchPage<IDataObject & { id: string }>(this, '/mailing_lists', {}, Number(paginationToken) || 0, filter, (list) => ({
		name: `${String(list.name || list.id)} (${Number(list.recipients ?? 0)} recipients)`,
		value: list.id,
		description: list.id,
	}));
	return { results, paginationToken: nextSkip === undefined ? undefined : String(nextSkip) };
}
