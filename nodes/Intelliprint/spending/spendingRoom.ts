import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * What a node run knows of the room left under the daily limit, to spend no request on items that cannot go: a draft is
 * made only while the run's drafts in line fit its share of what is left (each process drafting near the limit takes
 * its share); once the day is full or unreadable, the rest are refused with no draft and no read.
 *
 * A Room is the day as a check saw it (8 implied decimals): spent with the claims that may still be confirmed, the
 * limit, the cheapest letter priced, and how many processes (this one included) had claims.
 */
export type Room = { total: number; limit: number; letter: number; share: number };
/** Why a run makes no more drafts: the day full (for its limit), or why it could not be read. */
export type Closed = { full?: Room; unread?: string };

/**
 * A run's drafts in line (`waiting`, of them `drafting` still being made), its last check, and whether its day closed.
 * `moved` settles whenever a draft lands or is decided: whoever waits on the room looks again.
 */
type RunRoom = Closed & { waiting: number; drafting: number; seen?: Room; moved: Promise<void>; wake?: () => void };

const rooms = new WeakMap<IExecuteFunctions, RunRoom>();

function roomOf(ctx: IExecuteFunctions): RunRoom {
	let room = rooms.get(ctx);
	if (!room) rooms.set(ctx, (room = { waiting: 0, drafting: 0, moved: Promise.resolve() }));
	if (!room.wake) wake(room);
	return room;
}

function wake(room: RunRoom): void {
	const woken = room.wake;
	room.moved = new Promise((resolve) => (room.wake = resolve));
	woken?.();
}

/** The day after a decision: `spent` what is confirmed, `total` with the claims that may still be confirmed. */
export function noteCheck(ctx: IExecuteFunctions, check: { total: number; spent: number; limit: number; cost: number; letters: number; share: number }): void {
	const room = roomOf(ctx);
	const letter = Math.min(check.cost / Math.max(1, check.letters), room.seen?.letter ?? Number.POSITIVE_INFINITY);
	room.seen = { total: check.total, limit: check.limit, letter, share: check.share };
	// Full once what is spent leaves less than a letter; claims that may still be handed back do not fill it.
	if (check.limit - check.spent < letter) room.full = { ...room.seen, total: check.spent };
	wake(room);
}

export function noteUnread(ctx: IExecuteFunctions, why: string): void {
	const room = roomOf(ctx);
	room.unread = why;
	wake(room);
}

/** Why this run makes no more drafts under `limit`. */
export function closedDay(ctx: IExecuteFunctions, limit: number): Closed | undefined {
	const room = rooms.get(ctx);
	if (room?.unread !== undefined) return { unread: room.unread };
	return room?.full?.limit === limit ? { full: room.full } : undefined;
}

/** A draft the room let through: `landed` once made and in line, `release` once decided. */
export type DraftTurn = Record<'landed' | 'release', () => void>;

/** Waits for room before a draft is made under `limit` (the run's first goes at once); why not, once the day closed. */
export async function roomForDraft(ctx: IExecuteFunctions, limit: number): Promise<DraftTurn | Closed> {
	const room = roomOf(ctx);
	for (;;) {
		const closed = closedDay(ctx, limit);
		if (closed) return closed;
		const seen = room.seen?.limit === limit ? room.seen : undefined;
		if (room.waiting === 0 || (seen && (room.waiting + 1) * seen.letter <= (limit - seen.total) / seen.share)) break;
		await room.moved;
	}
	[room.waiting, room.drafting] = [room.waiting + 1, room.drafting + 1];
	let [landed, released] = [false, false];
	const land = () => {
		if (!landed) [landed, room.drafting] = [true, room.drafting - 1];
		wake(room);
	};
	const release = () => {
		if (!released) [released, room.waiting] = [true, room.waiting - 1];
		land();
	};
	return { landed: land, release };
}

/** Settles once none of the run's drafts is still being made. */
export async function draftsLanded(ctx: IExecuteFunctions): Promise<void> {
	const room = rooms.get(ctx);
	while (room && room.drafting > 0) await room.moved;
}
