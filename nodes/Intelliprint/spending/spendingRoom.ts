import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * What a node run knows of the room left under the daily limit, so that it spends nothing on items that cannot go:
 * drafts are made only while the drafts already waiting for the gate's check could still fit, and once what is left
 * is less than the cheapest letter the run has priced, the rest of its items are refused with no draft and no read.
 * The gate itself (spending.ts) still checks every confirm against the API's list: this only saves requests.
 */

/** Today's total and the cheapest letter, as the run's last check saw them (amounts with 8 implied decimals). */
export interface Room {
	total: number;
	limit: number;
	letter: number;
	/** How many processes (this one included) had claims waiting at the check: each drafts for its share of what is left. */
	share?: number;
}

interface RunRoom {
	/** Drafts made by the run under the limit and not yet through the gate's check. */
	waiting: number;
	/** Of those, the ones still being made: the gate's next check waits for them, so one read serves them all. */
	drafting: number;
	seen?: Room;
	full?: Room;
	/** Settles when a draft has been through the gate: items waiting for room look again. */
	moved: Promise<void>;
	move: () => void;
}

const rooms = new WeakMap<IExecuteFunctions, RunRoom>();

function roomOf(ctx: IExecuteFunctions): RunRoom {
	let room = rooms.get(ctx);
	if (!room) rooms.set(ctx, (room = { waiting: 0, drafting: 0, ...nextMove() }));
	return room;
}

function nextMove(): Pick<RunRoom, 'moved' | 'move'> {
	let move!: () => void;
	const moved = new Promise<void>((resolve) => (move = resolve));
	return { moved, move };
}

function wake(room: RunRoom): void {
	const { move } = room;
	Object.assign(room, nextMove());
	move();
}

/**
 * The day as this check saw it: the total after it (with other processes' claims), what of it is spent (confirmed,
 * or confirmed by this check), the limit, and the draft's cost per letter.
 */
export function noteCheck(ctx: IExecuteFunctions, check: { total: number; spent: number; limit: number; cost: number; letters: number; share: number }): void {
	const room = roomOf(ctx);
	const letter = Math.min(check.cost / Math.max(1, check.letters), room.seen?.letter ?? Number.POSITIVE_INFINITY);
	room.seen = { total: check.total, limit: check.limit, letter, share: check.share };
	// Full once what is spent leaves less than a letter, after a confirm as after a refusal: the next item costs
	// nothing. Not for another process's claims: those may be handed back, and the run's next draft looks again.
	if (check.limit - check.spent < letter) room.full = { ...room.seen, total: check.spent };
	wake(room);
}

/** The day once it cannot take another letter, while the limit is the one that filled it. */
export function fullDay(ctx: IExecuteFunctions, limit: number): Room | undefined {
	const full = rooms.get(ctx)?.full;
	return full?.limit === limit ? full : undefined;
}

/** A draft the room let through: `landed` once it is made and waits for the gate, `release` once through it. */
export interface DraftTurn {
	landed: () => void;
	release: () => void;
}

/**
 * Waits, before a draft is made under the daily limit, while the run's drafts already waiting would use what is
 * left (and, before the run's first check, until that check). Returns the draft's turn, or the full day when no
 * draft should be made.
 */
export async function roomForDraft(ctx: IExecuteFunctions, limit: number): Promise<DraftTurn | Room> {
	const room = roomOf(ctx);
	for (;;) {
		const full = fullDay(ctx, limit);
		if (full) return full;
		const seen = room.seen?.limit === limit ? room.seen : undefined;
		// Processes drafting at once each take their share of what is left: together they make about as many drafts as fit.
		if (room.waiting === 0 || (seen && (room.waiting + 1) * seen.letter <= (limit - seen.total) / (seen.share ?? 1))) break;
		await room.moved;
	}
	room.waiting++;
	room.drafting++;
	let landed = false;
	let released = false;
	const land = () => {
		if (landed) return;
		landed = true;
		room.drafting--;
		wake(room);
	};
	return {
		landed: land,
		release: () => {
			if (released) return;
			land();
			released = true;
			room.waiting--;
			wake(room);
		},
	};
}

/** Settles once none of the run's drafts is still being made (at once when none is). */
export async function draftsLanded(ctx: IExecuteFunctions): Promise<void> {
	const room = rooms.get(ctx);
	while (room && room.drafting > 0) await room.moved;
}
