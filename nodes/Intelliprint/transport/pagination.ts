import type { IDataObject } from 'n8n-workflow';

import { apiRequest, type IntelliprintContext } from './request';

/** The envelope every list endpoint answers with. */
export interface ListPage<T = IDataObject> {
	object: 'list';
	data: T[];
	total_available?: number;
	has_more: boolean;
}

/** The largest page the API serves: Return All asks for it to use as few requests as it can. */
export const MAX_PAGE_SIZE = 1000;

/**
 * Reads a list endpoint page by page (limit/skip) until `has_more` is false, or until `max`
 * entries were read when a limit is given.
 */
export async function apiRequestAllItems<T = IDataObject>(
	ctx: IntelliprintContext,
	path: string,
	qs: IDataObject,
	options: { max?: number; itemIndex?: number } = {},
): Promise<T[]> {
	const results: T[] = [];
	const wanted = options.max ?? Number.POSITIVE_INFINITY;
	let skip = 0;
	for (;;) {
		const limit = Math.min(MAX_PAGE_SIZE, wanted - results.length);
		const page = await apiRequest<ListPage<T>>(ctx, {
			method: 'GET',
			path,
			qs: { ...qs, limit, skip },
			itemIndex: options.itemIndex,
		});
		results.push(...page.data);
		skip += page.data.length;
		if (!page.has_more || page.data.length === 0 || results.length >= wanted) break;
	}
	return results;
}
