import type { INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { FakeIntelliprint } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';
import { CLAIM_METADATA } from '../../../../nodes/Intelliprint/spending';

/**
 * Claims (spending/dayRead.ts) and the one rule (spending/confirmLine.ts verdictOf): a draft made to be confirmed under the
 * daily limit is a claim on the day; a claim is confirmed when it fits with every claim made before it that may still be
 * confirmed, refused when it does not fit even alone, and otherwise waits for those older claims to be decided.
 */
const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ json: { name: `Customer ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));
const live = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: false, confirmed: true, options: { parallelItems: 1 } };
const errors = (items: INodeExecutionData[]) => items.filter((item) => item.json.error).map((item) => String(item.json.error));
const spent = (fake: FakeIntelliprint) => [...fake.prints.jobs.values()].filter((job) => job.confirmed && !job.testmode).reduce((sum, job) => sum + job.cost.after_tax, 0) / 1e8;

/** A draft of £1.02 another process made five seconds ago to confirm under the limit. */
function otherClaim(fake: FakeIntelliprint) {
	const [job] = fake.prints.seed(1, { metadata: { [CLAIM_METADATA]: 'another-process' } });
	job.created -= 5;
	return job;
}

describe('claims of other processes', () => {
	const api = useFakeApi({ rateLimit: false });

	it("an older claim handed back while the check waits: this item goes, with room for one letter", async () => {
		const limit = Math.round((spent(api.fake) + 1.5) * 100) / 100;
		const other = otherClaim(api.fake);
		void sleep(500).then(() => (other.metadata[CLAIM_METADATA] = 'released'));
		const started = Date.now();
		const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(items[0].json.confirmed, errors(items)[0]).toBe(true);
		expect(Date.now() - started).toBeGreaterThanOrEqual(500);
		expect(spent(api.fake)).toBeLessThanOrEqual(limit);
	});

	it('an older claim confirmed while the check waits: this item is refused, and its own claim handed back', async () => {
		const limit = Math.round((spent(api.fake) + 1.5) * 100) / 100;
		const other = otherClaim(api.fake);
		void sleep(500).then(() => {
			other.confirmed = true;
			other.confirmed_at = Math.floor(Date.now() / 1000);
			other.letters.forEach((letter) => (letter.status = 'waiting_to_print'));
		});
		const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(errors(items)[0]).toMatch(/it would take today's spending over the daily limit/);
		expect(spent(api.fake)).toBeLessThanOrEqual(limit);
		const held = api.fake.createdPrintJobs().at(-1)!;
		expect(held.confirmed).toBe(false);
		expect(held.metadata[CLAIM_METADATA]).toBe('released');
	});

	it('a newer claim of another process does not hold this older one back: it goes, and the newer one waits for it', async () => {
		const limit = Math.round((spent(api.fake) + 1.5) * 100) / 100;
		const [other] = api.fake.prints.seed(1, { metadata: { [CLAIM_METADATA]: 'another-process' } });
		other.created += 60;
		const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(items[0].json.confirmed, errors(items)[0]).toBe(true);
		// Still undecided: its own process, checking now, finds no room left for it and refuses it.
		expect(other.confirmed).toBe(false);
		expect(other.metadata[CLAIM_METADATA]).toBe('another-process');
		expect(spent(api.fake)).toBeLessThanOrEqual(limit);
		other.metadata[CLAIM_METADATA] = 'released';
	});

	describe('claims made in the same second (the API gives `created` in whole seconds)', () => {
		/** Every job the fake makes from now on is made in the same second as `other`. */
		const sameSecond = (token: string) => {
			const [other] = api.fake.prints.seed(1, { metadata: { [CLAIM_METADATA]: token } });
			const clock = api.fake.prints as unknown as { now: () => number };
			const real = clock.now;
			clock.now = () => other.created;
			return { other, restore: () => (clock.now = real) };
		};

		it('one placed after this one is counted (it may not have seen this one): this item waits until it is decided', async () => {
			const limit = Math.round((spent(api.fake) + 1.5) * 100) / 100;
			// '~' sorts after every token a process makes: the other claim is placed after this one.
			const { other, restore } = sameSecond('~');
			let mineWhenReleased: boolean | undefined;
			void sleep(500).then(() => {
				mineWhenReleased = api.fake.createdPrintJobs().at(-1)?.confirmed;
				other.metadata[CLAIM_METADATA] = 'released';
			});
			const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } }).finally(restore);
			expect(items[0].json.confirmed, errors(items)[0]).toBe(true);
			expect(mineWhenReleased).toBe(false);
			expect(spent(api.fake)).toBeLessThanOrEqual(limit);
		});

		it("one placed before this one that leaves no room: this item gives way, its draft deleted, and the other is untouched", async () => {
			const limit = Math.round((spent(api.fake) + 1.5) * 100) / 100;
			// '0' sorts before every token a process makes: the other claim is placed before this one.
			const { other, restore } = sameSecond('0');
			const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } }).finally(restore);
			expect(errors(items)[0]).toMatch(/^Nothing was sent for this item: a draft another n8n process made in the same second goes first, and both do not fit under the daily limit of £[\d.]+$/);
			expect(String(items[0].json.description)).toContain('Its draft was deleted. This run has no Skip Items Already Sent key');
			expect(api.fake.prints.jobs.has(api.fake.createdPrintJobs().at(-1)!.id)).toBe(false);
			expect(other.confirmed).toBe(false);
			expect(other.metadata[CLAIM_METADATA]).toBe('0');
			other.metadata[CLAIM_METADATA] = 'released';
		});
	});

	it('a claim of another process that is never decided: after 30 s without progress nothing is confirmed, and the item names it', async () => {
		const limit = Math.round((spent(api.fake) + 1.5) * 100) / 100;
		for (const job of api.fake.prints.jobs.values()) if (!job.confirmed && job.metadata[CLAIM_METADATA]) job.metadata[CLAIM_METADATA] = 'released';
		const [stuck] = api.fake.prints.seed(1, { metadata: { [CLAIM_METADATA]: 'a-process-that-stopped' } });
		stuck.created -= 60;
		const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(errors(items)[0]).toMatch(/today's spending could not be read$/);
		expect(String(items[0].json.description)).toContain(`drafts made earlier to be confirmed under this limit (${stuck.id}) were neither confirmed nor handed back within 30 seconds: the n8n process that made them may have stopped`);
		expect(spent(api.fake)).toBeLessThanOrEqual(limit);
		stuck.metadata[CLAIM_METADATA] = 'released';
	});

	it('a claim handed back or past the quarter hour does not count', async () => {
		const limit = Math.round((spent(api.fake) + 1.5) * 100) / 100;
		for (const job of api.fake.prints.jobs.values()) if (!job.confirmed && job.metadata[CLAIM_METADATA]) job.metadata[CLAIM_METADATA] = 'released';
		const [old] = api.fake.prints.seed(1, { metadata: { [CLAIM_METADATA]: 'another-process' } });
		old.created -= 16 * 60;
		const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		expect(items[0].json.confirmed, errors(items)[0]).toBe(true);
	});

	it('a claim that cannot be handed back is said so on its item: others count it for up to 15 minutes', async () => {
		const limit = Math.round((spent(api.fake) + 0.5) * 100) / 100;
		api.fake.faults.push({ method: 'POST', path: /\/prints\/print_\w+$/, status: 500, times: 5 });
		const { items } = await api.run({ parameters: live, items: rows(1), continueOnFail: true, credentials: { dailySpendingLimit: limit } });
		api.fake.faults.length = 0;
		expect(errors(items)[0]).toMatch(/it would take today's spending over the daily limit/);
		expect(String(items[0].json.description)).toMatch(/Its claim on the day could not be handed back \(.+\): other n8n processes count it for up to 15 minutes\./);
	});
});
