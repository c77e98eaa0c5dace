import type { Watched } from './watch';

/**
 * What the trigger keeps between polls, in the workflow's static data (saved with the workflow, so it survives a
 * restart). It holds only letters inside the windows a poll reads (returns of the last days, jobs of the look-back):
 * one that falls out of them is never read again, so it is dropped, and the record stays the size of its windows.
 */
export interface PollState {
	/** What is watched (statuses, mode, look-back): a change starts afresh, as a first poll does. */
	watching?: string;
	/** The letters read in a watched status at the last poll, by status (IDs, newest first). */
	letters?: Record<string, string[]>;
	/** The newest return date read so far (Unix seconds, never past the clock): returned letters are read down to it less a margin. */
	newestReturn?: number;
	/** How many jobs each read listed at the last poll: the next one's first page asks for about that many. */
	pageHints?: Record<string, number>;
	/** Before the look-back: letter ID → status of every letter in a watched status. Read once, then dropped. */
	seen?: Record<string, string>;
}

/** What a poll starts from. */
export interface Memory {
	watching: string;
	first: boolean;
	previous: Map<string, string>;
	newestReturn?: number;
	pageHints: Record<string, number>;
}

export function recall(state: PollState, statuses: string[], testmode: boolean, lookBackDays: number): Memory {
	const named = `${statuses.slice().sort().join(',')}|${String(testmode)}`;
	const watching = `${named}|${lookBackDays}d`;
	if (state.watching === named && state.seen !== undefined) {
		// A workflow that polled before the look-back existed goes on from what it saw: nothing is emitted twice, and
		// nothing that changed since its last poll is taken for history.
		return { watching, first: false, previous: new Map(Object.entries(state.seen)), pageHints: {} };
	}
	if (state.watching !== watching || state.letters === undefined) return { watching, first: true, previous: new Map(), pageHints: {} };
	const previous = new Map<string, string>();
	for (const [status, ids] of Object.entries(state.letters)) for (const id of ids) previous.set(id, status);
	return { watching, first: false, previous, newestReturn: state.newestReturn, pageHints: { ...(state.pageHints ?? {}) } };
}

/** Saves what the next poll compares with: only the letters still inside the windows it reads. */
export function remember(state: PollState, memory: Memory, watched: Watched): void {
	const letters: Record<string, string[]> = {};
	for (const { letter, status } of watched.keep) (letters[status] ??= []).push(letter.id);
	state.watching = memory.watching;
	state.letters = letters;
	if (watched.newestReturn === undefined) delete state.newestReturn;
	else state.newestReturn = watched.newestReturn;
	state.pageHints = watched.pageHints;
	delete state.seen;
}
