import type { INodeExecutionData } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { FakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';
import { CLAIM_METADATA, MORE_METADATA, UNDER_METADATA, USED_METADATA } from '../../../../nodes/Intelliprint/spending';

/**
 * Allowances (docs/spending-limits.md, rule 7; spending/spendingRoom.ts): a run's claim asks room for the items after it,
 * and what it is granted lets them be made confirmed on create, one request a letter, never past the limit.
 */
const LETTER = 1.02;
const rows = (count: number, body: (index: number) => string = () => '<p>Hello</p>') =>
	Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP', body: body(i) } }));
const live = { resource: 'printJob', operation: 'create', source: 'content', content: '={{ $json.body }}', recipientsFrom: 'eachItem', variables: 'none', testmode: false, confirmed: true, options: {} };
const spent = (fake: FakeIntelliprint) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;
const errors = (items: INodeExecutionData[]) => items.filter((item) => item.json.error).map((item) => String(item.json.error));
const room = (fake: FakeIntelliprint, pounds: number) => Math.round((spent(fake) + pounds) * 100) / 100;

describe('allowances under the daily limit', () => {
	const api = useFakeApi({ rateLimit: false });

	it('100 letters far from the limit: one claim, 99 letters confirmed on create, 103 requests in all', async () => {
		const before = api.apiCalls().length;
		const { items } = await api.run({ parameters: live, items: rows(100), credentials: { dailySpendingLimit: room(api.fake, 1000) } });
		expect(items.every((item) => item.json.confirmed === true), errors(items)[0]).toBe(true);
		const calls = api.apiCalls().slice(before);
		expect(calls).toHaveLength(103);
		expect(calls.filter((call) => call.method === 'GET')).toHaveLength(2);
		const made = api.fake.createdPrintJobs().slice(-100);
		const claim = made.find((job) => job.metadata[MORE_METADATA])!;
		expect(claim.metadata[MORE_METADATA]).toBe('99');
		const under = made.filter((job) => job.metadata[UNDER_METADATA] === claim.id);
		expect(under).toHaveLength(99);
		// The claim says what its jobs spent, so a check counts them until a list shows them.
		expect(Number(claim.metadata[USED_METADATA])).toBe(under.reduce((sum, job) => sum + job.cost.after_tax, 0));
		expect(under.every((job) => job.metadata[CLAIM_METADATA] === claim.metadata[CLAIM_METADATA])).toBe(true);
	});

	it('up to the limit: what fits and no more, within a letter, no draft left, and the rest refused with no request', async () => {
		const limit = room(api.fake, 50);
		const before = api.apiCalls().length;
		const drafts = () => [...api.fake.prints.jobs.values()].filter((job) => !job.confirmed).length;
		const draftsBefore = drafts();
		const { items } = await api.run({ parameters: live, items: rows(100), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(spent(api.fake)).toBeLessThanOrEqual(limit);
		expect(spent(api.fake)).toBeGreaterThan(limit - LETTER);
		expect(items.filter((item) => item.json.confirmed === true)).toHaveLength(49);
		expect(errors(items).every((text) => /today's spending cannot take another letter/.test(text))).toBe(true);
		expect(api.apiCalls().length - before).toBe(49 + 1 + 2);
		expect(drafts()).toBe(draftsBefore);
	});

	it("another process's closed allowance whose letters no list shows yet is counted by what its claim says it spent", async () => {
		const [other] = api.fake.prints.seed(1, { confirmed: true, metadata: { [CLAIM_METADATA]: 'another-process', [MORE_METADATA]: '40', [USED_METADATA]: String(30 * LETTER * 1e8) } });
		other.confirmed_at = other.created;
		const limit = room(api.fake, 36 * LETTER + 0.5);
		const { items } = await api.run({ parameters: live, items: rows(20), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		// £30.60 its letters spent, not yet listed: of the 36 letters' room, this run confirms 36 - 30 = 6.
		expect(items.filter((item) => item.json.confirmed === true)).toHaveLength(6);
		other.metadata[USED_METADATA] = '0';
	});

	it('a letter dearer than what is left of the allowance is cancelled at once, refunded, and named on its item', async () => {
		const long = Array.from({ length: 400 }, (_, i) => `<p>Paragraph ${i + 1} of a long letter.</p>`).join('');
		const inputs = rows(4, (i) => (i === 3 ? long : '<p>Hello</p>'));
		const limit = room(api.fake, 4 * LETTER + 0.1);
		const { items } = await api.run({ parameters: { ...live, options: { parallelItems: 4 } }, items: inputs, continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(spent(api.fake)).toBeLessThanOrEqual(limit);
		expect(items.slice(0, 3).every((item) => item.json.confirmed === true)).toBe(true);
		expect(errors(items)[0]).toMatch(/was made confirmed, but it cost £\d+\.\d\d, more than was left .* it was cancelled at once, and its letters refunded/);
	});

	it("a letter whose answer gives no price is cancelled, the rest of the allowance counts as spent, and the run goes on", async () => {
		const store = api.fake.prints as unknown as { reprice: (job: { confirmed: boolean; metadata: Record<string, string>; cost: object }) => void };
		const real = store.reprice.bind(store);
		let once = true;
		store.reprice = (job) => {
			real(job);
			if (once && job.confirmed && job.metadata[UNDER_METADATA]) [once, job.cost] = [false, { ...job.cost, after_tax: 'unknown' }];
		};
		try {
			const { items } = await api.run({ parameters: { ...live, options: { parallelItems: 3 } }, items: rows(6), continueOnFail: true, credentials: { dailySpendingLimit: room(api.fake, 100) } });
			expect(errors(items), errors(items).join(" / ")).toHaveLength(1);
			expect(errors(items)[0]).toMatch(/was made confirmed, but Intelliprint's answer did not give its price: it was cancelled at once/);
			expect(items.filter((item) => item.json.confirmed === true)).toHaveLength(5);
		} finally {
			store.reprice = real;
		}
	});
});
