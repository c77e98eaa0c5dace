import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { inTurns } from '../../../../nodes/Intelliprint/values';

describe('inTurns: tasks a few at a time, results in order, stopped by a failure', () => {
	it('gives the results in the order of the tasks, whatever order they end in, never more than `parallel` at once', async () => {
		let running = 0;
		let most = 0;
		const results = await inTurns(7, 3, async (index) => {
			most = Math.max(most, ++running);
			await sleep((7 - index) * 5);
			running--;
			return index * 10;
		});
		expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
		expect(most).toBe(3);
	});

	it('after a failure starts no more, lets those running finish, and throws the failure of the lowest number', async () => {
		const started: number[] = [];
		const finished: number[] = [];
		const run = inTurns(10, 2, async (index) => {
			started.push(index);
			await sleep([5, 15, 30][index] ?? 5);
			if (index === 1 || index === 2) throw new Error(`task ${index}`);
			finished.push(index);
			return index;
		});
		await expect(run).rejects.toThrow('task 1');
		// 0 and 1 start; 0 ends at 5 ms and 2 starts; 1 fails at 15 ms while 2 runs (until 30 ms): nothing after 2 starts.
		expect(started).toEqual([0, 1, 2]);
		expect(finished).toEqual([0]);
	});

	it('one at a time is one after another', async () => {
		const order: string[] = [];
		await inTurns(3, 1, async (index) => {
			order.push(`start ${index}`);
			await sleep(1);
			order.push(`end ${index}`);
		});
		expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
	});
});
