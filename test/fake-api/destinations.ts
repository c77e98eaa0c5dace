import type { Fields } from './body';
import { fail } from './http';

/**
 * What the fake does with a postage service that cannot carry a letter where it goes (ours: Intelliprint publishes
 * nothing on it, see docs/letters-abroad.md). It refuses, naming the letter, so a client that ever sends such a pair
 * is seen in a test instead of posting a letter abroad at a UK price. UK services go to the UK and the Crown
 * dependencies (Royal Mail's inland scheme); `international` goes everywhere else; postcards take UK services only
 * (the one source that speaks of it, an unofficial SDK).
 */
const INLAND = new Set(['GB', 'JE', 'GG', 'IM']);

export function refuseMisdirectedPostage(job: { type?: string | null; postage?: { service?: string | null } | null; letters: Array<{ address: { country: string | null } }> }): void {
	const service = job.postage?.service ?? 'uk_second_class';
	job.letters.forEach((letter, index) => {
		const country = (letter.address.country ?? 'GB').toUpperCase();
		const inland = INLAND.has(country);
		if (job.type === 'postcard' && !inland) {
			throw fail.invalid('parameter_invalid', `Invalid value for type: postcards are posted in the UK only, and letter ${index + 1} is addressed to ${country}.`, 'type');
		}
		if (inland === (service === 'international')) {
			const why = inland ? 'international is for addresses outside the UK' : `${service} is a UK service`;
			throw fail.invalid('parameter_invalid', `Invalid value for postage.service: ${why}, and letter ${index + 1} is addressed to ${country}.`, 'postage.service');
		}
	});
}

/**
 * The broken mode noInternational (brokenModes.ts): an account that refuses `international` on a create or an update,
 * as an API that does not post abroad (or not for this account) would, so a test sees the node's rows abroad fail loudly.
 */
export function refuseInternational(fields: Fields): void {
	const postage = typeof fields === 'object' && fields !== null ? (fields as { postage?: { service?: unknown } }).postage : undefined;
	if (postage?.service === 'international') {
		throw fail.invalid('parameter_invalid', 'Invalid value for postage.service: international is not available on this account.', 'postage.service');
	}
}
