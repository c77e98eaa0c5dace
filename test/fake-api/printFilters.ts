import { fail, newestFirst } from './http';
import type { FakePrintJob } from './prints';
import { LETTER_STATUSES } from './schema';

/** The print jobs a list query asks for (`GET /prints`), newest first; a filter value the API would refuse is refused. */
export function filterPrints(jobs: Iterable<FakePrintJob>, query: URLSearchParams): FakePrintJob[] {
	const testmode = query.get('testmode') === 'true';
	const confirmed = query.get('confirmed');
	const statuses = query.get('letters.status')?.split(',').filter(Boolean);
	for (const status of statuses ?? []) {
		if (!(LETTER_STATUSES as readonly string[]).includes(status)) throw fail.invalid('parameter_invalid', `Invalid letter status: ${status}.`, 'letters.status');
	}
	const reference = query.get('reference');
	const type = query.get('type');
	if (type !== null && type !== 'letter' && type !== 'postcard') throw fail.invalid('parameter_invalid', 'Invalid value for type: must be letter or postcard.', 'type');
	const acknowledged = query.get('letters.returned.acknowledged');
	if (acknowledged !== null && acknowledged !== 'true' && acknowledged !== 'false') {
		throw fail.invalid('parameter_invalid', 'Invalid value for letters.returned.acknowledged: must be true or false.', 'letters.returned.acknowledged');
	}
	return [...jobs]
		.filter((job) => job.testmode === testmode)
		.filter((job) => confirmed === null || String(job.confirmed) === confirmed)
		.filter((job) => !statuses || job.letters.some((letter) => statuses.includes(letter.status)))
		.filter((job) => reference === null || job.reference === reference)
		.filter((job) => type === null || (job.type ?? 'letter') === type)
		// Jobs with a returned letter whose acknowledgement is as asked.
		.filter((job) => acknowledged === null || job.letters.some((letter) => letter.returned && String(letter.returned.acknowledged) === acknowledged))
		.sort(newestFirst);
}
