import * as crypto from 'crypto';

/** An address as the node sends it and as the API lists it on a letter. */
export interface PostalAddress {
	name?: unknown;
	line?: unknown;
	postcode?: unknown;
	country?: unknown;
}

export const DIGEST_CHARS = 6;
/** Printable ASCII and line breaks: text whose NFKC form is itself. */
const ASCII = /^[ -~\n]*$/;

/**
 * A short digest of an address, the same for the recipient the node sent and the letter the API lists: letters and
 * digits only, in lower case, so that the API's own way of writing it (lines joined by a comma or a line break, a
 * postcode without its space, capitals) does not change it. It is how a letter is told from the others of its job
 * (rowRecords.ts): the API does not say its letters follow the recipients' order. 36 bits: two different addresses
 * among 5,000 letters of one job share one about once in 14,000 jobs.
 */
export function addressDigest(address: PostalAddress | undefined): string {
	const plain = (value: unknown) => {
		const text = String(value ?? '');
		// ASCII is its own NFKC form, and its letters and digits are [a-z0-9] once lower case: the same digest, cheaper.
		return ASCII.test(text) ? text.toLowerCase().replace(/[^a-z0-9]+/g, '') : text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
	};
	const text = [plain(address?.name), plain(address?.line), plain(address?.postcode), plain(address?.country || 'GB')].join('|');
	// crypto.hash (Node 20.12 and later) makes no Hash object per call: the same bytes, a third of the time.
	const digest = typeof crypto.hash === 'function' ? crypto.hash('sha256', text, 'base64url') : crypto.createHash('sha256').update(text).digest('base64url');
	return digest.slice(0, DIGEST_CHARS);
}
