import type { Fault, FakeIntelliprint } from '../fake-api/server';
import type { RunItem } from './n8n';

/**
 * The cases of test/e2e/outcomes.test.ts (issue 39: "every input item comes out exactly once, as a result or as an
 * error carrying its own reason"): every operation of the action node that takes items, three situations, three On
 * Error settings; and how a cell's outcome is read from n8n's run data.
 */

export const SITUATIONS = ['refused', 'row', 'network'] as const;
export type Situation = (typeof SITUATIONS)[number];
export const SITUATION_LABELS: Record<Situation, string> = {
	refused: '(a) whole request refused',
	row: '(b) row 2 refused',
	network: '(c) connection dropped on item 2',
};

export const ON_ERROR = ['continueErrorOutput', 'continueRegularOutput', 'stopWorkflow'] as const;
export type OnError = (typeof ON_ERROR)[number];
export const ON_ERROR_LABELS: Record<OnError, string> = {
	continueErrorOutput: 'Continue (error output)',
	continueRegularOutput: 'Continue',
	stopWorkflow: 'Stop Workflow',
};

/** The rows every cell gets; (b) swaps in a variant where row 2 is the refused one. */
export type Rows = 'good' | 'noPostcode' | 'notPdf';
export const ROWS_NODES: Record<Rows, string> = { good: 'Rows', noPostcode: 'Rows, row 2 without postcode', notPdf: 'Rows, row 2 not a PDF' };
const PEOPLE = [
	{ name: 'Ada Lovelace', address: '1 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r1' },
	{ name: 'Alan Turing', address: '2 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r2' },
	{ name: 'Grace Hopper', address: '3 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r3' },
];

/** A Code node's JavaScript returning the three rows, each with two PDFs (binary `a` and `b`). */
export function rowsCode(rows: Rows, pdf: Buffer): string {
	const file = (data: Buffer, fileName: string, mimeType: string) => ({ data: data.toString('base64'), fileName, mimeType });
	const items = PEOPLE.map((person, index) => {
		const second = index === 1;
		const a = second && rows === 'notPdf' ? file(Buffer.from('Minutes of the meeting, as plain text.'), 'minutes.txt', 'text/plain') : file(pdf, `a${index + 1}.pdf`, 'application/pdf');
		return { json: { ...person, postcode: second && rows === 'noPostcode' ? '' : person.postcode }, binary: { a, b: file(pdf, `b${index + 1}.pdf`, 'application/pdf') } };
	});
	return `return ${JSON.stringify(items)};`;
}

/** What a fake holds before the run, for the operations that name existing things. */
export interface Seeded {
	ids: string[];
	list?: string;
}

/** How row 2 is refused in situation (b), and the words that show the refusal is row 2's own. */
const REFUSALS = {
	noPostcode: { rows: 'noPostcode', marker: /postcode/i, missing: undefined },
	notPdf: { rows: 'notPdf', marker: /not a PDF/i, missing: undefined },
	missingId: { rows: 'good', marker: /_missing2|not found|no such/i, missing: true },
	badLimit: { rows: 'good', marker: /limit/i, missing: undefined },
} as const;
type Refusal = keyof typeof REFUSALS;

export interface OperationCase {
	label: string;
	resource: string;
	operation: string;
	/** The operation's request, which situations (a) and (c) act on; none: it sends nothing (Address → Check). */
	request?: { method: string; path: RegExp };
	/** One request for every row (a mail run, a list, a merge across items) rather than one per row. */
	run?: boolean;
	/** Makes something the API has no idempotency key for: a dropped create must not be sent again. */
	creates?: boolean;
	/** The item's own path, for per-ID operations: situation (c) drops item 2's request alone. */
	itemPath?: (id: string) => RegExp;
	/** Without "Items in Parallel": the credential allows one request at a time, so item 2's request is the second. */
	serial?: boolean;
	refusal: Refusal;
	/** Row 2's refusal is the answer itself (Address → Check's verdict), on the main output. */
	verdicts?: boolean;
	/** One result from all rows: one refused row may fail the rest, with its reason, if their errors name it. */
	allOrNothing?: boolean;
	seed?: (fake: FakeIntelliprint, pdf: Buffer) => Promise<Seeded>;
	parameters: (ids: string[], seeded: Seeded, situation: Situation) => Record<string, unknown>;
}

/** An expression giving each item its own value. */
const perRow = (values: unknown[]) => `={{ ${JSON.stringify(values)}[$itemIndex] }}`;
const locator = (value: string) => ({ __rl: true, mode: 'id', value });
const byRow = (ids: string[]) => locator(perRow(ids));
const fromRows = { recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none' };
const limit = (situation: Situation) => ({ returnAll: false, limit: situation === 'row' ? perRow([10, 2.5, 10]) : 10 });
const under = (path: string) => new RegExp(`^/v1/${path}$`);
const own = (prefix: string) => (id: string) => new RegExp(`/${prefix}${id}$`);

const ADDRESS = { name: 'Seeded Person', line: '9 Mill Lane\nBath', postcode: 'BA1 1LZ', country: 'GB' };
const seedJobs = async (fake: FakeIntelliprint) => ({
	ids: await Promise.all([1, 2, 3].map(async () => (await fake.prints.create({ content: '<p>Seeded</p>', recipients: [{ address: ADDRESS }], testmode: true })).id)),
});
const upTo = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
const seedBackgrounds = async (fake: FakeIntelliprint, pdf: Buffer, count = 3) => ({
	ids: upTo(count).map((n) => fake.backgrounds.create({ file: { fileName: `letterhead${n}.pdf`, contentType: 'application/pdf', data: pdf }, name: `Letterhead ${n}` }).id),
});
const seedLists = async (fake: FakeIntelliprint, count = 3) => ({ ids: upTo(count).map((n) => fake.mailingLists.create({ name: `List ${n}`, recipients: [{ address: ADDRESS }] }).id) });
const seedOneList = async (fake: FakeIntelliprint) => {
	const list = fake.mailingLists.create({ name: 'Members', recipients: [1, 2, 3].map((n) => ({ address: { ...ADDRESS, name: `Member ${n}` } })) }).id;
	return { list, ids: fake.mailingLists.recipients(list).map((recipient) => recipient.id).reverse() };
};

const PRINT_JOB = '/v1/prints/print_[^/]+$';
const BACKGROUND = '/v1/backgrounds/bg_[^/]+$';
const LIST = '/v1/mailing_lists/mal_[^/]+$';
const RECIPIENT = '/v1/mailing_lists/mal_[^/]+/recipients/[^/]+$';
const perItemJob = (operation: string, method: string, extra: Record<string, unknown> = {}): OperationCase => ({
	label: `Print Job → ${operation === 'delete' ? 'Cancel or Delete' : operation[0].toUpperCase() + operation.slice(1)}`,
	resource: 'printJob', operation, request: { method, path: new RegExp(PRINT_JOB) }, itemPath: own('prints/'), refusal: 'missingId', seed: seedJobs,
	parameters: (ids) => ({ printJob: byRow(ids), ...extra }),
});
const perItemBackground = (operation: string, label: string, method: string, extra: Record<string, unknown> = {}): OperationCase => ({
	label: `Background → ${label}`, resource: 'background', operation, request: { method, path: new RegExp(BACKGROUND) }, itemPath: own('backgrounds/'),
	refusal: 'missingId', seed: async (fake, pdf) => await seedBackgrounds(fake, pdf), parameters: (ids) => ({ background: byRow(ids), ...extra }),
});
const perItemRecipient = (operation: string, label: string, method: string, extra: Record<string, unknown> = {}): OperationCase => ({
	label: `Mailing List Recipient → ${label}`, resource: 'mailingListRecipient', operation, request: { method, path: new RegExp(RECIPIENT) },
	itemPath: own('recipients/'), refusal: 'missingId', seed: seedOneList,
	parameters: (ids, seeded) => ({ mailingList: locator(seeded.list!), recipientId: perRow(ids), ...extra }),
});
const createJob = (recipientsFrom: string) => (): Record<string, unknown> => ({
	source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom, ...fromRows, testmode: true, confirmed: false, options: { parallelItems: 1 },
});

export const OPERATIONS: OperationCase[] = [
	{ label: 'Address → Check', resource: 'address', operation: 'check', refusal: 'noPostcode', verdicts: true, parameters: () => ({ ...fromRows }) },
	{
		label: 'Print Job → Create (Each Item)', resource: 'printJob', operation: 'create', request: { method: 'POST', path: under('prints') },
		creates: true, refusal: 'noPostcode', parameters: createJob('eachItem'),
	},
	{
		label: 'Print Job → Create (All Input Items)', resource: 'printJob', operation: 'create', request: { method: 'POST', path: under('prints') },
		run: true, creates: true, refusal: 'noPostcode', parameters: createJob('allItems'),
	},
	perItemJob('get', 'GET'),
	perItemJob('update', 'POST', { updateFields: { reference: 'Changed by the test' } }),
	perItemJob('confirm', 'POST'),
	perItemJob('delete', 'DELETE'),
	{
		label: 'Print Job → Get Many', resource: 'printJob', operation: 'getMany', request: { method: 'GET', path: under('prints') }, refusal: 'badLimit',
		seed: async (fake) => ({ ids: fake.prints.seed(1).map((job) => job.id) }), parameters: (_, __, situation) => limit(situation),
	},
	{
		label: 'Background → Create', resource: 'background', operation: 'create', request: { method: 'POST', path: under('backgrounds') }, creates: true,
		serial: true, refusal: 'notPdf', parameters: () => ({ binaryPropertyName: 'a', name: 'Letterhead' }),
	},
	perItemBackground('get', 'Get', 'GET'),
	perItemBackground('update', 'Update', 'PATCH', { updateFields: { name: 'Renamed by the test' } }),
	perItemBackground('delete', 'Delete', 'DELETE'),
	{
		label: 'Background → Get Many', resource: 'background', operation: 'getMany', request: { method: 'GET', path: under('backgrounds') }, refusal: 'badLimit',
		seed: async (fake, pdf) => await seedBackgrounds(fake, pdf, 1), parameters: (_, __, situation) => limit(situation),
	},
	{
		label: 'Mailing List → Create', resource: 'mailingList', operation: 'create', request: { method: 'POST', path: under('mailing_lists') }, run: true,
		creates: true, refusal: 'noPostcode', parameters: () => ({ name: 'Outcome list', addRecipients: true, ...fromRows }),
	},
	{
		label: 'Mailing List → Get', resource: 'mailingList', operation: 'get', request: { method: 'GET', path: new RegExp(LIST) }, itemPath: own('mailing_lists/'),
		refusal: 'missingId', seed: async (fake) => await seedLists(fake), parameters: (ids) => ({ mailingList: byRow(ids) }),
	},
	{
		label: 'Mailing List → Get Many', resource: 'mailingList', operation: 'getMany', request: { method: 'GET', path: under('mailing_lists') }, refusal: 'badLimit',
		seed: async (fake) => await seedLists(fake, 1), parameters: (_, __, situation) => limit(situation),
	},
	{
		label: 'Mailing List → Update (Add the Input Items)', resource: 'mailingList', operation: 'update', request: { method: 'POST', path: new RegExp(LIST) },
		run: true, creates: true, refusal: 'noPostcode', seed: seedOneList,
		parameters: (_, seeded) => ({ mailingList: locator(seeded.list!), recipientsAction: 'append', ...fromRows }),
	},
	{
		label: 'Mailing List → Delete', resource: 'mailingList', operation: 'delete', request: { method: 'DELETE', path: new RegExp(LIST) }, itemPath: own('mailing_lists/'),
		refusal: 'missingId', seed: async (fake) => await seedLists(fake), parameters: (ids) => ({ mailingList: byRow(ids) }),
	},
	{
		label: 'Mailing List Recipient → Create', resource: 'mailingListRecipient', operation: 'create', request: { method: 'POST', path: new RegExp(LIST) },
		run: true, creates: true, refusal: 'noPostcode', seed: seedOneList, parameters: (_, seeded) => ({ mailingList: locator(seeded.list!), ...fromRows }),
	},
	perItemRecipient('get', 'Get', 'GET'),
	{
		label: 'Mailing List Recipient → Get Many', resource: 'mailingListRecipient', operation: 'getMany',
		request: { method: 'GET', path: /\/v1\/mailing_lists\/mal_[^/]+\/recipients$/ }, itemPath: (id) => new RegExp(`/mailing_lists/${id}/recipients$`),
		refusal: 'missingId', seed: async (fake) => await seedLists(fake), parameters: (ids) => ({ mailingList: byRow(ids), returnAll: false, limit: 10 }),
	},
	perItemRecipient('update', 'Update', 'POST', { updateFields: { name: 'Renamed Member' } }),
	perItemRecipient('delete', 'Delete', 'DELETE'),
	{
		label: 'Merge → Merge Files (each item)', resource: 'merge', operation: 'merge', request: { method: 'POST', path: under('tools/merge') }, serial: true,
		refusal: 'notPdf', parameters: () => ({ binaryPropertyNames: 'a, b', options: {} }),
	},
	{
		label: 'Merge → Merge Files (Merge Across All Items)', resource: 'merge', operation: 'merge', request: { method: 'POST', path: under('tools/merge') },
		run: true, allOrNothing: true, refusal: 'notPdf', parameters: () => ({ binaryPropertyNames: 'a, b', options: { combineAllItems: true } }),
	},
];

/** Whether a situation can apply to an operation: one that sends nothing has no request to refuse or drop. */
export const applies = (operation: OperationCase, situation: Situation) => situation === 'row' || operation.request !== undefined;

/** The rows a cell's node gets. */
export const rowsOf = (operation: OperationCase, situation: Situation): Rows => (situation === 'row' ? REFUSALS[operation.refusal].rows : 'good');

/** The IDs each row names: in (b), row 2 names one the account does not have. */
export function idsOf(operation: OperationCase, seeded: Seeded, situation: Situation): string[] {
	if (situation !== 'row' || !REFUSALS[operation.refusal].missing) return seeded.ids;
	const prefix = /^[a-z]+_/.exec(seeded.ids[0] ?? '')?.[0] ?? 'x_';
	return seeded.ids.map((id, index) => (index === 1 ? `${prefix}missing2` : id));
}

/** The message of the test's refusal: every error of situation (a) must carry it. */
export const REFUSAL = { type: 'invalid_request_error', code: 'parameter_invalid', message: 'Refused by the test: the whole request.' };

/** The faults a cell's fake answers with. */
export function faultsFor(operation: OperationCase, situation: Situation, ids: string[]): Fault[] {
	const request = operation.request;
	if (!request || situation === 'row') return [];
	if (situation === 'refused') return [{ ...request, status: 400, error: REFUSAL, times: Number.POSITIVE_INFINITY }];
	if (operation.itemPath) return [{ method: request.method, path: operation.itemPath(ids[1]), drop: true }];
	if (operation.run) return [{ ...request, drop: true }];
	// Item 1's request passes untouched (a fault of no latency), item 2's is dropped.
	return [{ ...request, latencyMs: 0 }, { ...request, drop: true }];
}

/** How many requests the operation's own request should have been sent: more means a dropped one was resent. */
export const expectedSends = (operation: OperationCase) => (operation.run ? 1 : 3);

/** The node of a cell: the operation's parameters on the action node, with its own credential and On Error. */
export function actionNode(name: string, operation: OperationCase, parameters: Record<string, unknown>, credential: string, onError: OnError, position: [number, number]) {
	return {
		id: name, name, type: 'n8n-nodes-intelliprint.intelliprint', typeVersion: 1.2, position,
		parameters: { resource: operation.resource, operation: operation.operation, ...parameters },
		credentials: { intelliprintApi: { id: credential, name } },
		...(onError === 'stopWorkflow' ? {} : { onError }),
	};
}

/** One output item as the run data holds it, with its pairing to the input rows. */
export type OutItem = RunItem & { pairedItem?: number | { item: number } | Array<number | { item: number }> };

export interface CellOutcome {
	main: number;
	/** Items with `error` on the main output. */
	mainErrors: number;
	errorOutput: number;
	/** Input rows (1-based) no output item pairs with; 'stopped' when the run stopped at this node. */
	withoutOutcome: number[] | 'stopped';
	/** Rows (1-based) whose outcome does not carry their own reason. */
	notOwn: number[];
	/** Error items that also carry an ID at their top level, as if they had succeeded. */
	claimsSuccess: number;
	/** Rows (1-based) that came out as errors. */
	errorRows: number[];
	/** How many times the operation's request reached the API. */
	sent: number;
	stop?: { failed: boolean; item?: number; message: string };
	note: string;
}

const rowsOfItem = (item: OutItem) => (item.pairedItem === undefined ? [] : [item.pairedItem].flat()).map((entry) => (typeof entry === 'number' ? entry : entry.item));
const isError = (item: OutItem) => 'error' in item.json;
/** What an item says about its row: an error's words, or Address → Check's verdict. */
const wordsOf = (item: OutItem) => ['error', 'message', 'description', 'address_problem', 'address_fix'].map((key) => item.json[key]).filter((value) => typeof value === 'string').join(' ');

/** Rows whose outcome is not their own: row 2's reason lost, or given to the others; in (a), an error without the API's reason. */
function notOwnRows(operation: OperationCase, situation: Situation, items: OutItem[]): number[] {
	if (situation === 'network') return [];
	const about = (row: number) => items.filter((item) => rowsOfItem(item).includes(row));
	const words = (row: number, errorsOnly = true) => about(row).filter((item) => !errorsOnly || isError(item)).map(wordsOf).join(' ');
	if (situation === 'refused') return [0, 1, 2].filter((row) => about(row).some(isError) && !words(row).includes(REFUSAL.message)).map((row) => row + 1);
	const { marker } = REFUSALS[operation.refusal];
	const rowTwoOwn = marker.test(words(1, !operation.verdicts));
	// Where one result is made from all rows, rows 1 and 3 may fail with row 2's refusal, if they say it is item 2's.
	const others = [0, 2].filter((row) => marker.test(words(row)) && !(operation.allOrNothing && /\b(?:item|row) 2\b/i.test(words(row))));
	return [...(rowTwoOwn ? [] : [1]), ...others].sort((a, b) => a - b).map((row) => row + 1);
}

/** Words for the table's note: cut short, and without the fake's port (different on every run). */
const quote = (text: string, length: number) => `"${text.replace(/http:\/\/127\.0\.0\.1:\d+/g, '<fake API>').slice(0, length)}"`;

/** A cell's outcome from its node's outputs (main, and the error output when there is one). */
export function outcomeOf(operation: OperationCase, situation: Situation, outputs: OutItem[][], sent: number): CellOutcome {
	const [main = [], error = []] = outputs;
	const all = [...main, ...error];
	const paired = new Set(all.flatMap(rowsOfItem));
	const errors = all.filter(isError);
	const outcome: CellOutcome = {
		main: main.length, mainErrors: main.filter(isError).length, errorOutput: error.length,
		withoutOutcome: [0, 1, 2].filter((row) => !paired.has(row)).map((row) => row + 1),
		notOwn: notOwnRows(operation, situation, all),
		claimsSuccess: errors.filter((item) => typeof item.json.id === 'string' && /^[a-z]+_/.test(item.json.id)).length,
		errorRows: [...new Set(errors.flatMap(rowsOfItem))].sort((a, b) => a - b).map((row) => row + 1),
		sent, note: '',
	};
	const firstError = errors[0] ? ` first: ${quote(wordsOf(errors[0]), 90)}` : '';
	outcome.note = [
		situation === 'network' ? `request sent ${sent}×;` : '',
		outcome.errorRows.length ? `errors on rows ${outcome.errorRows.join(',')}.${firstError}` : '',
		outcome.notOwn.length ? `NOT OWN REASON: rows ${outcome.notOwn.join(',')}` : '',
	]
		.filter(Boolean)
		.join(' ');
	return outcome;
}

/** The outcome of a Stop Workflow cell whose run failed at the node. */
export function stoppedOutcome(situation: Situation, sent: number, item: number | undefined, message: string): CellOutcome {
	const sends = situation === 'network' ? `request sent ${sent}×; ` : '';
	return {
		main: 0, mainErrors: 0, errorOutput: 0, withoutOutcome: 'stopped', notOwn: [], claimsSuccess: 0, errorRows: [], sent,
		stop: { failed: true, item, message }, note: `${sends}run failed${item === undefined ? '' : ` at item ${item}`}: ${quote(message, 110)}`,
	};
}

export interface Cell {
	operation: OperationCase;
	situation: Situation;
	onError: OnError;
	name: string;
	outcome?: CellOutcome;
}

/** The table as Markdown: operation × situation × On Error. */
export function markdown(cells: Cell[], title: string): string {
	const cell = (text: string | number) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
	const lines = [`## ${title}`, '', '| operation | situation | On Error | in | out main | out error | without outcome | note |', '|---|---|---|---|---|---|---|---|'];
	for (const { operation, situation, onError, outcome } of cells) {
		const head = [operation.label, SITUATION_LABELS[situation], ON_ERROR_LABELS[onError]];
		if (!outcome) {
			lines.push(`| ${[...head, '3', 'n/a', 'n/a', 'n/a', applies(operation, situation) ? 'not run' : 'n/a: sends no request'].map(cell).join(' | ')} |`);
			continue;
		}
		const main = outcome.mainErrors ? `${outcome.main} (${outcome.mainErrors} errors)` : outcome.main;
		const missing = outcome.withoutOutcome === 'stopped' ? 'stopped' : outcome.withoutOutcome.length ? `${outcome.withoutOutcome.length} (rows ${outcome.withoutOutcome.join(',')})` : '0';
		const error = onError === 'continueErrorOutput' ? outcome.errorOutput : '-';
		lines.push(`| ${[...head, '3', main, error, missing, outcome.note].map(cell).join(' | ')} |`);
	}
	return `${lines.join('\n')}\n`;
}
