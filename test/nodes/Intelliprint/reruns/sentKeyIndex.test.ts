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

/** `count` test jobs of the past `days`, newest first, carrying keys `<prefix>1` (newest) … `<prefix><count>`. */
function history(fake: FakeIntelliprint, prefix: string, count: number, days = 20) {
	const jobs = fake.prints.seed(count, { testmode: true });
	jobs.forEach((job, i) => {
		job.created = now() - 60 - Math.floor((i / count) * days * 86_400);
		job.metadata = { n8n_sent_key: `${prefix}${i + 1}` };
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
});
