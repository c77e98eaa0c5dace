import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeError, updateDisplayOptions } from 'n8n-workflow';

import { checkSent, keyedReference, SENT_KEY_METADATA, sentJobStill, sentKeyOf, sentKeysFound } from '../../reruns';
import { createOptions, LETTERS_PER_JOB } from './createOptions.description';
import { recordCreated, noteJob, forEveryRow, rowsFailed } from '../../results';
import { distinctRecipients, noteRepeats } from '../../addresses';
import { addressDigest, explainTooLarge, planParts, planPartsByService, sentPartsOf, type MailRunPart, jobShape, sourceBody, takesVariables, type JobShape } from '../../building';
import { printJobItems, type PrintJob } from '../../results';
import { buildPrintJobBody, lettersFit, postageOfJob, ROW_METADATA, rowMetadata } from '../../building';
import { postageChoiceOf, postageOf, recipientsOfAllItems, refuseUnpostableRows, type Recipient } from '../../addresses';
import { confirmById, confirmWithinLimits, namingEarlierDraft, planConfirm, roomForLiveDraft, type ConfirmPlan, type LiveDraft } from '../../spending';
import { liveAllowed } from '../../agent';
import { apiRequest, createBody, EXPECT, keptMetadataOrThrow, refuseWhereMetadataDropped, type FormObject } from '../../transport';
import { printJobOutputFields } from '../common.descriptions';
import { toolDefault } from '../tool.descriptions';
import { sourceFields } from './createSource.description';
import { applyTypeOptions } from './postcard.description';


const properties: INodeProperties[] = [
	...sourceFields,
	{
		displayName: 'Confirm',
		name: 'confirmed',
		type: 'boolean',
		default: false,
		description:
			'Whether to send the job to print straight away. A confirmed live job is charged and posted and can no longer be changed; leave off to create a draft you can check first.',
	},
	// An agent's jobs are test jobs unless the builder says otherwise.
	...toolDefault(
		{
			displayName: 'Test Mode',
			name: 'testmode',
			type: 'boolean',
			default: false,
			description: 'Whether to create a test job, which is never printed, posted or charged',
		},
		true,
	),
	...printJobOutputFields,
	createOptions,
];

/** What an AI agent is told this operation does (see tool.descriptions.ts). */
export const toolDescription =
	'Creates a print job in Intelliprint: letters printed in the UK and posted there or abroad (addresses abroad go by International postage, UK ones by the workflow\'s UK service). A live job costs money (roughly £1 per letter) once it is confirmed; a test job is free and is never printed or posted. Whether a new job is confirmed straight away is set by the workflow, not by an argument: the result field "confirmed" says which (a draft is not printed until confirmed). Returns the job: its ID (print_…), testmode, confirmed, letter count, cost in GBP and a one-line summary to report to the user.';

export const description = updateDisplayOptions(
	{ show: { resource: ['printJob'], operation: ['create'] } },
	properties,
);

/** Before any item is sent, under On Error: Stop Workflow: every row's address, the refused rows named in one error. */
export function checkItems(this: IExecuteFunctions): void {
	if (jobShape(this, 0).recipients === 'eachItem') refuseUnpostableRows(this);
}

/** A mail run (recipients from all input items) is one print job, made once for the whole run. */
export function runsOnce(this: IExecuteFunctions): boolean {
	return jobShape(this, 0).recipients === 'allItems';
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const shape = jobShape(this, itemIndex);
	if (!runsOnce.call(this)) return await createJob(this, itemIndex, () => sourceBody(this, itemIndex, shape));
	const run = recipientsOfAllItems(this, takesVariables(shape));
	// Every row has an outcome: its print job, its own error, or the error of the job it was in.
	return await forEveryRow(this, run, async () => await sendMailRun(this, shape, run.recipients, run.itemIndexes));
}

/** The print jobs of a mail run: one per part (see mailRunParts.ts), each exactly once under its key. */
async function sendMailRun(ctx: IExecuteFunctions, shape: JobShape, recipients: Recipient[], itemIndexes: number[]): Promise<INodeExecutionData[]> {
	const first = itemIndexes[0];
	const options = ctx.getNodeParameter('options', first, {}) as IDataObject;
	const runKey = options.sentKey ? sentKeyOf(ctx, first, options.sentKey) : undefined;
	const found = runKey ? await sentKeysFound(ctx, first, testmodeOf(ctx, first), Number(options.sentKeyLookBackDays) || 30) : undefined;
	// Parts found again on a rerun that a spending limit held back as drafts are confirmed now if they fit.
	const plan = await confirmPlanOf(ctx, first, Boolean(runKey));
	// A run sent whole, as one print job under its own key (before mail runs were split), is done, unless that job is gone.
	const whole = runKey && found?.has(runKey) ? await sentJobStill(ctx, first, found.get(runKey)!, runKey, testmodeOf(ctx, first)) : undefined;
	if (whole) return await sentJobItems(ctx, whole, first, itemIndexes, plan);

	const perJob = Math.max(1, Math.floor(Number(options.lettersPerJob ?? LETTERS_PER_JOB)) || LETTERS_PER_JOB);
	// The same person twice in one run is two paid letters, unless asked for one each; the repeats are paired with it.
	const distinct = distinctRecipients(recipients, itemIndexes, options.oneLetterPerRecipient === true);
	if (options.oneLetterPerRecipient !== true) noteRepeats(ctx, distinct.repeats);
	const withRepeats = (rows: number[]) => [...rows, ...rows.flatMap((row) => distinct.repeatsOf.get(row) ?? [])];
	const recipientOfRow = new Map(distinct.rows.map((row, index) => [row, distinct.recipients[index]]));
	// One print job per postage service: rows in the UK and abroad go apart (addresses/postage.ts).
	const serviceOfRow = (row: number) => postageOf(ctx, row, recipientOfRow.get(row)!.address.country);
	const planRun = (rows: number[], key: string | undefined) => planParts(ctx, rows, perJob, key, key && found ? sentPartsOf(key, found) : [], addressDigest(recipientOfRow));
	const parts = planPartsByService(distinct.rows, serviceOfRow, postageChoiceOf(ctx, first).service, planRun, runKey);
	const output: INodeExecutionData[] = [];
	for (const [index, part] of parts.entries()) {
		let made: INodeExecutionData[];
		try {
			const sent = part.sentAs ? await sentJobStill(ctx, part.rows[0], part.sentAs, part.sentKey!, testmodeOf(ctx, first)) : undefined;
			made = sent
				? await sentJobItems(ctx, sent, part.rows[0], withRepeats(part.rows), plan)
				: // The letter (text, template or the PDF) is the first row's, for every part of the run.
					await createJob(ctx, part.rows[0], () => sourceBody(ctx, first, shape, part.rows.map((row) => recipientOfRow.get(row)!)), withRepeats(part.rows), {
						number: index + 1,
						of: parts.length,
						letters: part.rows.length,
						sentKey: part.sentKey,
						service: part.service,
					});
		} catch (caught) {
			// With Continue On Fail a part that failed does not stop the parts after it: its rows get the error.
			made = rowsFailed(ctx, caught, withRepeats(part.rows));
		}
		for (const item of made) output.push(item);
	}
	return output;
}

/** Every item's sent key (Recipients: Each Item), so a first read of the account can stop once all are found. */
function keysOfItems(ctx: IExecuteFunctions): Set<string> {
	const keys = new Set<string>();
	ctx.getInputData().forEach((_, itemIndex) => {
		try {
			const given = ctx.getNodeParameter('options.sentKey', itemIndex, '');
			if (given) keys.add(sentKeyOf(ctx, itemIndex, given));
		} catch {
			// An item whose key cannot be read is refused on its own turn; it is simply not looked for.
		}
	});
	return keys;
}

/** Test mode unless asked for live and allowed (an AI agent's jobs are test jobs unless the builder allows live). */
function testmodeOf(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return (ctx.getNodeParameter('testmode', itemIndex, false) as boolean) || !liveAllowed(ctx, itemIndex);
}

/** What the spending gate says of this item's Confirm (a rerun under a sent key confirms a draft held back). */
async function confirmPlanOf(ctx: IExecuteFunctions, itemIndex: number, keyed: boolean): Promise<ConfirmPlan> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return await planConfirm(ctx, itemIndex, {
		confirm: ctx.getNodeParameter('confirmed', itemIndex, false),
		testmode: testmodeOf(ctx, itemIndex),
		perJob: options.confirmUpTo,
		rerun: keyed ? 'confirmsDraft' : 'createsAnother',
	});
}

/**
 * An existing print job, output as already sent for the rows it holds. A draft found while Confirm is on (one a
 * spending limit held back, whatever the limit is now) is confirmed through the gate, or refused by it: a rerun
 * never reports a draft as sent when it was asked to confirm.
 */
async function sentJobItems(ctx: IExecuteFunctions, found: PrintJob | string, itemIndex: number, fromItems: number[] | undefined, plan: ConfirmPlan): Promise<INodeExecutionData[]> {
	const read = (id: string) => apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex });
	let job = typeof found === 'string' ? await read(found) : found;
	const confirmNow = plan.kind !== 'draft' && !job.confirmed;
	if (confirmNow) {
		// A draft found is held to its postage as a new one is (a list's entry may not carry its letters): one left
		// unconfirmed for a letter its service cannot carry stays so on a rerun.
		if (!Array.isArray(job.letters)) job = await read(job.id);
		await lettersFit(ctx, itemIndex, job, false);
		// A pass is good for one confirm: each draft found gets its own plan.
		job = await confirmById(ctx, itemIndex, job.id, await confirmPlanOf(ctx, itemIndex, true), job);
	}
	return await printJobItems(ctx, [job], itemIndex, { extra: { already_sent: true, ...(confirmNow ? { confirmed_in_this_run: true } : {}) }, fromItems });
}

/** Creates one print job (unless its sent key shows it exists already) and shapes its output. */
async function createJob(
	ctx: IExecuteFunctions,
	itemIndex: number,
	source: () => Promise<FormObject>,
	fromItems?: number[],
	part?: MailRunPart,
): Promise<INodeExecutionData[]> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const askedForTest = ctx.getNodeParameter('testmode', itemIndex, false) as boolean;
	const testmode = testmodeOf(ctx, itemIndex);
	const extra = testmode && !askedForTest ? { live_refused: true } : undefined;
	const type = ctx.getNodeParameter('type', itemIndex, 'letter') as string;
	// A mail run's parts carry keys of their own (see mailRunParts.ts).
	const sentKey = part ? part.sentKey : options.sentKey ? sentKeyOf(ctx, itemIndex, options.sentKey) : undefined;
	// Under spending limits a live job is made as a draft and confirmed only once its cost is known to fit.
	let plan: ConfirmPlan;
	try {
		plan = await confirmPlanOf(ctx, itemIndex, Boolean(sentKey));
	} catch (refused) {
		// Refused before anything is made (the day full, or unreadable): a keyed item says what an earlier run left for it.
		const found = sentKey && !part && (refused as NodeError).context?.rerunAdvised ? (await sentKeysFound(ctx, itemIndex, testmode, Number(options.sentKeyLookBackDays) || 30)).get(sentKey) : undefined;
		const job = found ? await sentJobStill(ctx, itemIndex, found, sentKey!, testmode) : undefined;
		if (job?.confirmed) return await sentJobItems(ctx, job, itemIndex, fromItems, { kind: 'draft' });
		throw job ? namingEarlierDraft(refused as NodeError, job) : refused;
	}
	const settings = await buildPrintJobBody(ctx, itemIndex, { ...options, confirmed: plan.kind === 'now' });
	applyTypeOptions(settings, options, type);
	// An item's key is looked up by reference in a new process; a mail run's parts are found by reading the window.
	if (sentKey && !part) settings.reference = keyedReference(ctx, itemIndex, settings.reference, sentKey);
	const check = sentKey ? await checkSent(ctx, itemIndex, sentKey, testmode, Number(options.sentKeyLookBackDays) || 30, () => keysOfItems(ctx)) : undefined;
	if (check?.sent) return await sentJobItems(ctx, check.job ?? check.printJobId, itemIndex, fromItems, plan);
	if (sentKey) settings.metadata = { ...((settings.metadata as IDataObject) ?? {}), [SENT_KEY_METADATA]: sentKey };
	// Each letter leads back to its row: a mail run's letters are its part's rows, in order (repeats come after them).
	settings.metadata = { ...((settings.metadata as Record<string, string>) ?? {}), ...rowMetadata(ctx, fromItems ? fromItems.slice(0, part?.letters ?? fromItems.length) : [itemIndex]) };

	let created: string | undefined;
	let turn: LiveDraft | undefined;
	try {
		// Under a daily limit a draft is made only while there is room for it (none once the day is full), as a claim.
		if (plan.kind === 'checked') turn = await roomForLiveDraft(ctx, itemIndex, testmode, plan.rerun);
		if (turn?.claimedAt !== undefined) settings.metadata = { ...((settings.metadata as Record<string, string>) ?? {}), ...turn.metadata };
		// The node's own metadata, on which a rerun's and other processes' view of this job rests.
		const guarded: IDataObject = { ...(sentKey ? { [SENT_KEY_METADATA]: sentKey } : {}), ...(turn?.claimedAt !== undefined ? turn.metadata : {}) };
		if (Object.keys(guarded).length) await refuseWhereMetadataDropped(ctx, itemIndex);
		const sourced = await source();
		// The service that carries the letters where they go (postageByDestination.ts); a PDF's own addresses show only in the answer.
		const postage = await postageOfJob(ctx, itemIndex, sourced, part?.service);
		if (postage.service) settings.postage = { ...((settings.postage as FormObject) ?? {}), service: postage.service };
		const confirmAfter = postage.unseen && plan.kind === 'now';
		if (confirmAfter) settings.confirmed = false;
		// A mailing list's letters are its recipients: the job names the list, so a trigger can find each letter's.
		if (typeof sourced.mailing_list === 'string') settings.metadata = { ...(settings.metadata as Record<string, string>), [ROW_METADATA.list]: sourced.mailing_list };
		const body = createBody({ ...sourced, testmode, ...settings });
		const sent = 'multipart' in body ? { multipart: body.multipart } : { json: body.json as IDataObject };
		const confirmPass = plan.kind === 'now' && !confirmAfter ? plan.pass : undefined;
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'POST', path: '/prints', ...sent, itemIndex, confirmPass }).catch((error: NodeError) => {
			throw part ? explainTooLarge(error, part, 'multipart' in body ? body.multipart.length : body.length) : error;
		});
		created = job.id;
		noteJob(ctx, job);
		recordCreated(ctx, itemIndex, job.id, { confirmed: job.confirmed === true, keyed: Boolean(sentKey) });
		// The sent key and the claim live in metadata: a job that lost them is not confirmed (the contract's metadata-kept).
		await keptMetadataOrThrow(ctx, guarded, job, itemIndex);
		await lettersFit(ctx, itemIndex, job, plan.kind === 'checked');
		const made = plan.kind === 'checked' ? await confirmWithinLimits(ctx, itemIndex, job, plan, turn) : confirmAfter ? await confirmById(ctx, itemIndex, job.id, plan, job) : job;
		return await printJobItems(ctx, [made], itemIndex, { fromItems, extra });
	} finally {
		turn?.release();
		if (check && !check.sent) check.done(created);
	}
}
