import type { IExecuteFunctions } from 'n8n-workflow';

import { sameRecipientKey } from './addressRules';
import type { Recipient } from './recipients';

/** A mail run's rows once repeated recipients are told apart: every paid letter should reach someone new. */
export interface DistinctRecipients {
	/** The rows that get a letter, in order, and their recipients. */
	rows: number[];
	recipients: Recipient[];
	/** For a row that gets a letter, the later rows with the same recipient (skipped when asked to). */
	repeatsOf: Map<number, number[]>;
	/** How many rows repeat an earlier row's recipient. */
	repeats: number;
}

/** Finds rows whose recipient (name, lines, postcode, country, normalised) repeats an earlier one; drops them when `skip`. */
export function distinctRecipients(recipients: Recipient[], rows: number[], skip: boolean): DistinctRecipients {
	const firstRow = new Map<string, number>();
	const result: DistinctRecipients = { rows: [], recipients: [], repeatsOf: new Map(), repeats: 0 };
	rows.forEach((row, index) => {
		const key = sameRecipientKey(recipients[index].address);
		const first = firstRow.get(key);
		if (first === undefined) firstRow.set(key, row);
		else {
			result.repeats++;
			// Appended in place: copying the list for each repeat made 40,000 rows to one recipient take 42 s.
			const repeats = result.repeatsOf.get(first);
			if (repeats) repeats.push(row);
			else result.repeatsOf.set(first, [row]);
			if (skip) return;
		}
		result.rows.push(row);
		result.recipients.push(recipients[index]);
	});
	if (!skip) result.repeatsOf.clear();
	return result;
}

/** Repeated recipients a node run sent letters to, for its hint (runReport.ts). */
const repeatsByRun = new WeakMap<IExecuteFunctions, number>();
export function noteRepeats(ctx: IExecuteFunctions, repeats: number): void {
	repeatsByRun.set(ctx, (repeatsByRun.get(ctx) ?? 0) + repeats);
}
export function repeatsSent(ctx: IExecuteFunctions): number {
	return repeatsByRun.get(ctx) ?? 0;
}
