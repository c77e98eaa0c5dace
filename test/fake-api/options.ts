import type { WebhookTarget } from './events';

export interface FakeOptions {
	apiKey?: string;
	/** The API allows 100 requests a minute; tests may shrink the window (same shape). */
	rateLimit?: { requests: number; windowMs: number } | false;
	maxBodyBytes?: number;
	/** Serve files from the API's own host (under /files, API key required) instead of a separate file host. */
	filesOnApiHost?: boolean;
	/** Wait this long before every API answer, after the work is done (a slow server, for benchmarks). */
	latencyMs?: number;
	/**
	 * A busy API: it takes requests in one at a time, this long each, and counts a request against the
	 * rate limit only then. A burst is counted over seconds (100 at 15 ms: 1.5 s), later requests later.
	 */
	readEachMs?: number;
	/** Where the foreign "elsewhere" host listens (default: the API's host, on its own port). */
	elsewhereHost?: string;
	/**
	 * Mailing-list address validation finishes by itself this long after it is requested (or after recipients are
	 * added or moved); `false` (the default) leaves it pending until `completeValidation(listId)`.
	 */
	validationDelayMs?: number | false;
	/** A list shows a confirm this long after it happened (see PrintStore.listingDelayMs). */
	listingDelayMs?: number;
	/** Endpoints that receive signed webhook events (see `addWebhook`). */
	webhooks?: WebhookTarget[];
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	/** The query string as sent (decoded), to check its form: `fields[]=id&fields[]=reference`. */
	search: string;
	headers: Record<string, string | string[] | undefined>;
	contentType?: string;
	/** Parsed body; files are summarised as { fileName, contentType, size }. */
	body: Record<string, unknown>;
	/** Raw body text for small non-file bodies, to check the wire format. */
	raw?: string;
	/** -1 for a dropped or reset connection, 0 for a hang (or a request still in progress). */
	status: number;
	/** When the request arrived (ms since the epoch). */
	at?: number;
	/** When the rate limit counted it (after its body was read, and its turn for a busy API). */
	countedAt?: number;
	/** When the answer was written. */
	answeredAt?: number;
}
