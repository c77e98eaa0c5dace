/**
 * The API contract: every behaviour of the Intelliprint API that the node relies on beyond the seed's description of
 * it, by ID, in one line each. The node's messages name the assumption an answer broke by these; docs/api-contract.md
 * gives each one's users, what breaks without it, its check and what the node does then (generated from
 * scripts/contract/details.ts, which must cover exactly these IDs), and `npm run check:api` tests a real account
 * against every one.
 */
export const CONTRACT = {
	'list-order': 'A list sorted with `sort_field` and `sort_order` answers in that order, on every page (`skip`) to the end',
	'reference-filter': '`GET /prints?reference=…` answers only the print jobs whose reference is exactly that text',
	'mode-filters': "`testmode` and `confirmed` filter a list: only jobs of that mode, and only confirmed jobs when asked",
	projection: '`fields[]` trims each job to the fields asked for, and keeps every one of them',
	counts: 'A page adds up: no more entries than `limit`, and `has_more` true exactly while `skip` plus the entries is less than `total_available`',
	paging: '`skip` moves through a list: a page after one with `has_more` brings entries not seen before',
	'listing-delay': 'A job created or confirmed is listed within 30 seconds',
	'price-on-jobs': 'Every print job, draft or confirmed, answered alone or in a list, carries `cost.after_tax` as a whole number of 10⁻⁸ GBP',
	'metadata-kept': 'Metadata given to a print job (create, or update) is kept, and listed with the job',
	'metadata-budget': 'A print job keeps metadata of up to 50 entries, names of up to 40 characters and values of up to 500, whole',
	'keyed-reference': "A keyed print job's reference stays its key, and a keyed mail run's `n8n mail run` (nobody renames them in the dashboard)",
	'rate-limit': 'Over the rate limit the API answers 429 (`rate_limited`) and does nothing with the request; `Retry-After`, when sent, says how long to wait',
	'error-answers': 'An error answer is JSON `{error: {message, type, code, param}}` with a `request-id` header, and a 4xx did nothing',
	'mailing-lists': 'Mailing lists and their recipients answer as the official SDK documents (`/mailing_lists`, sorted on `created` or `name`)',
	templates: '`template=<id>` on a create fills a template designed in the dashboard; no endpoint lists templates',
	'returned-date': 'A returned letter carries `returned.date` in Unix seconds, and `sort_field=letters.returned.date` lists print jobs by their newest return date',
	'postage-abroad':
		"A letter goes by its job's service to the country of its address: `international` carries letters abroad (answered with `postage_service` international), a UK service letters in the UK",
} as const;

export type AssumptionId = keyof typeof CONTRACT;
