import { sleep } from 'n8n-workflow';

/** How often the event loop's lag is sampled while watched. */
const TICK_MS = 25;
/** Samples are kept as the longest of each such span. */
const BUCKET_MS = 100;

/**
 * How late this process's event loop has been lately: the host's busyness as this process feels
 * it. A busy host (CPU saturated beside n8n) makes exchanges slower on this side (a burst of
 * requests leaves late, answers are seen late), time that is not the API's work; the pacer takes
 * it off what it learns from answer times. Sampled only while `busy()` says there is something to
 * time, kept for `keepMs`.
 */
export class EventLoopLag {
	/** (when, longest lag in that span) */
	private samples: Array<[number, number]> = [];
	private watching = false;

	/** Samples every TICK_MS until `busy()` is false. A second call while watching does nothing. */
	async watch(busy: () => boolean, keepMs: number): Promise<void> {
		if (this.watching) return;
		this.watching = true;
		while (busy()) {
			const started = Date.now();
			await sleep(TICK_MS);
			this.note(Date.now() - started - TICK_MS, keepMs);
		}
		this.watching = false;
	}

	/** The longest lag since `since` (all kept samples when omitted). */
	longestSince(since = Number.NEGATIVE_INFINITY): number {
		let longest = 0;
		for (const [at, lag] of this.samples) if (at >= since - BUCKET_MS) longest = Math.max(longest, lag);
		return longest;
	}

	private note(lagMs: number, keepMs: number): void {
		const now = Date.now();
		const last = this.samples[this.samples.length - 1];
		if (last && now - last[0] < BUCKET_MS) last[1] = Math.max(last[1], lagMs);
		else this.samples.push([now, Math.max(0, lagMs)]);
		if (this.samples[0][0] <= now - keepMs) this.samples = this.samples.filter(([at]) => at > now - keepMs);
	}
}
