import { randomBytes } from 'node:crypto';

import { cost, type FakeLetter } from './letters';
import { listEnvelope, PRINT_SORTS } from './lists';
import { filterPrints } from './printFilters';
import type { FakePrintJob } from './prints';
import { ukMidnight } from '../../nodes/Intelliprint/values/ukDay';

/**
 * A big sender's history (issue 42): hundreds of thousands of past print jobs, held compactly and listed in
 * milliseconds. Each job is one number (its confirm time); everything else follows from its index, and a job is
 * made whole only when it is answered. Job 0 is the oldest, job count-1 the newest. All are confirmed one-letter
 * jobs made from content; their letters were sent, or wait to print when confirmed today. A job with a sent key has
 * it as its reference too, as the node makes them (reference null otherwise).
 *
 * A list is answered from the history's own order merged with the store's jobs (those made through the API, and
 * history jobs changed since seeding: a cancel, a letter's status), for every documented filter, sort field, limit,
 * skip and fields. A query key it does not know (a filter added to printFilters.ts since) is answered by making every
 * job and listing them as without a history: right, but slow (about 3 s and 800 MB at 510,000; `slowLists` counts them).
 */
export interface HistoryOptions {
	/** How many past print jobs (e.g. 510_000). At most 16,777,215. */
	count: number;
	/**
	 * The window they are spread over, in days (default 30): the oldest is created this many days less an hour ago
	 * (so the whole history stays inside a look-back of as many days for an hour), the newest is confirmed now.
	 */
	days?: number;
	/**
	 * How many were confirmed today, UK time (confirmed_at at or after UK midnight): the newest this many are spread
	 * from midnight to now, the rest over the days before. Default: as the even spread over the window falls.
	 */
	confirmedToday?: number;
	/** Test jobs instead of live ones (default false: live, as the daily spending limit counts them). */
	testmode?: boolean;
	/**
	 * The key Skip Items Already Sent finds on job i (metadata `n8n_sent_key`): a prefix (the key is prefix + i), a
	 * function (undefined: that job has no key), or null for none. Default 'history-'.
	 */
	sentKeys?: string | ((index: number) => string | undefined) | null;
	/** Letters in each job (default 1, at most 255), each priced as the fake prices a one-page second-class letter. */
	lettersPerJob?: number;
	/** Seconds from a job's created to its confirmed_at (default 60). */
	confirmDelaySeconds?: number;
	/** The clock at seeding, in ms (default now). */
	now?: number;
}

export const SENT_KEY_METADATA = 'n8n_sent_key';
const HOUR = 3600;
const DAY = 86_400;
const LETTER_PENCE = 85;

/** The UK day as the node counts it (its own tests fix it against the clock changes): the fake's "today" agrees. */
export { ukMidnight };

type Sortable = number | string | null;
/** The list's order of two sort values, as lists.ts has it: equal values tie, null is the smallest. */
function compareKeys(x: Sortable, y: Sortable): number {
	if (x === y) return 0;
	if (x === null) return -1;
	if (y === null) return 1;
	return x < y ? -1 : 1;
}
const keyOf = (field: string, job: FakePrintJob): Sortable => (PRINT_SORTS[field](job) ?? null) as Sortable;
const seqOf = (job: FakePrintJob) => job._seq ?? 0;

/** Query keys the fast answer knows; any other (a filter added to printFilters.ts since) is answered the slow way. */
const KNOWN_QUERY = new Set(['testmode', 'confirmed', 'letters.status', 'reference', 'type', 'letters.returned.acknowledged', 'sort_field', 'sort_order', 'limit', 'skip', 'fields[]', 'fields']);
/** Sort fields whose value is the same on every unchanged history job (so history's order on them is its own order). */
const CONSTANT_SORTS = new Set(['mail_date', 'cost.amount', 'cost.after_tax', 'letters.returned.date', 'pages', 'sheets', 'letters', 'type']);

/** How to answer the list a `PrintStore.list` result stands for, by the array it returned. */
const envelopes = new WeakMap<object, (ignoreSkip: boolean) => unknown>();

/**
 * The list envelope for a `PrintStore.list` result that includes a history, answered from the history's own order
 * (milliseconds at 510,000 jobs); undefined for any other list, or a query only the full list can answer.
 */
export function historyEnvelope(all: unknown, ignoreSkip: boolean): unknown {
	return typeof all === 'object' && all !== null ? envelopes.get(all)?.(ignoreSkip) : undefined;
}

/** An array whose entries are made on first use (every array operation works; only the first one pays). */
function lazyArray<T>(load: () => T[]): T[] {
	let loaded: T[] | undefined;
	const real = () => (loaded ??= load());
	return new Proxy<T[]>([], {
		get: (_, property) => Reflect.get(real(), property),
		has: (_, property) => Reflect.has(real(), property),
		set: (_, property, value) => Reflect.set(real(), property, value),
		deleteProperty: (_, property) => Reflect.deleteProperty(real(), property),
		ownKeys: () => Reflect.ownKeys(real()),
		getOwnPropertyDescriptor: (_, property) => {
			const descriptor = Reflect.getOwnPropertyDescriptor(real(), property);
			// The target's own length is not configurable: it has to be reported so.
			return property === 'length' || !descriptor ? descriptor : { ...descriptor, configurable: true };
		},
	});
}

function hex(value: number, digits: number): string {
	return value.toString(16).padStart(digits, '0');
}

/** Evenly from `from` to `to` (Unix seconds), non-decreasing, the last at `to`. */
function spread(into: Uint32Array, start: number, n: number, from: number, to: number): void {
	for (let j = 0; j < n; j++) into[start + j] = n === 1 ? to : from + Math.floor((j * (to - from)) / (n - 1));
}

export class History {
	readonly count: number;
	readonly testmode: boolean;
	readonly lettersPerJob: number;
	readonly confirmDelaySeconds: number;
	/** UK midnight of the seeding day (Unix seconds). */
	readonly midnight: number;
	/** Jobs from this index on were confirmed today (UK): their letters wait to print; older ones' were sent. */
	readonly todayFrom: number;
	/** Lists answered by making every history job (a query the fast answer does not know): should stay 0 in benches. */
	slowLists = 0;
	/** confirmed_at of job i; created is confirmDelaySeconds earlier. Non-decreasing in i. */
	private readonly confirmedAt: Uint32Array;
	/** 8 hex digits shared by this history's IDs: print_<prefix><index, 8 hex>, ltr_<prefix><index, 6 hex><letter, 2 hex>. */
	private readonly prefix = randomBytes(4).toString('hex');
	private readonly sentKeys: (index: number) => string | undefined;
	/** Indices of jobs changed since seeding (a cancel, a letter's status): kept in the store's jobs, listed from there. Sorted. */
	private readonly adopted: number[] = [];
	private readonly adoptedSet = new Set<number>();
	/** Sent key → the indices of the jobs carrying it (as their reference too), made on the first lookup. */
	private byKey?: Map<string, number[]>;

	constructor(options: HistoryOptions) {
		const { count, days = 30, testmode = false, lettersPerJob = 1, confirmDelaySeconds = 60, now = Date.now() } = options;
		if (!Number.isInteger(count) || count < 0 || count > 0xffffff) throw new Error(`history: count ${count} must be a whole number from 0 to 16,777,215`);
		if (!Number.isInteger(lettersPerJob) || lettersPerJob < 1 || lettersPerJob > 255) throw new Error('history: lettersPerJob must be 1 to 255');
		if (!(days >= 1)) throw new Error('history: days must be at least 1');
		this.count = count;
		this.testmode = testmode;
		this.lettersPerJob = lettersPerJob;
		this.confirmDelaySeconds = confirmDelaySeconds;
		const keys = options.sentKeys === undefined ? 'history-' : options.sentKeys;
		this.sentKeys = typeof keys === 'function' ? keys : keys === null ? () => undefined : (index) => `${keys}${index}`;
		const nowSeconds = Math.floor(now / 1000);
		this.midnight = ukMidnight(now);
		const first = nowSeconds - days * DAY + HOUR + confirmDelaySeconds;
		this.confirmedAt = new Uint32Array(count);
		const today = options.confirmedToday;
		if (today === undefined) {
			spread(this.confirmedAt, 0, count, first, nowSeconds);
		} else {
			if (!Number.isInteger(today) || today < 0 || today > count) throw new Error(`history: confirmedToday ${today} must be 0 to count`);
			if (today < count && first > this.midnight - 1) throw new Error('history: the window has no room before midnight for the jobs not confirmed today');
			spread(this.confirmedAt, 0, count - today, first, this.midnight - 1);
			spread(this.confirmedAt, count - today, today, this.midnight, nowSeconds);
		}
		this.todayFrom = this.firstAfter((i) => this.confirmedAt[i] >= this.midnight, 0, count);
	}

	idAt(index: number): string {
		return `print_${this.prefix}${hex(index, 8)}`;
	}

	letterIdAt(index: number, letter: number): string {
		return `ltr_${this.prefix}${hex(index, 6)}${hex(letter, 2)}`;
	}

	/** The index of a history job's ID, or undefined. */
	indexOf(id: string): number | undefined {
		const match = /^print_([0-9a-f]{8})([0-9a-f]{8})$/.exec(id);
		const index = match?.[1] === this.prefix ? parseInt(match[2], 16) : -1;
		return index >= 0 && index < this.count ? index : undefined;
	}

	/** The index of the job holding a history letter, or undefined. */
	indexOfLetter(letterId: string): number | undefined {
		const match = /^ltr_([0-9a-f]{8})([0-9a-f]{6})([0-9a-f]{2})$/.exec(letterId);
		if (match?.[1] !== this.prefix) return undefined;
		const index = parseInt(match[2], 16);
		return index < this.count && parseInt(match[3], 16) < this.lettersPerJob ? index : undefined;
	}

	createdAt(index: number): number {
		return this.confirmedAt[index] - this.confirmDelaySeconds;
	}

	confirmedAtOf(index: number): number {
		return this.confirmedAt[index];
	}

	sentKeyAt(index: number): string | undefined {
		return this.sentKeys(index);
	}

	/** Whether job i was changed since seeding, and so lives in the store's jobs. */
	isAdopted(index: number): boolean {
		return this.adoptedSet.has(index);
	}

	/** Job i as the API holds it: a new object each call. */
	jobAt(index: number): FakePrintJob {
		const confirmedAt = this.confirmedAt[index];
		const today = index >= this.todayFrom;
		const count = this.lettersPerJob;
		const letters: FakeLetter[] = Array.from({ length: count }, (_, n) => ({
			id: this.letterIdAt(index, n), object: 'letter', status: today ? 'waiting_to_print' : 'sent', pages: 1, sheets: 1,
			postage_service: 'uk_second_class', envelope: 'c5',
			address: { name: `Customer ${index + 1}`, line: `${index + 1} High Street\nLeeds`, postcode: 'LS1 4AP', country: 'GB' },
			tracking_number: null, print_stream: null, cost: cost(LETTER_PENCE), shipped_date: today ? null : Math.min(confirmedAt + HOUR, this.midnight),
			pdf_status: 'built', pdf: null, returned: null,
		}));
		const key = this.sentKeys(index);
		return {
			id: this.idAt(index), object: 'print', account: 'acc_fake', user: 'usr_fake', team: 'team_fake', type: 'letter',
			reference: key ?? null, confirmed: true, testmode: this.testmode, created: confirmedAt - this.confirmDelaySeconds,
			// Older than every job made through the API; ties on a sort value keep this order, as they keep creation order.
			_seq: index - this.count, confirmed_at: confirmedAt, pages: count, sheets: count, file: null,
			splitting: { method: 'none', phrase: null, pages: null },
			printing: { double_sided: 'no', double_sided_specific_pages: null, premium_quality: false, black_and_white: false },
			postage: { service: 'uk_second_class', ideal_envelope: 'c5', mail_date: null },
			background: { first_page: null, other_pages: null }, address_window: 'left', confidential: false, extra_documents: [],
			remove_letters: { with_phrase: null, series: [] }, nudge: { x: null, y: null }, confirmation_email: true,
			metadata: key === undefined ? {} : { [SENT_KEY_METADATA]: key }, cost: cost(LETTER_PENCE * count), letters,
		};
	}

	/** A history job by its ID, for GET: made afresh (changed ones are read from the store's jobs instead). */
	view(id: string): FakePrintJob | undefined {
		const index = this.indexOf(id);
		return index === undefined || this.adoptedSet.has(index) ? undefined : this.jobAt(index);
	}

	/**
	 * Moves a history job into the store's jobs before it is changed (a cancel, a letter's status); from then on it is
	 * read and listed from there (so clearing the store's jobs removes it).
	 */
	adopt(id: string, jobs: Map<string, FakePrintJob>): void {
		const index = this.indexOf(id);
		if (index === undefined || this.adoptedSet.has(index)) return;
		jobs.set(id, this.jobAt(index));
		this.adoptedSet.add(index);
		this.adopted.splice(this.firstAfter((i) => this.adopted[i] > index, 0, this.adopted.length), 0, index);
	}

	adoptLetter(letterId: string, jobs: Map<string, FakePrintJob>): void {
		const index = this.indexOfLetter(letterId);
		if (index !== undefined) this.adopt(this.idAt(index), jobs);
	}

	/**
	 * What `PrintStore.list` answers with a history: the matching jobs, newest first, as an array made only if it is
	 * read; the list route answers from the history's order instead (historyEnvelope). `live` are the store's jobs
	 * as the list shows them (changed history jobs among them).
	 */
	listing(live: FakePrintJob[], query: URLSearchParams): FakePrintJob[] {
		// Refuses a filter value the API would refuse, exactly as without a history.
		const loose = filterPrints(live, query);
		const reference = query.get('reference');
		if (reference !== null) {
			// A lookup by reference finds a few jobs: they are made and listed as the store's are.
			if (!this.byKey) {
				this.byKey = new Map();
				for (let i = 0; i < this.count; i++) {
					const key = this.sentKeys(i);
					if (key !== undefined) this.byKey.set(key, [...(this.byKey.get(key) ?? []), i]);
				}
			}
			const carrying = (this.byKey.get(reference) ?? []).filter((i) => !this.adoptedSet.has(i)).map((i) => this.jobAt(i));
			return filterPrints([...live, ...carrying], query);
		}
		const all = lazyArray(() => {
			this.slowLists++;
			const unchanged: FakePrintJob[] = [];
			for (let i = 0; i < this.count; i++) if (!this.adoptedSet.has(i)) unchanged.push(this.jobAt(i));
			return filterPrints([...live, ...unchanged], query);
		});
		envelopes.set(all, (ignoreSkip) => this.envelope(loose, query, ignoreSkip));
		return all;
	}

	/** The first index in [from, to) where `past` holds (it holds from some index on), or `to`. */
	private firstAfter(past: (index: number) => boolean, from: number, to: number): number {
		let [lo, hi] = [from, to];
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (past(mid)) hi = mid;
			else lo = mid + 1;
		}
		return lo;
	}

	/** How many changed jobs have an index in [from, to). */
	private adoptedIn(from: number, to: number): number {
		const below = (limit: number) => this.firstAfter((i) => this.adopted[i] >= limit, 0, this.adopted.length);
		return to > from ? below(to) - below(from) : 0;
	}

	/** The unchanged history jobs a list's filters keep: always one run of indices [lo, hi), changed ones left out. */
	private matching(query: URLSearchParams): [number, number] {
		const none: [number, number] = [0, 0];
		if ((query.get('testmode') === 'true') !== this.testmode) return none;
		const confirmed = query.get('confirmed');
		if (confirmed !== null && confirmed !== 'true') return none;
		// No history job has a returned letter, and all are letters (a reference is looked up in listing()).
		if (query.get('letters.returned.acknowledged') !== null) return none;
		const type = query.get('type');
		if (type !== null && type !== 'letter') return none;
		let [lo, hi] = [0, this.count];
		const statuses = query.get('letters.status')?.split(',').filter(Boolean);
		if (statuses) {
			if (!statuses.includes('sent')) lo = this.todayFrom;
			if (!statuses.includes('waiting_to_print')) hi = this.todayFrom;
		}
		return lo < hi ? [lo, hi] : none;
	}

	/** Each unchanged job's sort value, or undefined for a field the fast answer does not know. */
	private sortValue(field: string): ((index: number) => Sortable) | undefined {
		if (field === 'created') return (index) => this.createdAt(index);
		if (field === 'confirmed_at') return (index) => this.confirmedAt[index];
		if (!CONSTANT_SORTS.has(field) || this.count === 0) return undefined;
		const value = keyOf(field, this.jobAt(0));
		return () => value;
	}

	/**
	 * The list envelope, as lists.ts would answer it for the full list, from the history's order merged with the
	 * store's (few) jobs: the history is sorted on every sort field (its sort value never decreases with its index,
	 * and ties keep index order), so a page is found by counting, not by sorting.
	 */
	private envelope(loose: FakePrintJob[], query: URLSearchParams, ignoreSkip: boolean): unknown {
		if (![...query.keys()].every((key) => KNOWN_QUERY.has(key))) return undefined;
		// Limit, skip, sort field and order refused exactly as lists.ts refuses them.
		listEnvelope([] as FakePrintJob[], query, PRINT_SORTS);
		const field = query.get('sort_field') ?? 'created';
		const value = this.sortValue(field);
		if (!value) return undefined;
		const limit = query.has('limit') ? Number(query.get('limit')) : 10;
		const skip = query.has('skip') ? Number(query.get('skip')) : 0;
		const direction = query.get('sort_order') === 'asc' ? 1 : -1;
		const [lo, hi] = this.matching(query);
		const compactCount = hi - lo - this.adoptedIn(lo, hi);
		// The store's jobs in list order, each with how many history jobs come before it.
		const ordered = [...loose].sort((a, b) => direction * (compareKeys(keyOf(field, a), keyOf(field, b)) || seqOf(a) - seqOf(b)));
		const positions = ordered.map((job, j) => {
			const [key, seq] = [keyOf(field, job), seqOf(job)];
			// History jobs from `after` on sort after this job (ascending).
			const after = this.firstAfter((i) => (compareKeys(value(i), key) || i - this.count - seq) > 0, lo, hi);
			const before = direction === 1 ? after - lo - this.adoptedIn(lo, after) : hi - after - this.adoptedIn(after, hi);
			return j + before;
		});
		const total = compactCount + ordered.length;
		const from = ignoreSkip ? 0 : skip;
		const to = Math.min(from + limit, total);
		const page: FakePrintJob[] = [];
		let j = positions.findIndex((position) => position >= from);
		if (j === -1) j = ordered.length;
		let index: number | undefined;
		for (let at = from; at < to; at++) {
			if (j < ordered.length && positions[j] === at) {
				page.push(ordered[j++]);
				continue;
			}
			index = index === undefined ? this.compactAt(at - j, lo, hi, direction) : this.nextCompact(index, direction);
			page.push(this.jobAt(index));
		}
		// Fields trimmed and private fields dropped by lists.ts itself, each job first cut to the top-level fields asked
		// for (what its trimming keeps at most): copying whole jobs was most of a page's time.
		const trim = new URLSearchParams([...query].filter(([key]) => key === 'fields[]' || key === 'fields'));
		trim.set('limit', String(Math.max(1, page.length)));
		const heads = [...trim.getAll('fields[]'), ...trim.getAll('fields')].flatMap((value) => value.split(',')).map((path) => path.trim().split('.')[0]).filter(Boolean);
		const cut = heads.length === 0 ? page : page.map((job) => Object.fromEntries([...heads, 'id', 'object'].filter((head) => head in job).map((head) => [head, job[head]])));
		const { data } = listEnvelope(cut, trim) as { data: unknown[] };
		return { object: 'list', data, total_available: total, has_more: from + data.length < total };
	}

	/** The p-th unchanged job of [lo, hi) in list order. */
	private compactAt(p: number, lo: number, hi: number, direction: number): number {
		if (direction === 1) {
			let index = lo + p;
			for (const changed of this.adopted) if (changed >= lo && changed <= index) index++;
			return index;
		}
		let index = hi - 1 - p;
		for (let k = this.adopted.length - 1; k >= 0; k--) if (this.adopted[k] < hi && this.adopted[k] >= index) index--;
		return index;
	}

	private nextCompact(index: number, direction: number): number {
		let next = index + direction;
		while (this.adoptedSet.has(next)) next += direction;
		return next;
	}
}
