import { beforeEach, describe, expect, it } from 'vitest';

import { useFakeApi } from '../../helpers/context';
import { createFourLetterJob } from '../../helpers/printJobs';
import { listReads, poller as pollerOf, returnLetter } from './poller';

const api = useFakeApi();
const poller = (parameters: Parameters<typeof pollerOf>[1], options?: Parameters<typeof pollerOf>[2]) => pollerOf(api, parameters, options);
const now = () => Math.floor(Date.now() / 1000);

let letters: string[];
beforeEach(async () => {
	api.fake.prints.jobs.clear();
	const id = await createFourLetterJob(api, { confirmed: true });
	letters = api.fake.prints.get(id).letters.map((l) => l.id);
	returnLetter(api, letters[0], now() - 3600);
});

describe('Intelliprint Status Trigger (polling)', () => {
	it('emits each letter once when it newly reaches a watched status, across restarts', async () => {
		const poll = poller({ statuses: ['returned', 'failed_wrong_address'] });
		expect(await poll()).toEqual([]); // first activation: the letter already returned is history

		api.fake.prints.setLetterStatus(letters[1], 'printing');
		returnLetter(api, letters[2]);
		const second = await poll();
		expect(second.map((i) => i.json.id)).toEqual([letters[2]]);
		expect(second[0].json).toMatchObject({ status: 'returned', print_id: expect.stringMatching(/^print_/), name: expect.any(String) });

		expect(await poll()).toEqual([]);

		api.fake.prints.setLetterStatus(letters[1], 'failed_wrong_address');
		api.fake.prints.setLetterStatus(letters[3], 'sent');
		expect((await poll()).map((i) => i.json.id)).toEqual([letters[1]]);
		expect(await poll()).toEqual([]);

		// Returned letters newest return first, the other statuses newest job first, each trimmed to what an item shows.
		const [returned, others] = listReads(api).queries.slice(-2);
		expect(returned).toMatchObject({ 'letters.status': 'returned', sort_field: 'letters.returned.date', sort_order: 'desc', testmode: 'false', skip: '0' });
		expect(others).toMatchObject({ 'letters.status': 'failed_wrong_address', sort_field: 'created', sort_order: 'desc', testmode: 'false', skip: '0' });
		expect(api.apiCalls().at(-1)?.search).toContain('fields[]=letters.address');
	});

	it('can emit the letters already in the statuses on the first poll', async () => {
		const poll = poller({ statuses: ['returned'], emitExisting: true });
		expect((await poll()).map((i) => i.json.id)).toEqual([letters[0]]);
		expect(await poll()).toEqual([]);
	});

	it('gives a sample in manual mode without touching the poll state', async () => {
		const poll = poller({ statuses: ['returned'] });
		expect((await poll('manual')).map((i) => i.json.id)).toEqual([letters[0]]);
		expect(await poll()).toEqual([]);
		returnLetter(api, letters[1]);
		expect((await poll()).map((i) => i.json.id)).toEqual([letters[1]]);
	});

	it('watches test jobs when asked', async () => {
		const poll = poller({ statuses: ['returned'], testmode: true, emitExisting: true });
		expect(await poll()).toEqual([]);
		expect(api.apiCalls().at(-1)?.query).toMatchObject({ testmode: 'true' });
		api.fake.prints.seed(1, { confirmed: true, testmode: true }).forEach((job) => returnLetter(api, job.letters[0].id));
		expect(await poll()).toHaveLength(1);
	});
});

const DAY = 86_400;
const brokenUrl = (mode: string) => ({ baseUrl: api.fake.url.replace(/\/v1$/, `/broken/${mode}/v1`) });
const ids = (items: Array<{ json: { id?: unknown } }>) => items.map((item) => String(item.json.id));

describe('what a poll reads: returns since the last poll, other statuses within the look-back', () => {
	it("finds other statuses in jobs created within Look Back (Days), and forgets letters whose job ages out of it", async () => {
		const [old, recent] = [40, 5].map((days) => api.fake.prints.seed(1, { confirmed: true, created: now() - days * DAY })[0].letters[0].id);
		const poll = poller({ statuses: ['failed_wrong_address'], lookBackDays: 30 });
		expect(await poll()).toEqual([]);
		for (const id of [old, recent]) api.fake.prints.setLetterStatus(id, 'failed_wrong_address');
		expect(ids(await poll())).toEqual([recent]);
		expect(poll.state()).toMatchObject({ letters: { failed_wrong_address: [recent] } });
		// The read stops at the first job created before the look-back: the 40-day-old one ends it.
		expect(listReads(api).queries.at(-1)).toMatchObject({ sort_field: 'created', 'letters.status': 'failed_wrong_address' });
	});

	it('finds a returned letter by its return date however old its job, and keeps only the last days of returns', async () => {
		const [ancient] = api.fake.prints.seed(1, { confirmed: true, created: now() - 300 * DAY });
		const [earlier] = api.fake.prints.seed(1, { confirmed: true, created: now() - 300 * DAY });
		returnLetter(api, earlier.letters[0].id, now() - 20 * DAY);
		const poll = poller({ statuses: ['returned'] });
		expect(await poll()).toEqual([]);
		returnLetter(api, ancient.letters[0].id);
		expect(ids(await poll())).toEqual([ancient.letters[0].id]);
		// Remembered: the returns of the margin's two days; the one of 20 days ago is never read again.
		const saved = poll.state() as { letters: { returned: string[] }; newestReturn: number };
		expect(saved.letters.returned.sort()).toEqual([ancient.letters[0].id, letters[0]].sort());
		expect(saved.newestReturn).toBeGreaterThanOrEqual(now() - 5);
		expect(await poll()).toEqual([]);
	});

	it('on the first poll emits the returns of the look-back when asked, not older ones', async () => {
		const [older] = api.fake.prints.seed(1, { confirmed: true });
		returnLetter(api, older.letters[0].id, now() - 45 * DAY);
		expect(ids(await poller({ statuses: ['returned'], emitExisting: true })())).toEqual([letters[0]]);
		expect(ids(await poller({ statuses: ['returned'], emitExisting: true, lookBackDays: 60 })())).toEqual([letters[0], older.letters[0].id]);
	});

	it('goes on from the state an earlier version saved, and a change of look-back starts afresh', async () => {
		const poll = poller({ statuses: ['returned', 'failed_wrong_address'] }, { state: { watching: 'failed_wrong_address,returned|false', seen: { [letters[0]]: 'returned' } } });
		returnLetter(api, letters[1]);
		api.fake.prints.setLetterStatus(letters[2], 'failed_wrong_address');
		expect(ids(await poll()).sort()).toEqual([letters[1], letters[2]].sort());
		expect(poll.state()).toMatchObject({ watching: 'failed_wrong_address,returned|false|30d', letters: { returned: expect.any(Array) } });
		expect(poll.state().seen).toBeUndefined();
		const wider = poller({ statuses: ['returned'], lookBackDays: 60 }, { state: poll.state() });
		returnLetter(api, letters[3]);
		expect(await wider()).toEqual([]);
	});

	it('Simplify off gives each letter as the API lists it; a sample in manual mode is one small page', async () => {
		const [item] = await poller({ statuses: ['returned'], simplify: false, emitExisting: true })();
		expect(item.json).toMatchObject({ id: letters[0], object: 'letter', pdf_status: 'built', print_id: expect.stringMatching(/^print_/), returned: { reason: 'Addressee gone away' } });
		api.fake.resetRecording();
		await poller({ statuses: ['returned', 'sent'] })('manual');
		expect(listReads(api)).toMatchObject({ requests: 2, asked: 20 });
	});

	it('steps back when jobs leave the list between its pages, so none below them is skipped', async () => {
		const returned = api.fake.prints.seed(150, { confirmed: true }).map((job, i) => (returnLetter(api, job.letters[0].id, now() - 600 - i), job.letters[0].id));
		const list = api.fake.prints.list.bind(api.fake.prints);
		let calls = 0;
		// Between the first page (100 jobs) and the second, three letters near the top are sent again: their jobs leave
		// the list, and the 101st moves up to the 98th place, before where the second page starts.
		api.fake.prints.list = (query) => {
			if (++calls === 2) for (const id of returned.slice(5, 8)) api.fake.prints.setLetterStatus(id, 'sent');
			return list(query);
		};
		try {
			const emitted = ids(await poller({ statuses: ['returned'], emitExisting: true })());
			// Every letter returned when the trigger read it (the three were), the one in the beforeEach job too.
			expect(new Set(emitted).size).toBe(151);
			expect(emitted).toEqual(expect.arrayContaining([returned[100], returned[101], returned[5]]));
			// The first page, the second found starting past the gap, the same stepped back, and nothing more.
			expect(listReads(api).queries.map((query) => [query.skip, query.limit])).toEqual([['0', '100'], ['99', '400'], ['19', '400']]);
		} finally {
			api.fake.prints.list = list;
		}
	});
});

describe('answers the trigger cannot trust stop the poll, with nothing emitted and the state kept', () => {
	it('a list out of the order of return dates asked ("returned-date")', async () => {
		returnLetter(api, api.fake.prints.seed(1, { confirmed: true })[0].letters[0].id);
		const poll = poller({ statuses: ['returned'], emitExisting: true }, { credentials: brokenUrl('ignoreSort') });
		await expect(poll()).rejects.toThrow(/"returned-date".*letters\.returned\.date/);
		expect(poll.state()).toEqual({});
	});

	it('a list without the fields asked for ("projection")', async () => {
		await expect(poller({ statuses: ['returned'] }, { credentials: brokenUrl('dropFields') })()).rejects.toThrow(/"projection"/);
	});

	it('a return date that is not a Unix time in seconds', async () => {
		returnLetter(api, letters[1], Date.now());
		await expect(poller({ statuses: ['returned'] })()).rejects.toThrow(/return date in the future/);
	});

	it('a returned letter without a return date', async () => {
		api.fake.prints.setLetterStatus(letters[1], 'returned');
		const error = await poller({ statuses: ['returned'] })().catch((caught: Error & { description?: string }) => caught);
		expect(error).toMatchObject({ message: expect.stringContaining(`letter ${letters[1]}`), description: expect.stringContaining('Intelliprint Trigger (webhooks)') });
	});
});

describe('the row a letter came from (Print Job → Create stores it on the job)', () => {
	const mailRun = (rowId: string) => ({
		resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', variables: 'none', testmode: false, confirmed: true,
		options: { rowId },
	});
	const rows = ['INV-1', 'INV-2', 'INV-3'].map((invoiceId, i) => ({ json: { invoiceId, name: `Row ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));

	it("a mail run's returned letter names its row's place and Row ID, with its recipient", async () => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: mailRun('={{ $json.invoiceId }}'), items: rows });
		const job = api.fake.prints.get(String(items[0].json.id));
		expect(job.metadata).toMatchObject({ n8n_rows: '1-3', n8n_ids: '["INV-1","INV-2","INV-3"]', n8n_addr: expect.stringMatching(/^[\w-]{18}$/) });
		const poll = poller({ statuses: ['returned'] });
		await poll();
		returnLetter(api, job.letters[1].id, now(), 'Gone away');
		const [letter] = await poll();
		expect(letter.json).toMatchObject({ id: job.letters[1].id, name: 'Row 2', row: 2, row_id: 'INV-2', sent_key: null, rows: [{ row: 2, row_id: 'INV-2', sent_key: null }], returned: { reason: 'Gone away' }, print_metadata: { n8n_rows: '1-3' } });
	});

	it("without a Row ID the place alone; a PDF split into letters is its one row's; a job not made from rows names none", async () => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: mailRun(''), items: rows });
		const job = api.fake.prints.get(String(items[0].json.id));
		const poll = poller({ statuses: ['returned'], emitExisting: true });
		returnLetter(api, job.letters[2].id);
		const emitted = await poll();
		const fromRows = emitted.find((item) => item.json.id === job.letters[2].id)!;
		expect(fromRows.json).toMatchObject({ row: 3, row_id: null, rows: [{ row: 3, row_id: null }] });
		const fromPdf = emitted.find((item) => item.json.id === letters[0])!;
		expect(fromPdf.json).toMatchObject({ row: 1, row_id: null });
		const [elsewhere] = api.fake.prints.seed(1, { confirmed: true, testmode: false });
		returnLetter(api, elsewhere.letters[0].id);
		const [other] = await poll();
		expect(other.json).toMatchObject({ id: elsewhere.letters[0].id, row: null, row_id: null, row_note: expect.stringContaining('names no row') });
	});
});
