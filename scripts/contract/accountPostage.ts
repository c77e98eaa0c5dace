import type { IDataObject } from 'n8n-workflow';

import { INTERNATIONAL } from '../../nodes/Intelliprint/addresses/postage';
import { countryLabel } from '../../nodes/Intelliprint/addresses/countryNames';
import { pounds, priceAfterTax } from '../../nodes/Intelliprint/values';
import { describeBody, type Answer } from './accountClient';
import { postDraft, UK_ADDRESS, type CheckAddress, type CheckContext } from './accountJobs';

/**
 * `postage-abroad` on the account. The node sends `international` for letters abroad and a UK service for letters
 * in the UK (addresses/postage.ts): the first is made here as a test draft and its answer read as the node reads one
 * (building/postageByDestination.ts). What the API does with the pairs the node never sends (a UK service abroad,
 * `international` in the UK, a postcard abroad) is published nowhere, so each is asked once and the row says what
 * this account did: docs/letters-abroad.md sends users here to learn it. Every draft made goes in the clean-up.
 */

const PARIS: CheckAddress = { line: '5 Rue de la Paix, Paris', postcode: '75002', country: 'FR' };
const where = (to: CheckAddress) => `${to.line.split(', ').at(-1)}, ${countryLabel(to.country)}`;

/** One test draft and what came back: the job, when the API made one. */
interface Tried {
	what: string;
	answer: Answer;
	job?: IDataObject;
}

async function tryDraft(ctx: CheckContext, name: string, what: string, fields: Record<string, string>, to: CheckAddress): Promise<Tried> {
	const answer = await postDraft(ctx, `n8n-check-${ctx.run}-${name}`, { content: '<p>n8n check</p>', ...fields }, to);
	const body = answer.body as IDataObject | undefined;
	const made = answer.status >= 200 && answer.status < 300 && typeof body === 'object' && body?.object === 'print';
	return { what, answer, job: made ? body : undefined };
}

/** Each letter as lettersFit reads it: its country (GB when it has none) and its service (else the job's). */
function lettersOf(job: IDataObject): Array<{ country: string; service: string }> {
	const jobService = String((job.postage as IDataObject | undefined)?.service ?? '');
	return ((job.letters as IDataObject[] | undefined) ?? []).map((letter) => ({
		country: String((letter.address as IDataObject | undefined)?.country || 'GB').toUpperCase(),
		service: String(letter.postage_service ?? jobService) || 'no service given',
	}));
}

/** A job the API made, in words: where its letters go, by which service, at what price a letter. */
function madeText(job: IDataObject): string {
	const letters = lettersOf(job);
	const price = priceAfterTax(job);
	const each = price === undefined || !letters.length ? 'no price given' : `${pounds(price / letters.length)} after tax a letter`;
	const goes = [...new Set(letters.map((letter) => `to ${countryLabel(letter.country)} by ${letter.service}`))].join(' and ');
	return `made test draft ${String(job.id)}: ${letters.length} letter(s) ${goes || '(none in the answer)'}, ${each}`;
}

/** What the API did with a request, in words: made as what, or refused with its own message and code. */
function outcome({ answer, job }: Tried): string {
	if (job) return `${madeText(job)} (deleted at the end)`;
	const code = (answer.body as { error?: { code?: unknown } } | null | undefined)?.error?.code;
	const refused = answer.status >= 400 && answer.status < 500 ? 'refused: ' : 'answered ';
	// The message's own full stop would end the row's sentence early.
	return `${refused}HTTP ${answer.status}${typeof code === 'string' ? ` ${code}` : ''}: ${describeBody(answer.body).replace(/\.$/, '')}`;
}

/** The pair the node sends: made, its one letter to France by international, its price read. */
function judgeAbroad(ctx: CheckContext, tried: Tried): void {
	const { answer, job } = tried;
	const told = `${tried.what}: ${outcome(tried)}`;
	ctx.log(`  ${told}`);
	// A server error says nothing of what the API does with the pair.
	if (!job && answer.status >= 500) return ctx.findings.notChecked('postage-abroad', told);
	if (!job) return ctx.findings.breach('postage-abroad', `${told}; the node sends every letter abroad by ${INTERNATIONAL}: with it refused, no row abroad can be sent`);
	const letters = lettersOf(job);
	if (!letters.length || letters.some((letter) => letter.country !== PARIS.country || letter.service !== INTERNATIONAL)) {
		return ctx.findings.breach('postage-abroad', `${tried.what}: ${madeText(job)}, not 1 letter to ${countryLabel(PARIS.country)} by ${INTERNATIONAL}`);
	}
	ctx.findings.held('postage-abroad', told);
}

/** Step 7 of check:api: the pair the node sends judged, the three it never sends told as this account answers them. */
export async function postageAbroad(ctx: CheckContext): Promise<void> {
	const service = (name: string) => ({ 'postage[service]': name });
	judgeAbroad(ctx, await tryDraft(ctx, 'abroad', `POST /prints with postage[service]=${INTERNATIONAL} to ${where(PARIS)}`, service(INTERNATIONAL), PARIS));
	const neverSent = [
		await tryDraft(ctx, 'uk-abroad', `uk_second_class to ${where(PARIS)} (the node never sends this pair)`, service('uk_second_class'), PARIS),
		await tryDraft(ctx, 'postcard-abroad', `a postcard by ${INTERNATIONAL} to ${where(PARIS)} (the node refuses postcards abroad itself)`, { type: 'postcard', ...service(INTERNATIONAL) }, PARIS),
		await tryDraft(ctx, 'international-uk', `${INTERNATIONAL} to ${where(UK_ADDRESS)} (the node never sends this pair)`, service(INTERNATIONAL), UK_ADDRESS),
	];
	for (const tried of neverSent) {
		const told = `${tried.what}: ${outcome(tried)}`;
		ctx.log(`  ${told}`);
		ctx.findings.held('postage-abroad', told);
	}
}
