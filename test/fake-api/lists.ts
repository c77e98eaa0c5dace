import type { FakeBackground } from './backgrounds';
import { fail, publicView } from './http';
import type { FakeMailingList, FakeMailingListRecipient } from './mailingLists';
import type { FakePrintJob } from './prints';

type Sortable = number | string | null | undefined;
/** Sort fields a list accepts, each with how to read it from a stored object. */
export type SortFields<T> = Record<string, (entry: T) => Sortable>;

const latestReturn = (job: FakePrintJob) =>
	job.letters.reduce<number | null>((latest, letter) => (letter.returned?.date !== undefined && letter.returned.date > (latest ?? -Infinity) ? letter.returned.date : latest), null);

export const PRINT_SORTS: SortFields<FakePrintJob> = {
	created: (job) => job.created,
	mail_date: (job) => job.postage?.mail_date,
	'cost.amount': (job) => job.cost.amount,
	'cost.after_tax': (job) => job.cost.after_tax,
	'letters.returned.date': latestReturn,
	pages: (job) => job.pages,
	sheets: (job) => job.sheets,
	letters: (job) => job.letters.length,
	reference: (job) => job.reference,
	type: (job) => job.type,
	confirmed_at: (job) => job.confirmed_at,
};

export const BACKGROUND_SORTS: SortFields<FakeBackground> = {
	created: (background) => background.created,
	name: (background) => background.name,
};

export const MAILING_LIST_SORTS: SortFields<FakeMailingList> = {
	created: (list) => list.created,
	name: (list) => list.name,
	recipients: (list) => list.recipients,
};

export const RECIPIENT_SORTS: SortFields<FakeMailingListRecipient> = {
	created: (recipient) => recipient.created,
	name: (recipient) => recipient.address.name,
};

interface Stored {
	created?: number;
	_seq?: number;
}

function sorted<T extends Stored>(all: T[], query: URLSearchParams, fields: SortFields<T>): T[] {
	const field = query.get('sort_field') ?? 'created';
	const order = query.get('sort_order') ?? 'desc';
	const key = fields[field];
	if (!key) throw fail.invalid('parameter_invalid', `Invalid value for sort_field: must be one of ${Object.keys(fields).join(', ')}.`, 'sort_field');
	if (order !== 'asc' && order !== 'desc') throw fail.invalid('parameter_invalid', 'Invalid value for sort_order: must be asc or desc.', 'sort_order');
	const direction = order === 'asc' ? 1 : -1;
	const compare = (a: T, b: T) => {
		const [x, y] = [key(a) ?? null, key(b) ?? null];
		// Ties (and several things created within one second) keep creation order.
		if (x === y) return (a._seq ?? 0) - (b._seq ?? 0);
		if (x === null) return -1;
		if (y === null) return 1;
		return x < y ? -1 : 1;
	};
	return [...all].sort((a, b) => direction * compare(a, b));
}

/**
 * `fields[]=id&fields[]=letters.status` (what the SDK sends), `fields=id&fields=letters.status` or
 * `fields=id,letters.status`: keeps those paths (through arrays), plus id and object.
 */
function trimmer(query: URLSearchParams): ((entry: unknown) => unknown) | undefined {
	const paths = [...query.getAll('fields[]'), ...query.getAll('fields')].flatMap((value) => value.split(',')).map((path) => path.trim()).filter(Boolean);
	if (paths.length === 0) return undefined;
	const split = [...paths, 'id', 'object'].map((path) => path.split('.'));
	return (entry) => pick(entry, split);
}

function pick(value: unknown, paths: string[][]): unknown {
	if (Array.isArray(value)) return value.map((entry) => pick(entry, paths));
	if (typeof value !== 'object' || value === null) return value;
	const source = value as Record<string, unknown>;
	const heads = new Map<string, string[][]>();
	for (const [head, ...rest] of paths) heads.set(head, [...(heads.get(head) ?? []), rest]);
	const picked: Record<string, unknown> = {};
	for (const [head, rests] of heads) {
		if (!(head in source)) continue;
		picked[head] = rests.some((rest) => rest.length === 0) ? source[head] : pick(source[head], rests);
	}
	return picked;
}

/**
 * The API's list envelope with limit/skip, sorting and field trimming. With `ignoreSkip` every page is
 * the first one, and says there is more whenever there is: a list that pages forever.
 */
export function listEnvelope<T extends Stored>(all: T[], query: URLSearchParams, sortFields?: SortFields<T>, ignoreSkip = false): unknown {
	const limit = query.has('limit') ? Number(query.get('limit')) : 10;
	const skip = query.has('skip') ? Number(query.get('skip')) : 0;
	if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw fail.invalid('parameter_invalid', 'Invalid value for limit: must be a whole number from 1 to 1000.', 'limit');
	if (!Number.isInteger(skip) || skip < 0) throw fail.invalid('parameter_invalid', 'Invalid value for skip: must be a whole number of 0 or more.', 'skip');
	const ordered = sortFields ? sorted(all, query, sortFields) : all;
	const from = ignoreSkip ? 0 : skip;
	const trim = trimmer(query);
	const data = ordered.slice(from, from + limit).map((entry) => (trim ? trim(publicView(entry)) : publicView(entry)));
	return { object: 'list', data, total_available: all.length, has_more: from + data.length < all.length };
}
