import type { IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * How a delivery's answer waits for n8n to save the static data (the delivery record) to its
 * database, so that a retry sent the moment the 2xx arrives, to another webhook processor, finds
 * the id there.
 *
 * n8n marks a workflow's static data changed when a node writes to it, and clears the mark only once
 * its UPDATE has been written (WorkflowStaticDataService.saveStaticData, n8n 1.123 and 2.41, called
 * right after n8n writes the run's answer). n8n gives a node no public way to read the mark, so it is
 * read on the workflow the webhook context runs on, where n8n-core keeps it, and trusted only when it
 * reads as set right after the node wrote the record. Where it cannot be read (another n8n), the
 * answer waits FALLBACK_MS, about what a local database takes.
 */
export const FALLBACK_MS = 30;

/** A save that has not landed by then has failed (n8n logs it): the run exists, so it is answered anyway. */
export const SAVE_LIMIT_MS = 5_000;

/** A save on PostgreSQL takes 4-400 ms on a busy host (median 14 ms, in the queue-mode suite). */
const POLL_MS = 2;

interface ChangeMark {
	__dataChanged?: unknown;
}

/**
 * Resolves once n8n has saved the static data, or at the fallback or the limit. Call it right after
 * writing the record: the mark is read at once, before anything else can save or clear it.
 */
export async function untilSaved(context: IWebhookFunctions): Promise<void> {
	const mark = changeMark(context);
	if (mark?.__dataChanged !== true) return await sleep(FALLBACK_MS);
	const started = Date.now();
	while (mark.__dataChanged === true && Date.now() - started < SAVE_LIMIT_MS) await sleep(POLL_MS);
}

function changeMark(context: IWebhookFunctions): ChangeMark | undefined {
	try {
		const { workflow } = context as unknown as { workflow?: { staticData?: unknown } };
		const staticData = workflow?.staticData;
		return typeof staticData === 'object' && staticData !== null ? (staticData as ChangeMark) : undefined;
	} catch {
		return undefined;
	}
}
