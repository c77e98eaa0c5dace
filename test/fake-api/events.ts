import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

import type { FakePrintJob } from './prints';

/** An endpoint as the Intelliprint dashboard registers it: its URL, its signing secret, and optionally the event types it takes. */
export interface WebhookTarget {
	url: string;
	/** `whsec_<base64>`, as Svix shows it. */
	secret: string;
	types?: string[];
}

/** A webhook event: flat, as the API sends them (`type` plus the object's fields). */
export interface FakeEvent {
	type: string;
	[key: string]: unknown;
}

/** One delivery attempt, as the sender saw it. */
export interface Delivery {
	url: string;
	/** The `webhook-id` header: the same for every endpoint an event goes to, as with Svix. */
	id: string;
	timestamp: number;
	type: string;
	/** The exact bytes that were signed and sent. */
	body: string;
	headers: Record<string, string>;
	/** The receiver's HTTP status; -1 when it could not be reached or did not answer in time. */
	status: number;
	error?: string;
}

/** Svix gives an endpoint about 15 seconds (ours: shorter, as tests should not wait on a stuck receiver). */
const DELIVERY_TIMEOUT_MS = 5000;

/** A new signing secret in the Svix form. */
export function newSigningSecret(): string {
	return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Signs and sends an event to every endpoint that takes its type, by the Standard Webhooks scheme (as Svix does
 * for Intelliprint): headers webhook-id, webhook-timestamp, webhook-signature (`v1,<base64 HMAC-SHA256>` over
 * `<id>.<timestamp>.<body>`). One attempt each (ours: no retry schedule); every attempt is recorded.
 */
export async function deliver(targets: WebhookTarget[], event: FakeEvent, record: Delivery[]): Promise<Delivery[]> {
	const id = `msg_${randomBytes(12).toString('hex')}`;
	const timestamp = Math.floor(Date.now() / 1000);
	const body = JSON.stringify(event);
	const chosen = targets.filter((target) => !target.types || target.types.includes(event.type));
	return await Promise.all(
		chosen.map(async (target) => {
			const signature = new Webhook(target.secret).sign(id, new Date(timestamp * 1000), body);
			const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
			const delivery: Delivery = { url: target.url, id, timestamp, type: event.type, body, headers, status: 0 };
			record.push(delivery);
			try {
				const response = await fetch(target.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
				await response.arrayBuffer();
				delivery.status = response.status;
			} catch (error) {
				delivery.status = -1;
				delivery.error = (error as Error).message;
			}
			return delivery;
		}),
	);
}

/** A letter's event body in the documented flat shape (`letter.updated`; `mail.failed` takes the same here, ours). */
export function letterEvent(type: string, job: FakePrintJob, letterId: string): FakeEvent {
	const letter = job.letters.find((entry) => entry.id === letterId)!;
	return {
		type, id: letter.id, print_id: job.id, account: job.account ?? 'acc_fake', reference: job.reference, status: letter.status,
		envelope: letter.envelope, postage_service: letter.postage_service, shipped_date: letter.shipped_date,
		returned: letter.returned ? { date: letter.returned.date, reason: letter.returned.reason } : null, testmode: job.testmode,
	};
}
