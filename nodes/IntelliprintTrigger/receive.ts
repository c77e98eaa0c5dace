import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { firstDelivery, type DeliveryScope } from './deliveries';
import { ignoredBecause, readEvent } from './event';
import { signingKey, verifySignature, type Headers } from './signature';

type RawRequest = ReturnType<IWebhookFunctions['getRequestObject']> & {
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
};

/** With signatures off the id is unverified: only a plain, bounded one is worth remembering. */
const SANE_ID = /^[\x21-\x7e]{1,256}$/;

/** The trigger's webhook(): never throws, so n8n saves no error execution for a delivery. */
export async function handleDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	try {
		return await receive(context);
	} catch (error) {
		// receive() answers everything a sender can send without throwing, so only n8n's side can
		// fail here (a parameter, the static data, the response object). 500 says the fault is ours,
		// and the sender retries later; a thrown error would answer 500 too, but also save an error
		// execution for every retry.
		context.logger.error('Intelliprint Trigger could not handle a delivery', { error });
		try {
			return answer(context, 500, { error: 'The delivery could not be handled; it will be retried' });
		} catch {
			// No response object to answer on: there is nobody left to tell.
			return { noWebhookResponse: true };
		}
	}
}

/**
 * One delivery, along one path: signature (when on), then the body must be an event, then the
 * trigger's filter, then one execution per delivery id. Every outcome is a short JSON answer sent
 * by the node, an accepted delivery's a moment later (answerAfterSave): returning
 * `noWebhookResponse` with `workflowData` makes n8n (webhook-helpers executeWebhook in n8n 2.41)
 * answer nothing itself and still start the run. Returning `webhookResponse` with `workflowData`
 * would not do: n8n then answers with the description's `responseData` (by default the literal
 * text "firstEntryJson"), and in queue mode it loses the static data change before saving it.
 *
 * Nothing here throws for anything the sender controls: each step that reads sender input is a
 * plain function that reports what it found.
 */
async function receive(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = context.getRequestObject() as RawRequest;
	let raw: Buffer;
	try {
		if (!Buffer.isBuffer(request.rawBody) && request.readRawBody) await request.readRawBody();
		raw = Buffer.isBuffer(request.rawBody) ? request.rawBody : Buffer.alloc(0);
	} catch {
		// An aborted upload, or a body n8n has already consumed (multipart form data): the sender's doing.
		return answer(context, 400, { error: 'The request body could not be read' });
	}
	const headers = context.getHeaderData() as Headers;

	let deliveryId: string | undefined;
	// Only an explicit false turns the check off.
	if (context.getNodeParameter('verifySignatures', true) !== false) {
		const key = await readSigningKey(context);
		if (!key) {
			// The credential is the operator's to fix, not the sender's: a 5xx says the fault is ours,
			// and Svix keeps retrying for a day, so events sent meanwhile arrive once it is fixed.
			return answer(context, 500, {
				error: 'The signing secret could not be read. Check the Intelliprint Trigger credential.',
			});
		}
		const verification = verifySignature(key, headers, raw);
		if (!verification.valid) return answer(context, 401, { error: `Signature check failed: ${verification.reason}` });
		deliveryId = verification.id;
	} else {
		const id = headers['webhook-id'] ?? headers['svix-id'];
		deliveryId = typeof id === 'string' && SANE_ID.test(id) ? id : undefined;
	}

	const reading = readEvent(raw);
	if (!reading.valid) return answer(context, 400, { error: reading.reason });
	const event = reading.event;

	const ignored = ignoredBecause(event, {
		event: context.getNodeParameter('event', ''),
		letterStatuses: context.getNodeParameter('letterStatuses', []),
	});
	if (ignored) return answer(context, 200, { received: true, ignored });

	if (deliveryId !== undefined && !isFirstDelivery(context, deliveryId)) {
		return answer(context, 200, { received: true, ignored: 'duplicate delivery' });
	}
	// Built by hand: helpers.returnJsonArray would take an event with a `json` or `binary` key for an item.
	void answerAfterSave(context);
	return { noWebhookResponse: true, workflowData: [[{ json: event }]] };
}

/**
 * How long an accepted delivery's answer waits. n8n starts saving the static data, and so this
 * delivery's id, as soon as webhook() returns, and says nothing when it is done; an answer sent
 * before the save could bring Intelliprint's retry (after a lost answer) to another webhook
 * processor before the id is there. A local database saves in a few milliseconds.
 */
const SAVE_GRACE_MS = 30;

async function answerAfterSave(context: IWebhookFunctions): Promise<void> {
	await sleep(SAVE_GRACE_MS);
	try {
		answer(context, 200, { received: true });
	} catch (error) {
		// The sender hung up: its retry will be recognised as a duplicate.
		context.logger.warn('Intelliprint Trigger could not answer a delivery', { error });
	}
}

async function readSigningKey(context: IWebhookFunctions): Promise<Buffer | undefined> {
	try {
		const credential = await context.getCredentials<{ signingSecret?: unknown }>('intelliprintWebhookApi');
		return signingKey(credential.signingSecret);
	} catch (error) {
		context.logger.error('Intelliprint Trigger: the webhook credential could not be read', { error });
		return undefined;
	}
}

/**
 * Test runs (the Test URL) neither read nor write the saved record: n8n does not save a test run's
 * static data, a test delivery must not make production skip the same event, and an event that
 * production already ran can still be replayed to the Test URL. Repeats within test runs are still
 * caught, in memory.
 */
function isFirstDelivery(context: IWebhookFunctions, id: string): boolean {
	try {
		const mode = context.getMode();
		const scope: DeliveryScope = {
			trigger: `${mode}:${context.getWorkflow().id ?? ''}:${context.getNode().id}`,
			saved: mode === 'manual' ? undefined : (context.getWorkflowStaticData('node') as IDataObject),
		};
		return firstDelivery(scope, id);
	} catch (error) {
		// A verified, well-formed event is better run twice than lost.
		context.logger.warn('Intelliprint Trigger: duplicate check unavailable, starting the workflow', { error });
		return true;
	}
}

/** Sends a JSON answer now; n8n is told not to answer again. */
function answer(context: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const response = context.getResponseObject();
	if (!response.headersSent) response.status(status).json(body);
	return { noWebhookResponse: true };
}
