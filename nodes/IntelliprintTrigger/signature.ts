import { createHmac, timingSafeEqual } from 'node:crypto';

/** Svix retries for about a day, but a signed event older than this is refused as a possible replay. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export type Headers = Record<string, string | string[] | undefined>;

export type Verification = { valid: true; id: string } | { valid: false; reason: string };

function first(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a Standard Webhooks (Svix) signature over the raw request bytes: HMAC-SHA256 of
 * "<id>.<timestamp>.<body>" keyed with the base64 secret after "whsec_". Accepts the `webhook-*`
 * and the `svix-*` header names, and any of several space-separated "v1,<sig>" entries (key rotation).
 */
export function verifySignature(
	secret: string,
	headers: Headers,
	rawBody: Buffer,
	nowSeconds = Math.floor(Date.now() / 1000),
): Verification {
	const family = first(headers, 'webhook-signature') !== undefined ? 'webhook' : 'svix';
	const id = first(headers, `${family}-id`);
	const timestamp = first(headers, `${family}-timestamp`);
	const signatures = first(headers, `${family}-signature`);
	if (!id || !timestamp || !signatures) return { valid: false, reason: 'missing signature headers' };
	if (!/^\d+$/.test(timestamp)) return { valid: false, reason: 'malformed timestamp' };
	if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
		return { valid: false, reason: 'timestamp outside the 5 minute tolerance' };
	}
	const key = Buffer.from(secret.trim().replace(/^whsec_/, ''), 'base64');
	const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
	for (const entry of signatures.split(' ')) {
		const [version, signature] = entry.split(',');
		if (version !== 'v1' || !signature) continue;
		const candidate = Buffer.from(signature, 'base64');
		if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return { valid: true, id };
	}
	return { valid: false, reason: 'no signature matches' };
}
