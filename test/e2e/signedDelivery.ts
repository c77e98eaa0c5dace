import { Webhook } from 'standardwebhooks';

/** A delivery as Intelliprint's sender (Svix, Standard Webhooks) makes it: the body, and headers signed now. */
export function signedDelivery(secret: string, id: string, event: object): { body: string; headers: Record<string, string> } {
	const body = JSON.stringify(event);
	const now = new Date();
	return {
		body,
		headers: {
			'content-type': 'application/json',
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': new Webhook(secret).sign(id, now, body),
		},
	};
}
