import { sleep } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { EventLoopLag } from '../../../../nodes/Intelliprint/transport/eventLoopLag';

describe('EventLoopLag', () => {
	it('sees a stalled event loop while watching, and stops when there is nothing to time', async () => {
		const lag = new EventLoopLag();
		let busy = true;
		const watching = lag.watch(() => busy, 60_000);
		await sleep(60);
		const before = Date.now();
		const stalled = Date.now();
		while (Date.now() - stalled < 200) {
			// spin: the loop is blocked, as on a host with its CPU saturated
		}
		await sleep(60);
		expect(lag.longestSince(before)).toBeGreaterThanOrEqual(150);
		expect(lag.longestSince(Date.now() + 1000)).toBe(0);
		busy = false;
		await watching;
	});
});
