import execa from 'execa';
import { describe, expect, it } from 'vitest';

import { CONTRACT, type AssumptionId } from '../../nodes/Intelliprint/transport';
import { CheckNotStarted, CheckStopped, checkAccount, formatTable, type CheckRow } from '../../scripts/contract/checkAccount';
import { DETAILS } from '../../scripts/contract/details';
import { BROKEN_MODES, type BrokenMode } from '../fake-api/brokenModes';
import { startFakeIntelliprint, type FakeIntelliprint } from '../fake-api/server';

/**
 * `npm run check:api` (scripts/check-api.mjs, scripts/contract/checkAccount.ts) against the fake: every row held (or
 * not checked where the check cannot provoke it) on an API as the node expects it, and against each of the fake's
 * broken modes exactly the row of that mode's assumption broken, no other. Each test has a fake of its own.
 */

const root = new URL('../../', import.meta.url);
const TEMPLATE = 'tmpl_check01';
const ids = Object.keys(CONTRACT) as AssumptionId[];
const brokenOf = (rows: CheckRow[]) => rows.filter((row) => row.verdict === 'broken').map((row) => row.assumption);
const rowOf = (rows: CheckRow[], id: AssumptionId) => rows.find((row) => row.assumption === id)!;
const brokenUrl = (fake: FakeIntelliprint, mode: string) => fake.url.replace(/\/v1$/, `/broken/${mode}/v1`);

/** A test-mode letter POSTed as the node sends one (multipart, bracket keys), through `baseUrl`. */
async function postJob(fake: FakeIntelliprint, baseUrl: string, fields: Record<string, string>): Promise<{ id: string; created: number }> {
	const form = new FormData();
	const all = {
		testmode: 'true', content: '<p>Earlier letter</p>', 'recipients[0][address][name]': 'Ann Example', 'recipients[0][address][line]': '1 Park Road, Leeds',
		'recipients[0][address][postcode]': 'LS1 4AP', 'recipients[0][address][country]': 'GB', ...fields,
	};
	for (const [key, value] of Object.entries(all)) form.append(key, value);
	const response = await fetch(`${baseUrl}/prints`, { method: 'POST', headers: { authorization: `Bearer ${fake.apiKey}` }, body: form });
	expect(response.status).toBe(200);
	return (await response.json()) as { id: string; created: number };
}

/**
 * An account with a history, the same for every mode: two live jobs; a keyed test job and a keyed mail run's made
 * through `baseUrl` (a mode that renames keyed jobs renames them); and two test jobs where the one stored later was created earlier (a list
 * sorted on the order jobs were stored shows them out of order).
 */
async function accountWithHistory(baseUrl?: (fake: FakeIntelliprint) => string, options: Parameters<typeof startFakeIntelliprint>[0] = {}): Promise<FakeIntelliprint> {
	const fake = await startFakeIntelliprint({ rateLimit: false, ...options });
	fake.templates.add({ id: TEMPLATE, name: 'Check', content: '<p>Dear {{first_name}}</p>' });
	const [live] = fake.prints.seed(2);
	// A letter that came back, for the returned-date row.
	fake.prints.setLetterStatus(live.letters[0].id, 'returned', { returned: { date: Math.floor(Date.now() / 1000) - 3600, reason: 'Gone away', acknowledged: false } });
	await postJob(fake, baseUrl?.(fake) ?? fake.url, { reference: 'key-0001', 'metadata[n8n_sent_key]': 'key-0001' });
	// A keyed mail run's job as the node makes it: the mail runs' reference, its rows' keys in its records.
	await postJob(fake, baseUrl?.(fake) ?? fake.url, { reference: 'n8n mail run', 'metadata[n8n_rows]': '1', 'metadata[n8n_addr]': 'abcdef', 'metadata[n8n_keys]': '["INV-1"]' });
	const newer = await postJob(fake, fake.url, { reference: 'history-newer' });
	const older = await postJob(fake, fake.url, { reference: 'history-older' });
	fake.prints.jobs.get(older.id)!.created = newer.created - 100;
	fake.resetRecording();
	return fake;
}

/** The check against `baseUrl`, with the fake's request count and what it left behind. */
async function check(fake: FakeIntelliprint, baseUrl: string, withTemplate = true) {
	const log: string[] = [];
	const rows = await checkAccount({ baseUrl, apiKey: fake.apiKey, templateId: withTemplate ? TEMPLATE : undefined, log: (line) => log.push(line) });
	const made = fake.createdPrintJobs().filter((job) => job.reference?.startsWith('n8n-check-'));
	return { rows, log, made, requests: fake.requests.length };
}

describe('check:api against an API as the node expects it', () => {
	it.concurrent('holds every row but the rate limit (not provoked), in test mode only, cleans up, in at most 40 requests', async () => {
		const fake = await accountWithHistory();
		try {
			const { rows, log, made, requests } = await check(fake, fake.url);
			expect(rows.map((row) => row.assumption)).toEqual(ids);
			expect(Object.fromEntries(rows.map((row) => [row.assumption, row.verdict]))).toEqual({ ...Object.fromEntries(ids.map((id) => [id, 'held'])), 'rate-limit': 'not checked' });
			// The keyed mail run's job (reference "n8n mail run") is keyed as the node makes it, not a renamed job.
			expect(rowOf(rows, 'keyed-reference').detail).toContain('no renamed keyed job: 2 keyed among 2 live and');
			expect(rowOf(rows, 'templates').detail).toContain(TEMPLATE);
			// The pair the node sends, made and priced; the three it never sends told as the account answered them (the fake refuses them).
			const abroad = rowOf(rows, 'postage-abroad').detail;
			expect(abroad).toMatch(/^POST \/prints with postage\[service\]=international to Paris, France \(FR\): made test draft print_\w+: 1 letter\(s\) to France \(FR\) by international, £2\.64 after tax a letter/);
			expect(abroad).toContain('uk_second_class to Paris, France (FR) (the node never sends this pair): refused: HTTP 400 parameter_invalid: Invalid value for postage.service');
			expect(abroad).toContain('a postcard by international to Paris, France (FR) (the node refuses postcards abroad itself): refused: HTTP 400 parameter_invalid: Invalid value for type');
			expect(abroad).toContain('international to Leeds, the United Kingdom (GB) (the node never sends this pair): refused: HTTP 400');
			// Three drafts, the template's, the one abroad and the metadata budget's, all test mode; two confirmed (free in test mode), their letters cancelled, the rest deleted.
			expect(made).toHaveLength(6);
			expect(made.every((job) => job.testmode)).toBe(true);
			expect(made.filter((job) => job.confirmed)).toHaveLength(2);
			expect([...fake.prints.jobs.values()].filter((job) => job.reference?.startsWith('n8n-check-')).map((job) => [job.confirmed, job.letters.map((letter) => letter.status)])).toEqual([
				[true, ['cancelled']],
				[true, ['cancelled']],
			]);
			expect(log.join('\n')).toContain('Intelliprint removes them a week after confirmation');
			expect(requests).toBeLessThanOrEqual(40);
			expect(log.at(-1)).toBe(`${requests} requests`);
		} finally {
			await fake.stop();
		}
	});

	it.concurrent('without a template ID, templates is not checked and says how to check it', async () => {
		const fake = await accountWithHistory();
		try {
			const { rows } = await check(fake, fake.url, false);
			expect(rowOf(rows, 'templates')).toMatchObject({ verdict: 'not checked', detail: expect.stringContaining('INTELLIPRINT_TEMPLATE_ID') });
			expect(brokenOf(rows)).toEqual([]);
		} finally {
			await fake.stop();
		}
	});

	it.concurrent('waits for a list that shows new jobs late, and says how late', async () => {
		const fake = await accountWithHistory(undefined, { listingDelayMs: 1500 });
		try {
			const { rows } = await check(fake, fake.url);
			expect(brokenOf(rows)).toEqual([]);
			expect(rowOf(rows, 'listing-delay').detail).toMatch(/our 2 confirms were listed within 1\.\d s of the last being confirmed \([2-9] reads\)/);
		} finally {
			await fake.stop();
		}
	});

	it.concurrent('waits out a 429 on a read as Retry-After says, and sends it again', async () => {
		const fake = await accountWithHistory();
		fake.faults.push({ method: 'GET', path: /^\/v1\/prints$/, status: 429, error: { type: 'rate_limited', code: 'rate_limited', message: 'Too many requests.' }, retryAfter: 1, after: 4 });
		try {
			const { rows, log } = await check(fake, fake.url);
			expect(brokenOf(rows)).toEqual([]);
			expect(log.join('\n')).toMatch(/rate limited on GET \/prints: waiting 1\.0 s/);
			expect(log.at(-1)).toMatch(/\(1 answered 429 and sent again\)$/);
		} finally {
			await fake.stop();
		}
	});
});

describe('check:api against each of the fake\'s broken modes', () => {
	it.concurrent.each(Object.keys(BROKEN_MODES) as BrokenMode[])('%s: breaks exactly its assumption\'s row, no other', async (mode) => {
		const fake = await accountWithHistory((f) => brokenUrl(f, mode));
		try {
			const { rows, made } = await check(fake, brokenUrl(fake, mode));
			expect(brokenOf(rows)).toEqual([BROKEN_MODES[mode].assumption]);
			expect(made.every((job) => job.testmode)).toBe(true);
			expect(formatTable(rows)).toContain('what the node does: ');
			if (mode === 'noInternational') expect(rowOf(rows, 'postage-abroad').detail).toMatch(/^POST \/prints with postage\[service\]=international to Paris, France \(FR\): refused: HTTP 400 parameter_invalid: .*not available on this account; the node sends every letter abroad by international: with it refused, no row abroad can be sent$/);
			if (mode === 'renamedKeys') {
				expect(rowOf(rows, 'keyed-reference').detail).toMatch(/^2 keyed print job\(s\) .*print_\w+ \(key "key-0001", reference "Renamed key-0001"\)/);
				expect(rowOf(rows, 'keyed-reference').detail).toMatch(/print_\w+ \(a keyed mail run, reference "Renamed n8n mail run"\)/);
			}
		} finally {
			await fake.stop();
		}
	});
});

describe('check:api when an answer is not as expected', () => {
	it.concurrent('a 404 in the right shape without a request-id header breaks error-answers alone', async () => {
		const fake = await accountWithHistory();
		const body = JSON.stringify({ error: { message: 'No such resource exists', type: 'invalid_request_error', code: 'not_found' } });
		fake.faults.push({ method: 'GET', path: /print_n8ncheckmissing/, status: 404, body: { text: body, contentType: 'application/json' } });
		try {
			const { rows } = await check(fake, fake.url);
			expect(brokenOf(rows)).toEqual(['error-answers']);
			expect(rowOf(rows, 'error-answers').detail).toContain('in the right shape, but without a request-id header');
		} finally {
			await fake.stop();
		}
	});

	const breakers: Array<[AssumptionId, (fake: FakeIntelliprint) => void, string]> = [
		['price-on-jobs', (fake) => (fake.withholdCost = 'unreadable'), 'not a whole number of 10⁻⁸ GBP'],
		['mailing-lists', (fake) => fake.faults.push({ method: 'GET', path: /mailing_lists/, garbage: 'notList' }), 'with something other than a list envelope'],
		['templates', (fake) => fake.templates.templates.delete(TEMPLATE), `template=${TEMPLATE} was refused: HTTP 400`],
	];
	it.concurrent.each(breakers)('an answer that breaks %s breaks that row alone', async (assumption, breakIt, detail) => {
		const fake = await accountWithHistory();
		breakIt(fake);
		try {
			const { rows } = await check(fake, fake.url);
			expect(brokenOf(rows)).toEqual([assumption]);
			expect(rowOf(rows, assumption).detail).toContain(detail);
		} finally {
			await fake.stop();
		}
	});

	it.concurrent('a step that fails stops the check after cleaning up, and says which rows it could not finish', async () => {
		const fake = await accountWithHistory();
		fake.faults.push({ method: 'POST', path: /^\/v1\/prints\/print_/, status: 500 });
		try {
			const stopped = await checkAccount({ baseUrl: fake.url, apiKey: fake.apiKey }).then(() => undefined, (error: unknown) => error);
			expect(stopped).toBeInstanceOf(CheckStopped);
			const rows = (stopped as CheckStopped).rows;
			expect(rows.map((row) => row.assumption)).toEqual(ids);
			expect(brokenOf(rows)).toEqual([]);
			expect(rowOf(rows, 'list-order')).toMatchObject({ verdict: 'not checked', detail: expect.stringContaining('the check stopped before it was done (POST /prints/print_') });
			// The three drafts were deleted: none of the check's jobs is left.
			expect([...fake.prints.jobs.values()].filter((job) => job.reference?.startsWith('n8n-check-'))).toEqual([]);
		} finally {
			await fake.stop();
		}
	});

	it.concurrent('a key the API refuses: not started, nothing made', async () => {
		const fake = await accountWithHistory();
		try {
			const failure = await checkAccount({ baseUrl: fake.url, apiKey: 'not_the_key' }).then(() => undefined, (error: unknown) => error);
			expect(failure).toBeInstanceOf(CheckNotStarted);
			expect((failure as Error).message).toContain('Invalid API key provided.');
			expect(fake.createdPrintJobs().filter((job) => job.reference?.startsWith('n8n-check-'))).toEqual([]);
		} finally {
			await fake.stop();
		}
	});
});

describe('formatTable', () => {
	it.concurrent('a row a line (wrapped), what the node does under a broken row, the count last', () => {
		const rows: CheckRow[] = ids.map((assumption) => ({ assumption, verdict: assumption === 'mode-filters' ? 'broken' : 'held', detail: `seen ${assumption}` }));
		const table = formatTable(rows).split('\n');
		expect(table[0]).toMatch(/^assumption +verdict +detail$/);
		expect(table.find((line) => line.startsWith('mode-filters'))).toMatch(/^mode-filters +BROKEN +seen mode-filters$/);
		// "as for list-order" is spelt out.
		expect(table.join(' ').replace(/\s+/g, ' ')).toContain(`what the node does: The read fails, as for list-order: ${DETAILS['list-order'].onBreach}`);
		expect(table.at(-1)).toBe(`${ids.length} assumptions: ${ids.length - 1} held, 1 broken, 0 not checked.`);
		expect(Math.max(...table.map((line) => line.length))).toBeLessThanOrEqual(110);
	});
});

/** `npm run check:api` as a user runs it (tsx scripts/check-api.mjs); settings not given are empty, as if unset. */
async function runCli(env: Record<string, string>): Promise<{ code: number; out: string }> {
	const unset = { INTELLIPRINT_API_KEY: '', INTELLIPRINT_BASE_URL: '', INTELLIPRINT_TEMPLATE_ID: '', CHECK_API_SCAN_PAGES: '' };
	const run = await execa(new URL('node_modules/.bin/tsx', root).pathname, ['scripts/check-api.mjs'], { cwd: root.pathname, env: { ...unset, ...env }, reject: false, all: true, timeout: 60_000 });
	return { code: run.exitCode, out: run.all ?? '' };
}

describe('npm run check:api (the command)', () => {
	const keyText = 'example-account-key-never-printed-7f3a';

	it.concurrent('exits 2 without a key, 0 where every row holds, 1 where one is broken; never prints the key', async () => {
		expect(await runCli({})).toMatchObject({ code: 2, out: expect.stringContaining('INTELLIPRINT_API_KEY') });
		const fake = await startFakeIntelliprint({ rateLimit: false, apiKey: keyText });
		try {
			const held = await runCli({ INTELLIPRINT_API_KEY: keyText, INTELLIPRINT_BASE_URL: fake.url, CHECK_API_SCAN_PAGES: '2' });
			expect(held.code, held.out).toBe(0);
			// Only the rate limit (not provoked), templates (no ID given) and returned dates (an account with no returned letter) are not checked.
			expect(held.out).toContain(`${ids.length} assumptions: ${ids.length - 3} held, 0 broken, 3 not checked.`);
			const broken = await runCli({ INTELLIPRINT_API_KEY: keyText, INTELLIPRINT_BASE_URL: brokenUrl(fake, 'countsOff') });
			expect(broken.code, broken.out).toBe(1);
			expect(broken.out).toMatch(/counts +BROKEN/);
			expect(broken.out).toContain('what the node does: The read fails, as for list-order');
			for (const out of [held.out, broken.out]) expect(out).not.toContain(keyText);
			expect(await runCli({ INTELLIPRINT_API_KEY: 'wrong_key', INTELLIPRINT_BASE_URL: fake.url })).toMatchObject({ code: 2, out: expect.stringContaining('could not start') });
		} finally {
			await fake.stop();
		}
	});
});
