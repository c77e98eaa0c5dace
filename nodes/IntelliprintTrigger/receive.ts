import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { digest, hourOf, recordOf } from './deliveries';
import { ignoredBecause, readEvent } from './event';
import { signingKey, verifySignature, type Headers } from './signature';
import { untilSaved } from './staticDataSave';

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
 * trigger's filter, then one run per delivery id. Refusals, ignored events and duplicates are
 * answered here. An accepted delivery is answered by the run itself (see the trigger's execute()),
 * so a 2xx always means n8n has created and started the run; when n8n cannot (a locked or lost
 * database, shutting down), it answers 500 itself and the sender retries.
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

	// Built by hand: helpers.returnJsonArray would take an event with a `json` or `binary` key for an item.
	const run: IWebhookResponseData = { workflowData: [[{ json: event }]] };
	return deliveryId === undefined ? run : await startOnce(context, deliveryId, run);
}

/**
 * How long a delivery waits for the one before it to be answered. n8n answers or fails a run it
 * is creating well within this; past it (n8n stuck) the delivery goes ahead rather than wait on.
 */
const TURN_LIMIT_MS = 60_000;

/**
 * Starts `run` unless the delivery id was accepted before. The id counts as accepted only once
 * the run's 2xx has gone out: a delivery whose run n8n could not create, or whose sender hung up
 * before the answer, is not remembered, so its retry runs (never lost wins over once).
 */
async function startOnce(context: IWebhookFunctions, id: string, run: IWebhookResponseData): Promise<IWebhookResponseData> {
	const scope = deliveryScope(context);
	const record = recordOf(scope.trigger);
	const endTurn = await record.takeTurn(sleep, TURN_LIMIT_MS);
	let handedOver = false;
	try {
		const response = context.getResponseObject();
		// The sender gave up while this waited: no run; it will send the delivery again.
		// (The request stream itself counts as destroyed once its body has been read: look at the socket.)
		if (response.writableEnded || !response.socket || response.socket.destroyed) return { noWebhookResponse: true };
		const now = Math.floor(Date.now() / 1000);
		const key = digest(id);
		const hour = hourOf(now);
		if (scope.saved) record.absorb(scope.saved.deliveries, hour);
		if (record.has(key)) return answer(context, 200, { received: true, ignored: 'duplicate delivery' });
		record.prune(hour);
		// A fresh object each time: assigning it marks the static data changed.
		if (scope.saved) scope.saved.deliveries = record.toSaved({ key, hour });
		whenAnswered(context, scope.saved, (accepted) => {
			if (accepted) record.add(key, hour);
			if (accepted && scope.saved) scope.saved.deliveries = record.toSaved();
			endTurn();
		});
		handedOver = true;
		return run;
	} finally {
		if (!handedOver) endTurn();
	}
}

type Response = ReturnType<IWebhookFunctions['getResponseObject']>;

/**
 * Calls back once: true when n8n writes the run's 2xx (the run exists then), false when it answers
 * anything else or the connection ends first. At the 2xx, `done` writes the record again, just
 * before n8n saves it: setting up the run re-wraps the static data and clears its "changed" mark
 * (n8n 2.41 and 1.123, ObservableObject.create), and by then the record may also hold ids
 * accepted while this run was being made. n8n writes the answer first and saves after, so the
 * bytes are held until the save has landed (see staticDataSave.ts): a sender that retries the
 * moment it has the 2xx, at another webhook processor, finds the id saved. n8n's own second end()
 * call, a tick on, is held with them.
 */
function whenAnswered(context: IWebhookFunctions, saved: IDataObject | undefined, done: (accepted: boolean) => void): void {
	const response: Response = context.getResponseObject();
	let called = false;
	const settle = (accepted: boolean) => {
		if (called) return;
		called = true;
		done(accepted);
	};
	const end = response.end;
	let held = false;
	response.end = function (this: Response, ...args: Parameters<typeof end>) {
		if (held) return this;
		const accepted = response.statusCode >= 200 && response.statusCode < 300;
		settle(accepted);
		if (!accepted || !saved) {
			response.end = end;
			return end.apply(this, args);
		}
		held = true;
		void untilSaved(context).then(() => {
			response.end = end;
			end.apply(response, args);
		});
		return this;
	} as typeof end;
	// Before n8n writes an answer, the sender never saw a 2xx.
	response.once('close', () => settle(false));
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
 * Which record a delivery belongs to. Test runs (the Test URL) neither read nor write the saved
 * record: n8n does not save a test run's static data, a test delivery must not make production skip
 * the same event, and an event that production already ran can still be replayed to the Test URL.
 * Repeats within test runs are still caught, in memory.
 */
function deliveryScope(context: IWebhookFunctions): { trigger: string; saved?: IDataObject } {
	const mode = context.getMode();
	const trigger = `${mode}:${context.getWorkflow().id ?? ''}:${context.getNode().id}`;
	if (mode === 'manual') return { trigger };
	try {
		return { trigger, saved: context.getWorkflowStaticData('node') as IDataObject };
	} catch (error) {
		// A verified, well-formed event is better run twice than lost.
		context.logger.warn('Intelliprint Trigger: the saved delivery record is unavailable', { error });
		return { trigger };
	}
}

/** Sends a JSON answer now; n8n is told not to answer again. */
function answer(context: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const response = context.getResponseObject();
	if (!response.headersSent) response.status(status).json(body);
	return { noWebhookResponse: true };
}
