import { sleep } from 'n8n-workflow';

import { EventLoopLag } from './eventLoopLag';
import type { FaultBudget } from './waits';

export interface RateLimit {
	requests: number;
	windowMs: number;
}

/**
 * The least time `requests` requests can take under a sliding-window limit, as the pacer keeps it: the first
 * window's worth at once, then each further window's worth once the window has moved on (the API's own 429s say the
 * same). What the run hint states (runReport.ts); the pacer never beats it.
 */
export function shortestPacedMs(requests: number, limit: RateLimit): number {
	return requests <= 0 ? 0 : Math.floor((requests - 1) / limit.requests) * limit.windowMs;
}

/** The smallest share a pacer backs off to, as a part of the limit: room for eight processes on one key. */
const SMALLEST_SHARE = 1 / 8;
/** How long after a 429 (as a part of the window; the API contract's rate-limit, contract.ts) a pacer starts probing for room again. */
const QUIET_SPELL = 1 / 6;
/**
 * The part of the window's quickest exchange that is not the API's work after counting: building
 * and sending the request in this process, the network there and back. How late this process's
 * event loop was during an exchange is taken off it as well (see Slot.lagMs).
 */
const ALLOWANCE_MS = 100;

interface Slot {
	sentAt: number;
	/** When the API had counted the request at the latest, as far as the pacer dares to say (Infinity while in flight). */
	at: number;
	/** When it was answered: surely counted by then (Infinity while in flight). */
	answeredAt: number;
	/**
	 * The longest event-loop lag seen while it was in flight: on a busy host the answer is seen
	 * that much late (or the request left that much late), time that is not the API's work.
	 */
	lagMs: number;
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
 * (its way there, the API's work, the way back) less ALLOWANCE_MS for the ways there and back,
 * each exchange first cleared of this process's own lateness while it was in flight (its event
 * loop's lag, sampled as it goes: a busy host's share). That holds while the API's work after
 * counting is much the same for every request and none reaches it more than ALLOWANCE_MS quicker
 * than the quickest did. When it breaks, a 429 is waited out and the request sent again like any
 * other (the API did nothing with it).
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
	/** Callers waiting for a slot, in the order they came. */
	private readonly line: object[] = [];
	/** How late this process's event loop has been, sampled while requests are in flight. */
	private readonly lag = new EventLoopLag();

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
		const place = {};
		this.line.push(place);
		let booked = false;
		try {
			for (;;) {
				const now = Date.now();
				this.slots = this.slots.filter((slot) => slot.answeredAt > now - limit.windowMs);
				const live = this.slots.filter((slot) => slot.at > now - limit.windowMs);
				let waitMs = this.blockedUntil - now;
				const free = this.share(limit, now) - live.length;
				const ahead = this.line.indexOf(place);
				const probe = live.length >= this.baseShare;
				if (waitMs <= 0 && ahead < free && (!probe || this.probeTells(limit, live, now))) {
					// A request still in flight (a long upload, say) keeps its slot however long it takes.
					const slot: Slot = { sentAt: now, at: Infinity, answeredAt: Infinity, lagMs: 0, probe };
					this.slots.push(slot);
					booked = true;
					void this.lag.watch(() => this.slots.some((booked) => booked.answeredAt === Infinity), limit.windowMs);
					return (status) => this.answered(limit, slot, status);
				}
				if (waitMs <= 0) waitMs = this.turnComesIn(limit, live, Math.max(0, ahead - free), now);
				// Held by a 429 (anyone's), or after the caller's own 429, the wait is waiting out rate
				// limiting: it counts against the caller's budget, and one it cannot afford ends now.
				const charged = budget && (rateLimited || this.blockedUntil > now);
				if (charged && !budget.allows(waitMs)) return undefined;
				await this.pause(waitMs);
				if (charged) budget.spend(Date.now() - now);
			}
		} finally {
			this.line.splice(this.line.indexOf(place), 1);
			// Everyone behind moved up without a slot being taken: their turns come sooner.
			if (!booked) this.wakeAll();
		}
	}

	/**
	 * How long until the caller's turn: when the slot `index` (from the oldest) leaves the window.
	 * Callers wait in line, each for its own slot, so that a slot leaving wakes one caller, not all
	 * hundred items of a run (on a busy host their waking was what made requests leave late). A
	 * slot in flight leaves a window after it was sent at the soonest (its answer dates it later);
	 * after that it is looked at again shortly, until the answer comes.
	 */
	private turnComesIn(limit: RateLimit, live: Slot[], index: number, now: number): number {
		const leaving = live
			.map((slot) => ({ at: Number.isFinite(slot.at) ? slot.at : slot.sentAt, dated: Number.isFinite(slot.at) }))
			.sort((a, b) => a.at - b.at);
		const mine = leaving[index];
		// Beyond the slots there are: the turn needs slots not yet taken, which leave a window from now at the soonest.
		let waitMs = mine ? Math.max(mine.at + limit.windowMs - now + 1, mine.dated ? 1 : 50) : limit.windowMs;
		const probingFrom = this.refusedAt + limit.windowMs * QUIET_SPELL;
		if (probingFrom > now) waitMs = Math.min(waitMs, probingFrom - now + 1);
		return waitMs;
	}

	/** When nobody in this process may send again after a 429. */
	get heldUntil(): number {
		return this.blockedUntil;
	}

	private answered(limit: RateLimit, slot: Slot, status: number | undefined): void {
		if (status === 429) {
			// The API does nothing with a rate limited request: it used none of the budget.
			this.slots = this.slots.filter((booked) => booked !== slot);
			this.wakeAll();
			return;
		}
		const now = Date.now();
		slot.answeredAt = now;
		slot.lagMs = this.lag.longestSince(slot.sentAt);
		// A request that failed on the wire may have been counted at any time until now.
		slot.at = status === undefined ? now : now - this.surelyAfterCounting(now);
		if (slot.probe && status !== undefined) this.probeAccepted(limit);
	}

	/**
	 * How much of every answer time of the window came after the API counted the request, at the
	 * least: the quickest exchange, less what this process's own lateness added to it.
	 */
	private surelyAfterCounting(now: number): number {
		let quickest = Number.POSITIVE_INFINITY;
		for (const slot of this.slots) {
			if (slot.answeredAt <= now) quickest = Math.min(quickest, slot.answeredAt - slot.sentAt - slot.lagMs);
		}
		// A crowd of requests built at once leaves over a spell the loop's lag does not show whole; the
		// window's longest lag is kept in hand for it.
		return Math.max(0, quickest - ALLOWANCE_MS - this.lag.longestSince());
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

	/** Waits, or less when a probe was accepted: the share just grew. */
	private async pause(ms: number): Promise<void> {
		let wake = () => {};
		const woken = new Promise<void>((resolve) => (wake = resolve));
		this.sleepers.add(wake);
		await Promise.race([sleep(ms), woken]);
		this.sleepers.delete(wake);
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
		this.wakeAll();
	}

	private wakeAll(): void {
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
