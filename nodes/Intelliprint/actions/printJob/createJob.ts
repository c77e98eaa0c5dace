import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeError, NodeOperationError } from 'n8n-workflow';

import { checkSent, earlierHolders, keyedReference, rememberSent, SENT_KEY_METADATA, sentJobStill, sentKeyOf, sentKeysFound } from '../../reruns';
import { asNodeError, namingEarlierDraft, recordCreated, noteJob, printJobItems, type ItemShape, type PrintJob } from '../../results';
import { buildPrintJobBody, cancelMisfit, explainTooLarge, lettersFit, postageOfJob, type MailRunPart } from '../../building';
import { confirmById, confirmWithinLimits, handBack, planConfirm, roomForLiveDraft, type ConfirmPlan, type LiveDraft } from '../../spending';
import { liveAllowed } from '../../agent';
import { apiRequest, connectionSettings, createBody, EXPECT, keptMetadataOrThrow, refuseWhereMetadataDropped, type FormObject } from '../../transport';
import { encodeRows, MAIL_RUN_REFERENCE, ROW_FIELDS, UNKNOWN_DIGEST } from '../../rowRecords';
import { applyTypeOptions } from './postcard.description';
import { itemReader } from '../../values';
import { itemsInParallel } from '../itemsInParallel';

/** Every item's sent key (Recipients: Each Item), so a first read of the account can stop once all are found. */
function keysOfItems(ctx: IExecuteFunctions): Set<string> {
	const keys = new Set<string>();
	ctx.getInputData().forEach((_, itemIndex) => {
		try {
			const given = itemReader(ctx, 'options.sentKey', '')(itemIndex);
			if (given) keys.add(sentKeyOf(ctx, itemIndex, given));
		} catch {
			// An item whose key cannot be read is refused on its own turn; it is simply not looked for.
		}
	});
	return keys;
}

/** Test mode unless asked for live and allowed (an AI agent's jobs are test jobs unless the builder allows live). */
export function testmodeOf(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return (ctx.getNodeParameter('testmode', itemIndex, false) as boolean) || !liveAllowed(ctx, itemIndex);
}

/**
 * How many items may come after this one to be made alike under an allowance: none when items go one at a time (Items
 * in Parallel 1, or a rate budget of one request), for the claim's item waits for the items it asked room for.
 */
async function itemsAfter(ctx: IExecuteFunctions, itemIndex: number): Promise<number> {
	const count = ctx.getInputData().length;
	return (await itemsInParallel(ctx, count)) === 1 ? 0 : count - 1 - itemIndex;
}

export const lookBackDays = (options: IDataObject) => Number(options.sentKeyLookBackDays) || 30;

/** What the spending gate says of this item's Confirm (a rerun under a sent key confirms a draft held back). */
export async function confirmPlanOf(ctx: IExecuteFunctions, itemIndex: number, keyed: boolean): Promise<ConfirmPlan> {
	// Only this option: reading the whole collection evaluates its expressions (Skip Items Already Sent, Row ID…) again.
	return await planConfirm(ctx, itemIndex, {
		confirm: ctx.getNodeParameter('confirmed', itemIndex, false),
		testmode: testmodeOf(ctx, itemIndex),
		perJob: ctx.getNodeParameter('options.confirmUpTo', itemIndex, null),
		rerun: keyed ? 'confirmsDraft' : 'createsAnother',
	});
}

/**
 * An existing print job, output as already sent for the rows it holds. A draft found while Confirm is on (one a
 * spending limit held back, whatever the limit is now) is confirmed through the gate, or refused by it: a rerun
 * never reports a draft as sent when it was asked to confirm.
 */
export async function sentJobItems(ctx: IExecuteFunctions, found: PrintJob | string, itemIndex: number, plan: ConfirmPlan, shape: ItemShape = {}): Promise<INodeExecutionData[]> {
	const read = (id: string) => apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex });
	let job = typeof found === 'string' ? await read(found) : found;
	const confirmNow = plan.kind !== 'draft' && !job.confirmed;
	if (confirmNow) {
		// A draft found is held to its postage as a new one is (a list's entry may not carry its letters): one left
		// unconfirmed for a letter its service cannot carry stays so on a rerun.
		if (!Array.isArray(job.letters)) job = await read(job.id);
		lettersFit(ctx, itemIndex, job);
		// A pass is good for one confirm: each draft found gets its own plan.
		job = await confirmById(ctx, itemIndex, job.id, await confirmPlanOf(ctx, itemIndex, true), job);
	}
	const extra = { ...shape.extra, already_sent: true, ...(confirmNow ? { confirmed_in_this_run: true } : {}) };
	return await printJobItems(ctx, [job], itemIndex, { ...shape, extra });
}

/**
 * The node's own metadata on a job: what leads its letters back to their rows (rowRecords/), and for a keyed mail
 * run its run key. An item's job names its one row; a mail run's part names each of its rows.
 */
function rowEntries(ctx: IExecuteFunctions, itemIndex: number, part: MailRunPart | undefined): Record<string, string> {
	if (!part) {
		const id = String(itemReader(ctx, 'options.rowId', '')(itemIndex) ?? '');
		return encodeRows([{ place: itemIndex + 1, digest: UNKNOWN_DIGEST, ...(id ? { id } : {}) }], false);
	}
	return { ...encodeRows(part.records, part.runKey !== undefined), ...(part.runKey !== undefined ? { [ROW_FIELDS.runKey]: part.runKey } : {}) };
}

/** Creates one print job (unless its sent key shows it exists already) and shapes its output. */
export async function createJob(
	ctx: IExecuteFunctions,
	itemIndex: number,
	source: () => Promise<FormObject>,
	shape: ItemShape = {},
	part?: MailRunPart,
): Promise<INodeExecutionData[]> {
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const askedForTest = ctx.getNodeParameter('testmode', itemIndex, false) as boolean;
	const testmode = testmodeOf(ctx, itemIndex);
	const extra = testmode && !askedForTest ? { live_refused: true } : undefined;
	const type = ctx.getNodeParameter('type', itemIndex, 'letter') as string;
	// A mail run's rows carry keys of their own (building/mailRunKeys.ts); an item's key is its job's.
	const sentKey = part ? undefined : options.sentKey ? sentKeyOf(ctx, itemIndex, options.sentKey) : undefined;
	// Under spending limits a live job is made as a draft and confirmed only once its cost is known to fit.
	let plan: ConfirmPlan;
	try {
		plan = await confirmPlanOf(ctx, itemIndex, Boolean(sentKey ?? part?.keyed));
	} catch (refused) {
		// Refused before anything is made (the day full, or unreadable): a keyed item says what an earlier run left for it.
		const found = sentKey && (refused as NodeError).context?.rerunAdvised ? (await sentKeysFound(ctx, itemIndex, testmode, lookBackDays(options))).get(sentKey)?.id : undefined;
		const job = found ? await sentJobStill(ctx, itemIndex, found, sentKey!, testmode) : undefined;
		if (job?.confirmed) return await sentJobItems(ctx, job, itemIndex, { kind: 'draft' }, shape);
		throw job ? namingEarlierDraft(refused as NodeError, job) : refused;
	}
	const settings = await buildPrintJobBody(ctx, itemIndex, { ...options, confirmed: plan.kind === 'now' });
	applyTypeOptions(settings, options, type);
	// An item's key is looked up by reference in a new process; a keyed mail run's jobs share one reference (the
	// API contract's keyed-reference: nobody renames them).
	if (sentKey || part?.keyed) settings.reference = keyedReference(ctx, itemIndex, settings.reference, sentKey ?? MAIL_RUN_REFERENCE, !sentKey);
	const check = sentKey ? await checkSent(ctx, itemIndex, sentKey, testmode, lookBackDays(options), () => keysOfItems(ctx)) : undefined;
	if (check?.sent) return await sentJobItems(ctx, check.job ?? check.printJobId, itemIndex, plan, shape);
	// Each letter leads back to its rows (rowRecords/); the keys a rerun looks for are among them.
	const rows = rowEntries(ctx, itemIndex, part);
	settings.metadata = { ...((settings.metadata as IDataObject) ?? {}), ...(sentKey ? { [SENT_KEY_METADATA]: sentKey } : {}), ...rows };

	let created: string | undefined;
	let turn: LiveDraft | undefined;
	let posted = false;
	try {
		// Under a daily limit a draft is made only while there is room for it (none once the day is full), as a claim that
		// asks room for the items after it; they are then made confirmed under what it was granted (spending/allowance.ts).
		if (plan.kind === 'checked') turn = await roomForLiveDraft(ctx, itemIndex, testmode, plan.rerun, part ? 0 : await itemsAfter(ctx, itemIndex));
		if (turn) settings.metadata = { ...((settings.metadata as Record<string, string>) ?? {}), ...turn.metadata };
		if (turn?.under) settings.confirmed = true;
		// The node's own metadata, on which a rerun's and other processes' view of this job rests.
		const keyed = sentKey || part?.keyed;
		const guarded: IDataObject = { ...(sentKey ? { [SENT_KEY_METADATA]: sentKey } : {}), ...(keyed ? rows : {}), ...turn?.metadata };
		if (Object.keys(guarded).length) await refuseWhereMetadataDropped(ctx, itemIndex);
		const sourced = await source();
		// The service that carries the letters where they go (postageByDestination.ts); a PDF's own addresses show only in the answer.
		const postage = await postageOfJob(ctx, itemIndex, sourced, part?.service);
		if (postage.service) settings.postage = { ...((settings.postage as FormObject) ?? {}), service: postage.service };
		// A keyed mail run's part is confirmed once no job made before it holds its rows (reruns/rowClaims.ts). A PDF whose
		// own addresses only the answer shows is confirmed on create: one that misfits is cancelled at once (cancelMisfit).
		const confirmAfter = part?.keyed === true && plan.kind === 'now';
		if (confirmAfter) settings.confirmed = false;
		// A mailing list's letters are its recipients: the job names the list, so a trigger can find each letter's.
		if (typeof sourced.mailing_list === 'string') settings.metadata = { ...(settings.metadata as Record<string, string>), [ROW_FIELDS.list]: sourced.mailing_list };
		const body = createBody({ ...sourced, testmode, ...settings });
		const sent = 'multipart' in body ? { multipart: body.multipart } : { json: body.json as IDataObject };
		const confirmPass = turn?.under ? turn.under.pass : plan.kind === 'now' && !confirmAfter ? plan.pass : undefined;
		posted = true;
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'POST', path: '/prints', ...sent, itemIndex, confirmPass }).catch((error: NodeError) => {
			throw part ? explainTooLarge(error, part, 'multipart' in body ? body.multipart.length : body.length) : error;
		});
		created = job.id;
		const answeredAt = Date.now();
		noteJob(ctx, job);
		recordCreated(ctx, itemIndex, job.id, { confirmed: job.confirmed === true, keyed: Boolean(keyed) });
		// A job confirmed under the allowance is held to what is left of it: one that does not fit is cancelled at once.
		const overAllowance = await turn?.under?.settle(job);
		if (overAllowance) throw new NodeOperationError(ctx.getNode(), overAllowance, { itemIndex, description: 'Run this item again later: the next run asks for room of its own.' });
		// A mail run's row keys are known to this process at once: a rerun here needs no read to find them.
		for (const record of part?.keyed ? part.records : []) if (record.key) void rememberSent(ctx, testmode, record.key, job.id, record.digest);
		// The sent key, the rows' keys and the claim live in metadata: a job that lost them is not confirmed (the contract's metadata-kept).
		await keptMetadataOrThrow(ctx, guarded, job, itemIndex);
		try {
			lettersFit(ctx, itemIndex, job);
		} catch (misfit) {
			// A draft made for a confirm under the daily limit gives its claim back: it will not be confirmed.
			if (plan.kind === 'checked' && !job.confirmed) await handBack({ ctx, itemIndex, draft: job, limitKey: (await connectionSettings(ctx)).limitKey });
			throw job.confirmed === true && misfit instanceof NodeOperationError ? await cancelMisfit(ctx, itemIndex, job, misfit) : asNodeError(ctx, misfit);
		}
		// A run that checks all its parts at once (mailRun.ts) takes the draft; under a daily limit each part goes alone.
		if (part?.keyed && part.defer && plan.kind !== 'checked') {
			part.defer(job, answeredAt);
			return await printJobItems(ctx, [job], itemIndex, { ...shape, extra: { ...extra, ...shape.extra } });
		}
		if (part?.keyed && part.raced) {
			const holders = await earlierHolders(ctx, itemIndex, testmode, job, new Set(part.records.flatMap((record) => (record.key ? [record.key] : []))), answeredAt);
			// Another process made its job first: this draft goes (free), and its rows are told where they went.
			if (holders.size) return await part.raced(job, holders);
		}
		const made = turn?.under ? job : plan.kind === 'checked' ? await confirmWithinLimits(ctx, itemIndex, job, plan, turn) : confirmAfter ? await confirmById(ctx, itemIndex, job.id, plan, job) : job;
		return await printJobItems(ctx, [made], itemIndex, { ...shape, extra: { ...extra, ...shape.extra } });
	} finally {
		turn?.release(posted);
		if (check && !check.sent) check.done(created);
	}
}
