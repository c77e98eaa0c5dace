import { describe, expect, it } from 'vitest';

import { ukMidnight } from '../../../../nodes/Intelliprint/values';

describe('today, as a daily spending limit counts it (UK time)', () => {
	it.each([
		['winter: UK midnight is UTC midnight', '2026-01-15T10:30:00Z', '2026-01-15T00:00:00Z'],
		['summer: UK midnight is 23:00 UTC the day before', '2026-07-15T10:30:00Z', '2026-07-14T23:00:00Z'],
		['00:30 in London in summer is already the next UK day', '2026-07-14T23:30:00Z', '2026-07-14T23:00:00Z'],
		['the morning the clocks go forward', '2026-03-29T09:00:00Z', '2026-03-29T00:00:00Z'],
		['the morning the clocks go back', '2026-10-25T09:00:00Z', '2026-10-24T23:00:00Z'],
	])('%s', (_, now, midnight) => {
		expect(new Date(ukMidnight(Date.parse(now)) * 1000).toISOString()).toBe(new Date(midnight).toISOString());
	});
});
