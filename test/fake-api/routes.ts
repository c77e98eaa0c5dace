import type { Fields } from './body';
import { afterWrite, bendListAnswer, bentFields, bentListQuery, bentSorts, type Modes } from './brokenModes';
import { fail, publicView } from './http';
import { BACKGROUND_SORTS, MAILING_LIST_SORTS, PRINT_SORTS, RECIPIENT_SORTS } from './lists';
import type { FakePrintJob } from './prints';
import type { FakeIntelliprint } from './server';

type Answer = [number, unknown];
const ok = (body: unknown): Answer => [200, publicView(body)];
const idOf = (segment: string | undefined) => (segment === undefined ? undefined : decodeURIComponent(segment));

/** A print job's price as `withholdCost` says the API answers it: given, left out, or not a number. */
function priced(fake: FakeIntelliprint, answer: Answer | undefined): Answer | undefined {
	if (!answer || !fake.withholdCost) return answer;
	const strip = (job: unknown) => {
		if (typeof job !== 'object' || job === null || (job as { object?: string }).object !== 'print') return;
		const entry = job as { cost?: unknown };
		if (fake.withholdCost === 'absent') delete entry.cost;
		else entry.cost = { amount: 'unknown', after_tax: null, currency: 'GBP' };
	};
	const body = answer[1] as { data?: unknown[] };
	for (const job of Array.isArray(body?.data) ? body.data : [body]) strip(job);
	return answer;
}

async function prints(fake: FakeIntelliprint, method: string, id: string | undefined, url: URL, fields: Fields, modes: Modes): Promise<Answer | undefined> {
	return priced(fake, await printAnswer(fake, method, id, url, fields, modes));
}

/** A list of print jobs, as the broken modes (brokenModes.ts) bend it. */
function printList(fake: FakeIntelliprint, url: URL, modes: Modes): Answer {
	const query = bentListQuery(modes, url.searchParams);
	const envelope = fake.listEnvelope(fake.prints.list(query), query, bentSorts(modes, PRINT_SORTS), fake.ignoreSkip || modes.has('ignoreSkip'));
	return [200, bendListAnswer(modes, query, envelope)];
}

/** A new job's letters in the order `letterOrder` says (a fixed shuffle: the same run gives the same order). */
function ordered(fake: FakeIntelliprint, job: FakePrintJob): FakePrintJob {
	if (fake.letterOrder === 'reversed') job.letters.reverse();
	if (fake.letterOrder === 'shuffled') {
		for (let at = job.letters.length - 1, seed = 7; at > 0; at--) {
			seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
			const other = seed % (at + 1);
			[job.letters[at], job.letters[other]] = [job.letters[other], job.letters[at]];
		}
	}
	return job;
}

async function printAnswer(fake: FakeIntelliprint, method: string, id: string | undefined, url: URL, fields: Fields, modes: Modes): Promise<Answer | undefined> {
	const written = (job: FakePrintJob) => (afterWrite(modes, job), ok(job));
	if (!id && method === 'POST') return written(ordered(fake, await fake.prints.create(bentFields(modes, fields), fake.anyService)));
	if (!id && method === 'GET') return printList(fake, url, modes);
	if (id && method === 'GET') return ok(fake.prints.get(id));
	if (id && method === 'POST') return written(await fake.prints.update(id, bentFields(modes, fields), fake.anyService));
	if (id && method === 'DELETE') return ok(fake.prints.remove(id));
	return undefined;
}

function backgrounds(fake: FakeIntelliprint, method: string, id: string | undefined, url: URL, fields: Fields): Answer | undefined {
	if (!id && method === 'POST') return ok(fake.backgrounds.create(fields));
	if (!id && method === 'GET') return [200, fake.listEnvelope(fake.backgrounds.list(url.searchParams), url.searchParams, BACKGROUND_SORTS)];
	if (id && method === 'GET') return ok(fake.backgrounds.get(id));
	// The reference says PATCH; the official SDK sends POST to the same path.
	if (id && (method === 'PATCH' || method === 'POST')) return ok(fake.backgrounds.update(id, fields));
	if (id && method === 'DELETE') return ok(fake.backgrounds.remove(id));
	return undefined;
}

/** `/mailing_lists[/{id}[/recipients[/{id}]]]`, each answered as the API's table says. */
function mailingLists(fake: FakeIntelliprint, method: string, match: RegExpExecArray, url: URL, fields: Fields): Answer | undefined {
	const store = fake.mailingLists;
	const [listId, recipients, recipientId] = [idOf(match[1]), match[2], idOf(match[3])];
	if (!listId && method === 'POST') return ok(store.create(fields));
	if (!listId && method === 'GET') return [200, fake.listEnvelope(store.list(), url.searchParams, MAILING_LIST_SORTS)];
	if (!listId) return undefined;
	if (!recipients) {
		if (method === 'GET') return ok(store.get(listId));
		if (method === 'POST') return ok(store.update(listId, fields));
		if (method === 'DELETE') return ok(store.remove(listId));
		return undefined;
	}
	if (!recipientId && method === 'POST') return ok(store.addRecipient(listId, fields));
	if (!recipientId && method === 'GET') return [200, fake.listEnvelope(store.recipients(listId), url.searchParams, RECIPIENT_SORTS)];
	if (recipientId && method === 'GET') return ok(store.getRecipient(listId, recipientId));
	if (recipientId && method === 'POST') return ok(store.updateRecipient(listId, recipientId, fields));
	if (recipientId && method === 'DELETE') return ok(store.removeRecipient(listId, recipientId));
	return undefined;
}

/** The API's routes: the answer to a request, or a thrown failure (404 for anything it does not know). */
export async function route(fake: FakeIntelliprint, method: string, url: URL, fields: Fields, modes: Modes = new Set()): Promise<Answer> {
	// `/v1-moved` is the same API under another path: the target of same-host redirects.
	const path = url.pathname.replace(/^\/v1-moved(?=\/|$)/, '/v1').replace(/\/+$/, '');
	let answer: Answer | undefined;
	const print = /^\/v1\/prints(?:\/([^/]+))?$/.exec(path);
	if (print) answer = await prints(fake, method, idOf(print[1]), url, fields, modes);
	const background = /^\/v1\/backgrounds(?:\/([^/]+))?$/.exec(path);
	if (background) answer = backgrounds(fake, method, idOf(background[1]), url, fields);
	const list = /^\/v1\/mailing_lists(?:\/([^/]+)(?:\/(recipients)(?:\/([^/]+))?)?)?$/.exec(path);
	if (list) answer = mailingLists(fake, method, list, url, fields);
	if (path === '/v1/tools/merge' && method === 'POST') answer = [200, await fake.merges.merge(fields)];
	if (!answer) throw fail.notFound(`${method} ${url.pathname}`);
	return answer;
}
