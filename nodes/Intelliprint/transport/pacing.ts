import { sleep } from 'n8n-workflow';

import type { FaultBudget } from './waits';

export interface RateLimit {
	requests: number;
	windowMs: number;
}

/** The smallest share a pacer backs off to, as a part of the limit: room for eight processes on one key. */
const SMALLEST_SHARE = 1 / 8;
/** How long after a 429 (as a part of the window) a pacer starts probing for room again. */
const QUIET_SPELL = 1 / 6;
/**
 * The part of the window's quickest exchange that is not the API's work after counting: building
 * and sending the request in this process, the network there and back. On a busy host this
 * process is also late by its event loop's lag, measured as it goes (see hostLagMs).
 */
const ALLOWANCE_MS = 100;

interface Slot {
	sentAt: number;
	/** When the API had counted the request at the latest, as far as the pacer dares to say (Infinity while in flight). */
	at: number;
	/** When it was answered: surely counted by then (Infinity while in flight). */
	answeredAt: number;
	probe: boolean;
}

/**
 * Keeps one credential inside the API's rate limit (100 requests a minute by default) in this n8n
 * process, so that a run over many items waits its turn instead of collecting 429s.
 *
 * A sliding log of this process's requests. The API counts a request when it arrives: after it was
 * sent, before it is answered, and the pacer cannot see when. The answer is a moment surely late
 * enough, but dating slots there costs one API latency per window (a second a window for creates
 * answered in a second: 10% of a 10 s window). So a slot is dated at its answer less the part of
 * every answer time of the window that came after counting: the quickest exchange of the window
 * (its way there, the API's work, the way back) less ALLOWANCE_MS for the ways there and back.
 * That holds while the API's work after counting is much the same for every request and none
 * reaches it more than ALLOWANCE_MS quicker than the quickest did. A cold process's first window
 * may break it (its requests are slow to leave while it builds them all at once): a 429 then is
 * waited out and the request sent again like any other (the API did nothing with it), and the
 * quicker exchanges of the next window set the estimate right.
 *
 * Other processes may spend the same budget (n8n workers in queue mode, another app using the
 * key), and nothing here can see them. A 429 is the API saying so: the pacer then allows itself
 * only the requests it had got through in the window (back off at once). After a quiet spell it
 * probes: one request beyond its share, and every probe the API accepts raises the share by one
 * and doubles the next probe (1, 2, 4… requests). Processes sharing a key so settle on shares that
 * add up to the limit, drawing a 429 now and then, and one left alone (the others done) takes the
 * whole limit back within seconds instead of windows.
 */
export class Pacer {
	/** This process's requests until their answers are a window old. */
	private slots: Slot[] = [];
	private blockedUntil = 0;
	/** The share set at the last 429 (Infinity: none yet, the whole limit), when that was, and the next probe's size. */
	private baseShare = Number.POSITIVE_INFINITY;
	private refusedAt = Number.NEGATIVE_INFINITY;
	private probe = 1;
	private readonly sleepers = new Set<() => void>();
	/** How late this process's timers fired (when, by how much): its event loop's lag, the host's busyness. */
	private lags: Array<[number, number]> = [];

	/** How many requests this process allows itself per window now. */
	share(limit: RateLimit, now = Date.now()): number {
		if (!Number.isFinite(this.baseShare)) return limit.requests;
		const quiet = now - this.refusedAt >= limit.windowMs * QUIET_SPELL;
		return Math.min(limit.requests, this.baseShare + (quiet ? this.probe : 0));
	}

	/**
	 * Resolves when a request may be sent without going over this process's share, and books its
	 * slot. Call the returned function with the answer's status when it arrives (or with nothing
	 * when the attempt failed on the wire).
	 */
	async waitForSlot(limit: RateLimit, budget?: FaultBudget, rateLimited = false): Promise<((status?: number) => void) | undefined> {
		for (;;) {
			const now = Date.now();
			this.slots = this.slots.filter((slot) => slot.answeredAt > now - limit.windowMs);
			const live = this.slots.filter((slot) => slot.at > now - limit.windowMs);
			let waitMs = this.blockedUntil - now;
			const share = this.share(limit, now);
			const probe = live.length >= this.baseShare;
			if (waitMs <= 0 && live.length < share && (!probe || this.probeTells(limit, live, now))) {
				// A request still in flight (a long upload, say) keeps its slot however long it takes.
				const slot: Slot = { sentAt: now, at: Infinity, answeredAt: Infinity, probe };
				this.slots.push(slot);
				return (status) => this.answered(limit, slot, status);
			}
			if (waitMs <= 0) {
				const oldest = Math.min(...live.map((slot) => slot.at));
				// All slots in flight: look again shortly, when one of them has been answered.
				waitMs = Number.isFinite(oldest) ? Math.max(oldest + limit.windowMs - now + 1, 1) : 50;
				const probingFrom = this.refusedAt + limit.windowMs * QUIET_SPELL;
				if (probingFrom > now) waitMs = Math.min(waitMs, probingFrom - now + 1);
			}
			// Held by a 429 (anyone's), or after the caller's own 429, the wait is waiting out rate
			// limiting: it counts against the caller's budget, and one it cannot afford ends now.
			const charged = budget && (rateLimited || this.blockedUntil > now);
			if (charged && !budget.allows(waitMs)) return undefined;
			await this.pause(waitMs, limit);
			if (charged) budget.spend(Date.now() - now);
		}
	}

	/** When nobody in this process may send again after a 429. */
	get heldUntil(): number {
		return this.blockedUntil;
	}

	private answered(limit: RateLimit, slot: Slot, status: number | undefined): void {
		if (status === 429) {
			// The API does nothing with a rate limited request: it used none of the budget.
			this.slots = this.slots.filter((booked) => booked !== slot);
			return;
		}
		const now = Date.now();
		slot.answeredAt = now;
		// A request that failed on the wire may have been counted at any time until now.
		slot.at = status === undefined ? now : now - this.surelyAfterCounting(now);
		if (slot.probe && status !== undefined) this.probeAccepted(limit);
	}

	/** How much of every answer time of the window came after the API counted the request, at the least. */
	private surelyAfterCounting(now: number): number {
		const answerTimes = this.slots.filter((slot) => slot.answeredAt <= now).map((slot) => slot.answeredAt - slot.sentAt);
		return Math.max(0, Math.min(...answerTimes) - ALLOWANCE_MS - this.hostLagMs());
	}

	/**
	 * The longest lag of this process's event loop in the last window. A busy host (CPU saturated
	 * beside n8n) makes every exchange slower on this side, the quickest one too, and that time
	 * came before the API counted; without it the pacer dated slots too early and drew 429s.
	 */
	private hostLagMs(): number {
		let longest = 0;
		for (const [, lag] of this.lags) longest = Math.max(longest, lag);
		return longest;
	}

	/**
	 * Whether a probe sent now can only be accepted if others left room. A slot the pacer still
	 * counts may already be let go of by the API, and a probe accepted into that room proves
	 * nothing. Processes that took such room for growth all grew at once and drew a second wave of
	 * 429s (seen in queue mode with a busy API). A slot is sure to be still counted while its
	 * sending is less than a window before the probe's arrival, and the probe arrives within the
	 * longest answer time seen in the window. (Slots the pacer no longer counts can only make the
	 * API refuse the probe, never accept it.)
	 */
	private probeTells(limit: RateLimit, live: Slot[], now: number): boolean {
		const answerTimes = this.slots.map((slot) => Math.min(slot.answeredAt, now) - slot.sentAt);
		const arrivesBy = now + Math.max(0, ...answerTimes);
		return live.every((slot) => slot.sentAt > arrivesBy - limit.windowMs);
	}

	/** Waits, or less when a probe was accepted: the share just grew. How late the timer fires is the host's lag. */
	private async pause(ms: number, limit: RateLimit): Promise<void> {
		let wake = () => {};
		const woken = new Promise<void>((resolve) => (wake = resolve));
		this.sleepers.add(wake);
		const started = Date.now();
		const timedOut = await Promise.race([sleep(ms).then(() => true), woken.then(() => false)]);
		this.sleepers.delete(wake);
		if (!timedOut) return;
		const now = Date.now();
		const lag = Math.max(0, now - started - ms);
		// One entry a second (its longest lag): a hundred items pausing make thousands of samples a window.
		const last = this.lags[this.lags.length - 1];
		if (last && now - last[0] < 1000) last[1] = Math.max(last[1], lag);
		else this.lags.push([now, lag]);
		this.lags = this.lags.filter(([at]) => at > now - limit.windowMs);
	}

	/**
	 * The API said 429: nobody in this process sends with the key again before `until`, and the
	 * share drops to what got through in the window (other processes are spending the rest).
	 */
	refused(limit: RateLimit, until: number, now = Date.now()): void {
		this.blockedUntil = Math.max(this.blockedUntil, until);
		const live = this.slots.filter((slot) => slot.answeredAt > now - limit.windowMs).length;
		const smallest = Math.max(1, Math.floor(limit.requests * SMALLEST_SHARE));
		this.baseShare = Math.max(smallest, Math.min(this.share(limit, now), live));
		this.refusedAt = now;
		this.probe = 1;
	}

	/** The API took a request beyond the share: there was room, so the share grows and the next probe doubles. */
	private probeAccepted(limit: RateLimit): void {
		this.baseShare += 1;
		this.probe = Math.min(this.probe * 2, limit.requests);
		if (this.baseShare >= limit.requests) this.baseShare = Number.POSITIVE_INFINITY;
		for (const wake of this.sleepers) wake();
	}
}

/** One pacer per credential (base URL and key), shared by every execution in this n8n process. */
const pacers = new Map<string, Pacer>();

export function pacerFor(key: string): Pacer {
	let pacer = pacers.get(key);
	if (!pacer) pacers.set(key, (pacer = new Pacer()));
	return pacer;
}
