import { createHmac, timingSafeEqual } from 'node:crypto';

/** Svix retries for about a day, but a signed event older than this is refused as a possible replay. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export type Headers = Record<string, string | string[] | undefined>;

export type Verification = { valid: true; id: string } | { valid: false; reason: string };

function header(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	const single = Array.isArray(value) ? value[0] : value;
	return typeof single === 'string' ? single : undefined;
}

/**
 * The HMAC key of a "whsec_<base64>" secret, or undefined when there is none: an empty key would
 * let anyone sign, so such a secret must never reach the check.
 */
export function signingKey(secret: unknown): Buffer | undefined {
	if (typeof secret !== 'string') return undefined;
	const key = Buffer.from(secret.trim().replace(/^whsec_/, ''), 'base64');
	return key.length ? key : undefined;
}

/**
 * Checks a Standard Webhooks (Svix) signature over the raw request bytes: HMAC-SHA256 of
 * "<id>.<timestamp>.<body>". Accepts the `webhook-*` and the `svix-*` header names, and any of
 * several space-separated "v1,<sig>" entries (key rotation). A signature must be exactly the
 * canonical padded base64 of the HMAC: Buffer's base64 decoder would also take trailing junk,
 * missing padding and base64url, which the scheme does not allow.
 */
export function verifySignature(
	key: Buffer,
	headers: Headers,
	rawBody: Buffer,
	nowSeconds = Math.floor(Date.now() / 1000),
): Verification {
	const family = header(headers, 'webhook-signature') !== undefined ? 'webhook' : 'svix';
	const id = header(headers, `${family}-id`);
	const timestamp = header(headers, `${family}-timestamp`);
	const signatures = header(headers, `${family}-signature`);
	if (!id || !timestamp || !signatures) return { valid: false, reason: 'missing signature headers' };
	if (!/^\d{1,15}$/.test(timestamp)) return { valid: false, reason: 'malformed timestamp' };
	if (Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
		return { valid: false, reason: 'timestamp outside the 5 minute tolerance' };
	}
	const expected = Buffer.from(
		createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64'),
	);
	let matched = false;
	for (const entry of signatures.split(' ')) {
		const comma = entry.indexOf(',');
		if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
		const given = Buffer.from(entry.slice(comma + 1));
		// Every entry is compared, so the time taken does not tell which one (if any) matched.
		if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
	}
	return matched ? { valid: true, id } : { valid: false, reason: 'no signature matches' };
}
