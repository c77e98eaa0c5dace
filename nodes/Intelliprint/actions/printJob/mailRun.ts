import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { earlierHoldersOfEach, rememberSent, sentJobStill, sentKeyOf, sentKeysFound } from '../../reruns';
import { printJobItems, rowsFailed, type ItemShape, type Letter, type PrintJob } from '../../results';
import { distinctRecipients, noteRepeats, postageOf, type Recipient } from '../../addresses';
import { keysOfRows, planParts, sourceBody, splitSent, type JobShape, type Part, type RunKeys, type RunLetter } from '../../building';
import { addressDigest, decodeRows, entriesForRows, MAIL_RUN_REFERENCE, type RowRecord } from '../../rowRecords';
import { confirmPlanOf, createJob, lookBackDays, sentJobItems, testmodeOf } from './createJob';
import { apiRequest, EXPECT } from '../../transport';
import { confirmById, type ConfirmPlan } from '../../spending';
import { LETTERS_PER_JOB } from './createOptions.description';
import { inTurns, itemReader } from '../../values';

/**
 * A mail run: one letter per row (or per recipient), sent as few print jobs as its services, "Letters per Print Job"
 * and the metadata budget allow. Under Skip Items Already Sent each row's key decides for that row
 * (building/mailRunKeys.ts): rows sent before come out with the job that holds them, only the others are sent.
 */
export async function sendMailRun(ctx: IExecuteFunctions, shape: JobShape, recipients: Recipient[], itemIndexes: number[]): Promise<INodeExecutionData[]> {
	const first = itemIndexes[0];
	const options = ctx.getNodeParameter('options', first, {}) as IDataObject;
	const recipientOfRow = new Map(itemIndexes.map((row, index) => [row, recipients[index]]));
	const testmode = testmodeOf(ctx, first);
	const output: INodeExecutionData[] = [];
	const keys = options.sentKey ? keysOf(ctx, itemIndexes, (row) => recipientOfRow.get(row)!, output) : undefined;
	const rows = keys ? itemIndexes.filter((row) => keys.keys.has(row)) : itemIndexes;
	const plan = await confirmPlanOf(ctx, first, Boolean(keys));

	let unsent = rows;
	const withSameKey = new Map<number, number[]>();
	if (keys) {
		const wanted = new Set([...keys.keys.values()].map((rowKey) => rowKey.key));
		const split = splitSent(rows, keys, await sentKeysFound(ctx, first, testmode, lookBackDays(options), wanted, MAIL_RUN_REFERENCE));
		for (const [row, lead] of split.sameKeyAs) addTo(withSameKey, lead, row);
		unsent = split.unsent;
		for (const [jobId, held] of split.sentIn) {
			try {
				const job = await sentJobStill(ctx, held[0], jobId, keys.keys.get(held[0])!.key, testmode);
				if (job) output.push(...(await sentJobItems(ctx, job, held[0], plan, heldShape(ctx, job, held, keys, split.addressChanged))));
				else {
					// Deleted or cancelled since: its rows are sent again, and the process forgets all of their keys.
					for (const row of held) void rememberSent(ctx, testmode, keys.keys.get(row)!.key, undefined);
					unsent = [...unsent, ...held.filter((row) => !split.sameKeyAs.has(row))].sort((a, b) => a - b);
				}
			} catch (caught) {
				// With Continue On Fail a job that cannot be read gives its rows the error; the others go on.
				output.push(...rowsFailed(ctx, caught, held));
			}
		}
	}

	// The same person twice in one run is two paid letters, unless asked for one each; the repeats go with the first.
	const onePerRecipient = options.oneLetterPerRecipient === true;
	const distinct = distinctRecipients(unsent.map((row) => recipientOfRow.get(row)!), unsent, onePerRecipient);
	if (!onePerRecipient) noteRepeats(ctx, distinct.repeats);
	// One print job per postage service: rows in the UK and abroad go apart (addresses/postage.ts).
	const letters: RunLetter[] = distinct.rows.map((lead) => ({
		rows: [lead, ...(distinct.repeatsOf.get(lead) ?? []), ...(withSameKey.get(lead) ?? [])],
		service: postageOf(ctx, lead, recipientOfRow.get(lead)!.address.country),
	}));
	const recordOf = (row: number, letter: RunLetter): RowRecord => {
		const rowKey = keys?.keys.get(row);
		const id = String(itemReader(ctx, 'options.rowId', '')(row) ?? '');
		// A keyed row that leads its letter has its letter's digest already (building/mailRunKeys.ts).
		const digest = rowKey && row === letter.rows[0] ? rowKey.digest : addressDigest(recipientOfRow.get(letter.rows[0])!.address);
		return { place: row + 1, digest, ...(rowKey ? { key: rowKey.key, ...(rowKey.nth ? { nth: rowKey.nth } : {}) } : {}), ...(id ? { id } : {}) };
	};
	const perJob = Math.max(1, Math.floor(Number(options.lettersPerJob ?? LETTERS_PER_JOB)) || LETTERS_PER_JOB);
	const userEntries = ((options.metadata as IDataObject | undefined)?.entry as unknown[] | undefined)?.length ?? 0;
	const parts = planParts(ctx, letters, perJob, entriesForRows(userEntries), recordOf, keys?.runKey !== undefined);
	// A keyed run's parts are made as drafts, then checked against other processes all at once (reruns/rowClaims.ts).
	const drafted: Array<Omit<Drafted, 'start' | 'count'>> = [];
	const sendPart = async (index: number): Promise<INodeExecutionData[]> => {
		const part = parts[index];
		const recordsOfDigest = new Map<string, Array<{ row: number; id: string | null }>>();
		part.records.forEach((record, at) => addTo(recordsOfDigest, record.digest, { row: part.rows[at], id: record.id ?? null }));
		// Each letter with the rows it carried, and their Row IDs (what the triggers give for it later).
		const rowsOfLetter = (letter: Letter) => {
			const carried = recordsOfDigest.get(addressDigest(letter.address)) ?? [];
			return { rows: carried.map(({ row }) => row), extra: carried.length ? { row_ids: carried.map(({ id }) => id) } : {} };
		};
		const partShape: ItemShape = { fromItems: part.rows, rowsOfLetter };
		try {
			// The letter (text, template or the PDF) is the first row's, for every part of the run.
			const source = async () => await sourceBody(ctx, first, shape, part.letters.map((letter) => recipientOfRow.get(letter.rows[0])!));
			const raced = keys && (async (draft: IDataObject, holders: Map<string, string[]>) => await racedRows(ctx, draft, part, keys, holders, plan, testmode));
			const defer = keys && ((draft: IDataObject, answeredAt: number) => (drafted[index] = { draft, answeredAt, part, shape: partShape }));
			const info = { number: index + 1, of: parts.length, letters: part.letters.length, keyed: Boolean(keys), service: part.service, records: part.records, runKey: keys?.runKey, raced, defer };
			return await createJob(ctx, part.rows[0], source, partShape, info);
		} catch (caught) {
			// With Continue On Fail a part that failed does not stop the parts after it: its rows get the error.
			return rowsFailed(ctx, caught, part.rows);
		}
	};
	// Parts of a run without keys or a daily limit stand alone: two at a time, one is made while the API answers the
	// other. A failure stops the run as it stops items (router.ts): what was made by then is named.
	const drafts: Drafted[] = [];
	for (const [index, items] of (await inTurns(parts.length, keys || plan.kind === 'checked' ? 1 : 2, sendPart)).entries()) {
		if (drafted[index]) drafts.push({ ...drafted[index], start: output.length, count: items.length });
		output.push(...items);
	}
	if (keys && drafts.length) await settleDrafts(ctx, drafts, output, keys, plan, testmode);
	return output;
}

/** A part's draft, made and not yet confirmed, and where its items stand in the run's output. */
interface Drafted {
	draft: IDataObject;
	answeredAt: number;
	part: Part;
	shape: ItemShape;
	start: number;
	count: number;
}

/**
 * A keyed run's drafts, checked at once against every job made before them (reruns/rowClaims.ts): one wait and one
 * read for the whole run. Each draft no earlier job holds rows of is confirmed (Confirm on) or left a draft; one that
 * lost a race is withdrawn (racedRows). Its items in the output are replaced by what became of it.
 */
async function settleDrafts(ctx: IExecuteFunctions, drafts: Drafted[], output: INodeExecutionData[], keys: RunKeys, plan: ConfirmPlan, testmode: boolean): Promise<void> {
	const first = drafts[0].part.rows[0];
	const keysOf = (part: Part) => new Set(part.records.flatMap((record) => (record.key ? [record.key] : [])));
	let holders: Map<string, Map<string, string[]>> | undefined;
	let unread: unknown;
	try {
		holders = await earlierHoldersOfEach(ctx, first, testmode, drafts.map(({ draft, part }) => ({ draft, keys: keysOf(part) })), Math.max(...drafts.map((entry) => entry.answeredAt)));
	} catch (caught) {
		unread = caught;
	}
	const replacements: INodeExecutionData[][] = [];
	for (const entry of drafts) {
		const itemIndex = entry.part.rows[0];
		try {
			if (unread) throw unread;
			const earlier = holders!.get(String(entry.draft.id))!;
			if (earlier.size) replacements.push(await racedRows(ctx, entry.draft, entry.part, keys, earlier, plan, testmode));
			else if (plan.kind !== 'now') replacements.push(output.slice(entry.start, entry.start + entry.count));
			else {
				// A pass is good for one confirm: each draft gets its own plan.
				const confirmed = await confirmById(ctx, itemIndex, String(entry.draft.id), await confirmPlanOf(ctx, itemIndex, true), entry.draft as PrintJob);
				const liveRefused = output[entry.start]?.json.live_refused === true ? { live_refused: true } : {};
				replacements.push(await printJobItems(ctx, [confirmed], itemIndex, { ...entry.shape, extra: { ...entry.shape.extra, ...liveRefused } }));
			}
		} catch (caught) {
			replacements.push(rowsFailed(ctx, caught, entry.part.rows));
		}
	}
	for (let at = drafts.length - 1; at >= 0; at--) output.splice(drafts[at].start, drafts[at].count, ...replacements[at]);
}

/**
 * A part another n8n process sent first, in part or whole (reruns/rowClaims.ts): its draft is deleted (free); each
 * row the other's job holds comes out with that job, as already sent; a row it does not hold gets an error that says
 * to run again (nothing of it was sent).
 */
async function racedRows(ctx: IExecuteFunctions, draft: IDataObject, part: Part, keys: RunKeys, holders: Map<string, string[]>, plan: ConfirmPlan, testmode: boolean): Promise<INodeExecutionData[]> {
	const rows = part.rows;
	await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'DELETE', path: `/prints/${String(draft.id)}`, itemIndex: rows[0] });
	const holderOf = new Map([...holders].flatMap(([id, held]) => held.map((key) => [key, id] as const)));
	for (const record of part.records) if (record.key) void rememberSent(ctx, testmode, record.key, holderOf.get(record.key), record.digest);
	const output: INodeExecutionData[] = [];
	const heldBy = new Map<string, string>();
	for (const [id, held] of holders) for (const key of held) heldBy.set(key, id);
	const rowsOf = new Map<string, number[]>();
	const left: number[] = [];
	for (const row of rows) {
		const holder = heldBy.get(keys.keys.get(row)!.key);
		if (holder) addTo(rowsOf, holder, row);
		else left.push(row);
	}
	for (const [id, held] of rowsOf) {
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex: held[0] });
		output.push(...(await sentJobItems(ctx, job, held[0], plan.kind === 'draft' ? plan : { kind: 'draft' }, heldShape(ctx, job, held, keys, new Set()))));
	}
	if (left.length) {
		const error = new NodeOperationError(ctx.getNode(), 'Another n8n process was sending some of these rows at the same moment', {
			itemIndex: left[0],
			description: `Its print job ${[...holders.keys()].join(', ')} was made first and holds the others, so this run's job was withdrawn, with nothing sent. Run again: Skip Items Already Sent sends these rows once.`,
		});
		output.push(...rowsFailed(ctx, error, left));
	}
	return output;
}

/** Adds `value` to the list `map` holds under `key`, in place (copying a list per row is quadratic). */
function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

/** Each row's key as Skip Items Already Sent gives it; a row without one gets its error (and is not sent). */
function keysOf(ctx: IExecuteFunctions, rows: number[], recipientOf: (row: number) => Recipient, output: INodeExecutionData[]): RunKeys {
	const given = new Map<number, string>();
	for (const row of rows) {
		try {
			given.set(row, sentKeyOf(ctx, row, itemReader(ctx, 'options.sentKey', '')(row)));
		} catch (caught) {
			output.push(...rowsFailed(ctx, caught, [row]));
		}
	}
	return keysOfRows(rows.filter((row) => given.has(row)), given, recipientOf);
}

/**
 * How a job an earlier run made comes out for the rows of this run it holds: paired with them, its letters found by
 * their keys (rowRecords/), and each row sent before to another address marked so (it is not sent again).
 */
function heldShape(ctx: IExecuteFunctions, job: PrintJob, held: number[], keys: RunKeys, addressChanged: Set<number>): ItemShape {
	const rowsOfKey = new Map<string, number[]>();
	for (const row of held) {
		addTo(rowsOfKey, keys.keys.get(row)!.key, row);
	}
	const keysOfDigest = new Map<string, string[]>();
	for (const record of decodeRows(job.metadata as IDataObject) ?? []) if (record.key) addTo(keysOfDigest, record.digest, record.key);
	const changed = held.filter((row) => addressChanged.has(row));
	const changedNote = (rows: number[]) => (rows.some((row) => addressChanged.has(row)) ? { address_changed: true, address_note: 'This key was sent before to another address; it was not sent again. Give the row a new key to send it to the new address.' } : {});
	return {
		fromItems: held,
		jobExtra: changed.length ? { address_changed_items: changed.map((row) => row + 1) } : {},
		onlyOwnLetters: true,
		rowsOfLetter: (letter: Letter) => {
			const rows = (keysOfDigest.get(addressDigest(letter.address)) ?? []).flatMap((key) => rowsOfKey.get(key) ?? []);
			const ids = rows.map((row) => String(itemReader(ctx, 'options.rowId', '')(row) ?? '') || null);
			return { rows, extra: { ...(rows.length ? { row_ids: ids } : {}), ...changedNote(rows) } };
		},
	};
}
