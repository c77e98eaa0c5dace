/**
 * How much metadata a print job keeps is not published (../shared/intelliprint-api.md). The node assumes the limits of
 * the API family Intelliprint's follows (Stripe's: at most 50 entries, names up to 40 characters, values up to 500) and
 * keeps every job it makes within them: the API contract's metadata-budget (transport/contract.ts), which
 * `npm run check:api` tries on the user's own account. A long text is stored in pieces (`name`, `name_1`, `name_2`, …)
 * and read back whole; what does not fit makes a mail run's part smaller, it is never dropped.
 */
export const METADATA_BUDGET = { entries: 50, nameChars: 40, valueChars: 500 } as const;

/** Entries the node itself may add beside the rows' records (the sent key, a spending claim, a mailing list). */
export const NODE_ENTRIES = 6;

/** How many entries a text of `length` characters takes. */
export function piecesFor(length: number): number {
	return length === 0 ? 0 : Math.ceil(length / METADATA_BUDGET.valueChars);
}

/** `text` as metadata entries of at most 500 characters: `name`, `name_1`, `name_2`, … */
export function inPieces(name: string, text: string): Record<string, string> {
	const entries: Record<string, string> = {};
	for (let piece = 0; piece * METADATA_BUDGET.valueChars < text.length; piece++) {
		entries[piece === 0 ? name : `${name}_${piece}`] = text.slice(piece * METADATA_BUDGET.valueChars, (piece + 1) * METADATA_BUDGET.valueChars);
	}
	return entries;
}

/** The text `inPieces` stored under `name`, whole again; undefined when there is none. */
export function fromPieces(metadata: Record<string, unknown>, name: string): string | undefined {
	if (typeof metadata[name] !== 'string') return undefined;
	let text = metadata[name] as string;
	for (let piece = 1; typeof metadata[`${name}_${piece}`] === 'string'; piece++) text += metadata[`${name}_${piece}`] as string;
	return text;
}

/** The metadata entries a job may give its rows' records, once the user's own and the node's are counted. */
export function entriesForRows(userEntries: number): number {
	return Math.max(0, METADATA_BUDGET.entries - NODE_ENTRIES - userEntries);
}

/** What in `metadata` breaks the budget, in words; undefined when it fits. */
export function overBudget(metadata: Record<string, unknown>): string | undefined {
	const names = Object.keys(metadata);
	if (names.length > METADATA_BUDGET.entries) return `${names.length} metadata entries (at most ${METADATA_BUDGET.entries})`;
	const longName = names.find((name) => name.length > METADATA_BUDGET.nameChars);
	if (longName) return `the metadata name "${longName.slice(0, 60)}" has ${longName.length} characters (at most ${METADATA_BUDGET.nameChars})`;
	const longValue = names.find((name) => String(metadata[name] ?? '').length > METADATA_BUDGET.valueChars);
	if (longValue) return `metadata "${longValue}" has ${String(metadata[longValue]).length} characters (at most ${METADATA_BUDGET.valueChars})`;
	return undefined;
}
