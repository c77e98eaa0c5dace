import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { IntelliprintContext } from './connection';
import { listBreach } from './contractChecks';
import { contractError } from './contractErrors';
import { apiRequest, EXPECT } from './request';

/** The envelope every list endpoint answers with; its counts are held to the API contract's "counts" (contract.ts). */
export interface ListPage<T = IDataObject> {
	object: 'list';
	data: T[];
	total_available?: number;
	has_more: boolean;
}

/** The largest page the API serves: Return All asks for it to use as few requests as it can. */
export const MAX_PAGE_SIZE = 1000;
/** A hard stop for Return All: 500 pages of 1,000 are more than any account lists, and memory is bounded. */
export const MAX_PAGES = 500;

/**
 * One page of a list endpoint, its shape checked and held to the API contract (contractChecks.ts): this is the one
 * door every list read goes through. `previous` is the page before it in the same read, for the order across pages.
 */
export async function listPage<T = IDataObject>(
	ctx: IntelliprintContext,
	path: string,
	qs: IDataObject,
	itemIndex?: number,
	previous?: ListPage<T>,
): Promise<ListPage<T>> {
	const page = await apiRequest<ListPage<T>>(ctx, { method: 'GET', path, qs, expect: EXPECT.list, itemIndex });
	const breach = listBreach(path, qs, page, previous);
	if (breach) throw contractError(ctx, `Intelliprint's list at ${path}`, breach, itemIndex);
	return page;
}

/**
 * Reads a list endpoint page by page (limit/skip) until `has_more` is false, or until `max`
 * entries were read when a limit is given. A list that claims more but brings nothing new (it
 * ignores `skip`, or repeats itself: the contract's "paging") stops with an error instead of paging forever.
 */
export async function apiRequestAllItems<T extends IDataObject = IDataObject>(
	ctx: IntelliprintContext,
	path: string,
	qs: IDataObject,
	options: { max?: number; itemIndex?: number; skip?: number; until?: (entry: T) => boolean } = {},
): Promise<T[]> {
	const results: T[] = [];
	const seen = new Set<unknown>();
	const wanted = options.max ?? Number.POSITIVE_INFINITY;
	let skip = options.skip ?? 0;
	let previous: ListPage<T> | undefined;
	for (let pages = 1; ; pages++) {
		const limit = Math.min(MAX_PAGE_SIZE, wanted - results.length);
		const page: ListPage<T> = await listPage<T>(ctx, path, { ...qs, limit, skip }, options.itemIndex, previous);
		previous = page;
		const fresh = page.data.filter((entry) => !seen.has(entry?.id ?? entry));
		for (const entry of fresh) {
			seen.add(entry?.id ?? entry);
			if (options.until?.(entry)) return results;
			results.push(entry);
		}
		skip += page.data.length;
		if (!page.has_more || results.length >= wanted) return results.slice(0, wanted);
		if (fresh.length === 0) {
			throw new NodeApiError(ctx.getNode(), {}, {
				message: `Intelliprint's list at ${path} says it has more, but its next page brought nothing new`,
				description: `After ${results.length} entries the list repeated itself or came back empty. Use a Limit instead of Return All, or narrow the list with filters.`,
				itemIndex: options.itemIndex,
			});
		}
		if (pages >= MAX_PAGES) {
			throw new NodeApiError(ctx.getNode(), {}, {
				message: `Intelliprint's list at ${path} goes on past ${MAX_PAGES} pages`,
				description: `The node stopped after ${results.length} entries to keep memory bounded. Narrow the list with filters, or use a Limit.`,
				itemIndex: options.itemIndex,
			});
		}
	}
}
