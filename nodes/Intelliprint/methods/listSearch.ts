import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import type { PrintJob } from '../helpers/output';
import { apiRequest, type ListPage } from '../transport';

const PAGE_SIZE = 100;

/**
 * Print jobs for the resource locator, newest first as the API lists them. Live jobs are listed
 * first, then test jobs (the API keeps those out of the default list). The search text matches the
 * reference or the ID; the pagination token is "<live|test>:<skip>".
 */
export async function searchPrintJobs(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const [mode, skipText] = (paginationToken ?? 'live:0').split(':');
	const skip = Number(skipText) || 0;
	const page = await apiRequest<ListPage<PrintJob>>(this, {
		method: 'GET',
		path: '/prints',
		qs: { limit: PAGE_SIZE, skip, testmode: mode === 'test' },
	});
	const needle = filter?.trim().toLowerCase();
	const results: INodeListSearchItems[] = page.data
		.filter((job) => !needle || `${job.reference ?? ''} ${job.id}`.toLowerCase().includes(needle))
		.map((job) => ({
			name: `${job.reference || job.id}${mode === 'test' ? ' (test)' : ''}${job.confirmed ? '' : ' (draft)'}`,
			value: job.id,
			description: job.id,
		}));
	let next: string | undefined;
	if (page.has_more) next = `${mode}:${skip + page.data.length}`;
	else if (mode === 'live') next = 'test:0';
	return { results, paginationToken: next };
}
