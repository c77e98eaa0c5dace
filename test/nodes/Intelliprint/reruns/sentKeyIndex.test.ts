import { describe, expect, it } from 'vitest';

import type { FakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';

/**
 * Skip Items Already Sent at a big sender's size: a process reads the account's look-back once and afterwards only
 * what is newer, and what it remembers is checked (a job deleted or cancelled since does not count as sent).
 */
const api = useFakeApi();
const now = () => Math.floor(Date.now() / 1000);
const rows = (keys: string[]) => keys.map((key, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP', key } }));
const create = (extra: Record<string, unknown> = {}) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: true,
	confirmed: false, options: { sentKey: '={{ $json.key }}', parallelItems: 1 }, ...extra,
});
const listReads = () => api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints').length;
const creates = () => api.apiCalls().filter((call) => call.method === 'POST' && call.path === '/v1/prints').length;

/** `count` test jobs of the past `days`, newest first, carrying keys `<prefix>1` (newest) … `<prefix><count>` (as their reference too). */
function history(fake: FakeIntelliprint, prefix: string, count: number, days = 20) {
	const jobs = fake.prints.seed(count, { testmode: true });
	jobs.forEach((job, i) => {
		job.created = now() - 60 - Math.floor((i / count) * days * 86_400);
		job.metadata = { n8n_sent_key: `${prefix}${i + 1}` };
		job.reference = `${prefix}${i + 1}`;
	});
	return jobs;
}

describe('Skip Items Already Sent, read once per process', () => {
	it('the first run reads the look-back; a rerun reads one page and sends nothing again', async () => {
		history(api.fake, 'h-', 2500);
		const keys = ['h-2400', 'new-1', 'new-2'];
		const first = await api.run({ parameters: create(), items: rows(keys) });
		expect(first.items.map((item) => item.json.already_sent === true)).toEqual([true, false, false]);
		expect([listReads(), creates()]).toEqual([3, 2]);
		api.fake.resetRecording();
		const again = await api.run({ parameters: create(), items: rows(keys) });
		expect(again.items.map((item) => item.json.already_sent)).toEqual([true, true, true]);
		expect([listReads(), creates()]).toEqual([1, 0]);
	});

	it('a rerun whose keys are all near the top stops reading once it has found them', async () => {
		history(api.fake, 'top-', 3000);
		api.fake.resetRecording();
		// A process that has not read the account yet: another spelling of the address is another credential's state.
		const { items } = await api.run({ parameters: create(), items: rows(['top-1', 'top-2', 'top-3']), credentials: { baseUrl: api.fake.url.replace('http://', 'HTTP://') } });
		expect(items.every((item) => item.json.already_sent === true)).toBe(true);
		expect([listReads(), creates()]).toEqual([1, 0]);
	});

	it('a job deleted since, or with every letter cancelled, no longer counts as sent: the item is sent again, once', async () => {
		const first = await api.run({ parameters: create(), items: rows(['gone-deleted', 'gone-cancelled']) });
		const [deleted, cancelled] = first.items.map((item) => String(item.json.id));
		api.fake.prints.jobs.delete(deleted);
		for (const letter of api.fake.prints.jobs.get(cancelled)!.letters) letter.status = 'cancelled';
		api.fake.resetRecording();
		const again = await api.run({ parameters: create(), items: rows(['gone-deleted', 'gone-cancelled']) });
		expect(again.items.map((item) => [item.json.already_sent, item.json.id === deleted || item.json.id === cancelled])).toEqual([[undefined, false], [undefined, false]]);
		expect(creates()).toBe(2);
		api.fake.resetRecording();
		const third = await api.run({ parameters: create(), items: rows(['gone-deleted', 'gone-cancelled']) });
		expect(third.items.map((item) => item.json.already_sent)).toEqual([true, true]);
		expect(creates()).toBe(0);
	});

	it("a key sent before the run's look-back is sent again, as the look-back says, even when the process remembers it", async () => {
		const [old] = history(api.fake, 'monthly-', 1);
		old.created = now() - 10 * 86_400;
		// A process of its own (seeded history is older than what this file's process has read already).
		const credentials = { baseUrl: api.fake.url.replace('http://', 'hTTp://') };
		const wide = await api.run({ parameters: create({ options: { sentKey: '={{ $json.key }}', sentKeyLookBackDays: 30 } }), items: rows(['monthly-1']), credentials });
		expect(wide.items[0].json.already_sent).toBe(true);
		const narrow = await api.run({ parameters: create({ options: { sentKey: '={{ $json.key }}', sentKeyLookBackDays: 5 } }), items: rows(['monthly-1']), credentials });
		expect(narrow.items[0].json.already_sent).toBeUndefined();
		expect(narrow.items[0].json.id).not.toBe(old.id);
	});

	it('a job another process created, listed late with an older time, is still found by the next read', async () => {
		await api.run({ parameters: create(), items: rows(['late-0']) });
		const [late] = history(api.fake, 'late-', 1);
		late.created = now() - 5 * 60;
		const { items } = await api.run({ parameters: create(), items: rows(['late-1']) });
		expect(items[0].json).toMatchObject({ already_sent: true, id: late.id });
	});

	it('a big account: the keys not on the first page are looked up by reference, one request each, not the window', async () => {
		history(api.fake, 'big-', 12_000);
		api.fake.resetRecording();
		const credentials = { baseUrl: api.fake.url.replace('http://', 'htTP://') };
		const keys = ['big-9000', 'big-new-1', 'big-new-2'];
		const first = await api.run({ parameters: create(), items: rows(keys), credentials });
		expect(first.items.map((item) => item.json.already_sent === true)).toEqual([true, false, false]);
		// The first page (a thousand of 12,000 jobs over 20 days), then the three keys: not the twelve pages of the window.
		expect([listReads(), creates()]).toEqual([1 + 3, 2]);
		const lookups = api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints' && 'reference' in call.query);
		expect(lookups).toHaveLength(3);
		// The job a lookup found is not read again: the lookup's answer is as fresh.
		expect(api.apiCalls()).toHaveLength(1 + 3 + 2);
		api.fake.resetRecording();
		const again = await api.run({ parameters: create(), items: rows(keys), credentials });
		expect(again.items.map((item) => item.json.already_sent)).toEqual([true, true, true]);
		expect([listReads(), creates()]).toEqual([1, 0]);
		// Forty keys not looked up yet: more than the window's pages (this file's other jobs among them), so the window is read
		// once, not looked up key by key.
		const windowPages = Math.ceil([...api.fake.prints.jobs.values()].filter((job) => job.testmode).length / 1000);
		expect(windowPages).toBeLessThan(30);
		api.fake.resetRecording();
		const many = Array.from({ length: 40 }, (_, i) => `big-${i * 250 + 7}`);
		const wide = await api.run({ parameters: create(), items: rows(many), credentials });
		expect(wide.items.every((item) => item.json.already_sent === true)).toBe(true);
		expect(listReads()).toBe(1 + windowPages);
		expect(api.apiCalls().filter((call) => 'reference' in call.query)).toHaveLength(0);
		// From then on the process holds the whole window: new keys cost the one page of what is newer.
		api.fake.resetRecording();
		const later = await api.run({ parameters: create(), items: rows(['big-new-3', 'big-11999']), credentials });
		expect(later.items.map((item) => item.json.already_sent === true)).toEqual([false, true]);
		expect([listReads(), creates()]).toEqual([1, 1]);
	});

	it("a keyed job's reference is its key; a Reference set to something else is refused on its item, with nothing sent", async () => {
		const made = await api.run({ parameters: create(), items: rows(['ref-1']) });
		expect(api.fake.prints.jobs.get(String(made.items[0].json.id))?.reference).toBe('ref-1');
		api.fake.resetRecording();
		const { items } = await api.run({ parameters: create({ options: { sentKey: '={{ $json.key }}', reference: 'March invoices' } }), items: rows(['ref-2']), continueOnFail: true });
		expect(items[0].json.error).toBe('With Skip Items Already Sent on, Reference must be empty or the same as the key');
		expect(String(items[0].json.description)).toMatch(/Nothing was sent for this item\. Leave Reference empty, set it to the key, or put your text in Metadata\./);
		expect(api.apiCalls()).toHaveLength(0);
		const same = await api.run({ parameters: create({ options: { sentKey: '={{ $json.key }}', reference: '={{ $json.key }}' } }), items: rows(['ref-3']) });
		expect(api.fake.prints.jobs.get(String(same.items[0].json.id))?.reference).toBe('ref-3');
		// A keyed mail run's jobs share one reference, so a rerun reads only their history: another is refused too.
		const run = await api.run({ parameters: create({ recipientsFrom: 'allItems', options: { sentKey: 'run-1', reference: 'March run' } }), items: rows(['a', 'b']), continueOnFail: true });
		expect(run.items.map((item) => item.json.error)).toEqual(Array(2).fill('With Skip Items Already Sent on, Reference must be empty or "n8n mail run"'));
		const named = await api.run({ parameters: create({ recipientsFrom: 'allItems', options: { sentKey: 'run-1' } }), items: rows(['a', 'b']) });
		expect(api.fake.prints.jobs.get(String(named.items[0].json.id))?.reference).toBe('n8n mail run');
	});

	it("Update may not change a keyed job's reference (a new process finds the job by it); other fields it may", async () => {
		const made = await api.run({ parameters: create(), items: rows(['upd-1']) });
		const id = String(made.items[0].json.id);
		const update = (updateFields: Record<string, string | boolean>) => ({ resource: 'printJob', operation: 'update', printJob: { __rl: true, mode: 'id', value: id }, updateFields });
		const refused = await api.run({ parameters: update({ reference: 'Renamed' }), items: [{ json: {} }], continueOnFail: true });
		expect(refused.items[0].json.error).toBe(`The reference of print job ${id} is its sent key, and cannot be changed`);
		expect(api.fake.prints.jobs.get(id)?.reference).toBe('upd-1');
		const changed = await api.run({ parameters: update({ reference: 'upd-1', confirmationEmail: false }), items: [{ json: {} }] });
		expect(changed.items[0].json.error).toBeUndefined();
	});
});
