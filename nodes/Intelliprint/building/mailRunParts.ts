import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { entriesWith, rowCost, type RowRecord } from '../rowRecords';

/**
 * A mail run's letters as print jobs. A print job has one postage service, so each service's letters are parts of
 * their own (addresses/postage.ts); a part holds at most "Letters per Print Job" letters, and no more rows than its
 * metadata can name (rowRecords/: every row's place, address digest, key and Row ID are kept, the part is made
 * smaller rather than any of them dropped: the API contract's metadata-budget).
 */
export interface RunLetter {
	/** The rows the letter carries: the first gives its recipient and variables, the others go with it. */
	rows: number[];
	service: string;
}

export interface Part {
	letters: RunLetter[];
	/** Every row the part carries, in letter order, and their records. */
	rows: number[];
	records: RowRecord[];
	service: string;
}

/** Splits the letters into parts by service, `perJob` letters at most, each within `roomForRows` metadata entries. */
export function planParts(
	ctx: IExecuteFunctions,
	letters: RunLetter[],
	perJob: number,
	roomForRows: number,
	recordOf: (row: number, letter: RunLetter) => RowRecord,
	underRunKey: boolean,
): Part[] {
	const byService = new Map<string, RunLetter[]>();
	for (const letter of letters) {
		if (!byService.has(letter.service)) byService.set(letter.service, []);
		byService.get(letter.service)!.push(letter);
	}
	const parts: Part[] = [];
	for (const [service, own] of byService) {
		let part: Part | undefined;
		let lengths: number[] = [];
		for (const letter of own) {
			const records = letter.rows.map((row) => recordOf(row, letter));
			// A place right after the part's last one costs nothing (its range grows), so the costs depend on the part.
			const withLetter = (base: number[], previous?: number) => {
				const next = [...base];
				const costs = records.map((record, at) => rowCost(record, underRunKey, at > 0 ? records[at - 1].place : previous));
				return { next, entries: costs.reduce((_, cost) => entriesWith(next, cost), 0) };
			};
			let trial = withLetter(lengths, part?.records[part.records.length - 1]?.place);
			if (!part || part.letters.length >= perJob || trial.entries > roomForRows) {
				trial = withLetter([]);
				if (trial.entries > roomForRows) {
					throw new NodeOperationError(ctx.getNode(), `The letter of item ${letter.rows[0] + 1} carries more rows than a print job can name`, {
						itemIndex: letter.rows[0],
						description: `It stands for ${letter.rows.length} rows, whose keys and Row IDs need more metadata than Intelliprint keeps on a print job. Nothing was sent. Use shorter keys or Row IDs, or fewer Metadata entries.`,
					});
				}
				part = { letters: [], rows: [], records: [], service };
				parts.push(part);
			}
			lengths = trial.next;
			part.letters.push(letter);
			part.rows.push(...letter.rows);
			part.records.push(...records);
		}
	}
	return parts.sort((a, b) => a.rows[0] - b.rows[0]);
}

/** A mail run of more rows than "Letters per Print Job" is sent as several print jobs, one part each. */
export interface MailRunPart {
	number: number;
	of: number;
	letters: number;
	keyed: boolean;
	service?: string;
	records: RowRecord[];
	/** The run's one key, when the whole run was given one (building/mailRunKeys.ts). */
	runKey?: string;
	/** What comes out for the part's rows when another process's job, made first, holds some of them (reruns/rowClaims.ts). */
	raced?: (draft: IDataObject, holders: Map<string, string[]>) => Promise<INodeExecutionData[]>;
	/** Set by a run that checks all its parts' drafts at once: the draft made is handed over, unconfirmed. */
	defer?: (draft: IDataObject, answeredAt: number) => void;
}

/** "Too large" for a mail run names the setting that makes the requests smaller. */
export function explainTooLarge(error: NodeError, part: MailRunPart, bytes: number): NodeError {
	if (error.context.code !== 'body_too_large') return error;
	const megabytes = (bytes / 1024 / 1024).toFixed(1);
	const fewer = Math.max(1, Math.floor(part.letters / 2));
	error.description = [
		`Print job ${part.number} of ${part.of} of this mail run had ${part.letters} letters in a ${megabytes} MB request, more than Intelliprint accepts.`,
		`Set Options → "Letters per Print Job" lower (e.g. ${fewer}), or send fewer fields as variables ("Variables" → "Chosen Fields").`,
		part.number === 1 ? '' : part.keyed ? 'The print jobs before it were created under their keys: run it again and Skip Items Already Sent sends only the rows they do not hold.' : 'The print jobs before it were created without Skip Items Already Sent, which cannot find them later: run again only the rows they do not hold, or delete them first.',
		error.description ?? '',
	]
		.filter(Boolean)
		.join(' ');
	return error;
}
