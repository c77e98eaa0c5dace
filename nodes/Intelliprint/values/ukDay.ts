const LONDON = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

function londonClock(at: number): { date: number; offset: number } {
	const parts = Object.fromEntries(LONDON.formatToParts(at).map((part) => [part.type, Number(part.value)]));
	const date = Date.UTC(parts.year, parts.month - 1, parts.day);
	// London is UTC or UTC+1: its wall clock read as UTC, less the instant, to the minute.
	return { date, offset: Math.round((date + (parts.hour * 60 + parts.minute) * 60_000 - at) / 60_000) * 60_000 };
}

/**
 * The start (Unix seconds) of the UK calendar day holding `now`: what "today" means for a daily limit. The offset is
 * the one in force at midnight, which on the days the clocks change is not the one in force now.
 */
export function ukMidnight(now = Date.now()): number {
	const { date, offset } = londonClock(now);
	return (date - londonClock(date - offset).offset) / 1000;
}
