import type { INodeExecutionData } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { mailMergePdf, recipients } from '../../../../helpers/pdfs';

/**
 * Version 1.2: every source (PDF file, PDF link, template, text) to every kind of recipient the
 * API takes (the PDF's own addresses, the items, one job per item, a mailing list), as a letter and
 * as a postcard: each on the wire as the vendor's SDK sends it, and made into letters by the fake.
 */
const api = useFakeApi();

const people = [
	{ name: 'Ann Example', address: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB', first_name: 'Ann' },
	// In Jersey: a country of its own that posts inland (letters abroad, and their own jobs, are lettersAbroad.test.ts).
	{ name: 'Bob Sample', address: '2 Quay Street\nSt Helier', postcode: 'JE2 3AB', country: 'JE', first_name: 'Bob' },
	{ name: 'Cat Person', address: '3 Mill Lane\nYork', postcode: 'YO1 7HH', country: 'GB', first_name: 'Cat' },
];
const members = [
	{ address: { name: 'Dee Member', line: '4 Park Road\nBath', postcode: 'BA1 1AA', country: 'GB' }, variables: { first_name: 'Dee' } },
	{ address: { name: 'Eve Member', line: '5 Dock Street\nHull', postcode: 'HU1 1AA', country: 'GB' }, variables: { first_name: 'Eve' } },
];
const TEXT = '<p>Dear {{first_name}},</p><p>Our winter opening hours are attached.</p>';

let pdf: Buffer;
const state = { url: '', list: '', template: '' };
beforeAll(async () => {
	// One letter, addressed in its window: the "addresses in the PDF" case reads it from there.
	pdf = await mailMergePdf(recipients(1, 0));
	state.url = api.fake.publish('winter-hours.pdf', pdf);
	state.list = api.fake.mailingLists.create({ name: 'Members', recipients: members }).id;
	state.template = api.fake.templates.add({ name: 'Winter hours', content: TEXT }).id;
});

const SOURCES = ['pdf', 'url', 'template', 'content'] as const;
const RECIPIENTS = ['inFile', 'allItems', 'eachItem', 'mailingList'] as const;
type Source = (typeof SOURCES)[number];
type RecipientsFrom = (typeof RECIPIENTS)[number];
const COMBINATIONS = SOURCES.flatMap((source) =>
	RECIPIENTS.filter((to) => to !== 'inFile' || source === 'pdf' || source === 'url').flatMap((to) =>
		(['letter', 'postcard'] as const).map((type) => [source, to, type] as const),
	),
);

function parameters(source: Source, recipientsFrom: RecipientsFrom, type: string, extra: Record<string, unknown> = {}) {
	const made = { pdf: { binaryPropertyName: 'data' }, url: { fileUrl: state.url }, template: { template: state.template }, content: { content: TEXT } }[source];
	const to = recipientsFrom === 'mailingList' ? { mailingList: { __rl: true, mode: 'id', value: state.list } } : {};
	return { resource: 'printJob', operation: 'create', source, recipientsFrom, type, testmode: true, output: 'letters', ...made, ...to, ...extra };
}
/** A mailing list or a PDF's own addresses need one input item; the items' addresses, three. */
const inputFor = (to: RecipientsFrom) =>
	(to === 'allItems' || to === 'eachItem' ? people : people.slice(0, 1)).map((json) => ({ json, files: { data: { data: pdf, fileName: 'winter-hours.pdf' } } }));
const addressees = (to: RecipientsFrom) => ({ inFile: [recipients(1, 0)[0].name], allItems: people.map((p) => p.name), eachItem: people.map((p) => p.name), mailingList: members.map((m) => m.address.name) })[to];
const row = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

describe('Print Job → Create: every source to every kind of recipient (version 1.2)', () => {
	it.each(COMBINATIONS)('%s to %s as a %s', async (source, to, type) => {
		const before = api.fake.createdPrintJobs().length;
		const { items, error } = await api.run({ typeVersion: 1.2, parameters: parameters(source, to, type), items: inputFor(to) });
		expect(error).toBeUndefined();

		const calls = api.apiCalls().filter((call) => call.method === 'POST' && call.path === '/v1/prints');
		expect(calls).toHaveLength(to === 'eachItem' ? 3 : 1);
		for (const [index, { body }] of calls.entries()) {
			// Exactly one source field, as the SDK sends it.
			expect(Object.keys(body).filter((key) => ['file', 'template', 'content'].includes(key))).toEqual([source === 'pdf' || source === 'url' ? 'file' : source]);
			if (source === 'url') expect(body.file).toEqual({ url: state.url });
			if (source === 'pdf') expect(body.file).toMatchObject({ fileName: 'winter-hours.pdf', contentType: 'application/pdf' });
			if (source === 'template') expect(body.template).toBe(state.template);
			expect(body.type).toBe(type === 'postcard' ? 'postcard' : undefined);
			expect(body.mailing_list).toBe(to === 'mailingList' ? state.list : undefined);
			const sent = body.recipients as Array<{ address: Record<string, string>; variables?: Record<string, string> }> | undefined;
			if (to === 'inFile' || to === 'mailingList') expect(sent).toBeUndefined();
			else {
				const expected = to === 'allItems' ? people : [people[index]];
				expect(sent!.map((r) => r.address)).toEqual(expected.map((p) => ({ name: p.name, line: p.address, postcode: p.postcode, country: p.country })));
				// A PDF has no placeholders: its recipients carry no variables.
				const variables = sent!.map((r) => r.variables?.first_name);
				expect(variables).toEqual(expected.map((p) => (source === 'pdf' || source === 'url' ? undefined : p.first_name)));
			}
		}

		const jobs = api.fake.createdPrintJobs().slice(before);
		expect(jobs.every((job) => (job.type ?? 'letter') === type)).toBe(true);
		expect(items.map((item) => item.json.name)).toEqual(addressees(to));
		expect(items.every((item) => item.json.testmode === true)).toBe(true);
		// Each letter pairs with the item it was made for; a list's or a PDF's letters with the item that asked.
		expect(items.map(row)).toEqual(to === 'allItems' || to === 'eachItem' ? [0, 1, 2] : addressees(to).map(() => 0));
	});
});

describe('the promises hold for every combination', () => {
	const SKIPPABLE = COMBINATIONS.filter(([source, , type]) => type === 'letter' && (source === 'pdf' || source === 'template'));

	it.each(SKIPPABLE)('Skip Items Already Sent: %s to %s, run twice, is sent once', async (source, to) => {
		const sentKey = `={{ "winter-${source}-${to}-" + $json.first_name }}`;
		const run = () => api.run({ typeVersion: 1.2, parameters: parameters(source, to, 'letter', { options: { sentKey } }), items: inputFor(to) });
		const before = api.fake.createdPrintJobs().length;
		const first = await run();
		expect(first.error).toBeUndefined();
		const made = api.fake.createdPrintJobs().length - before;
		expect(made).toBe(to === 'eachItem' ? 3 : 1);

		const again = await run();
		expect(again.error).toBeUndefined();
		expect(api.fake.createdPrintJobs().length - before).toBe(made);
		expect(again.items.map((item) => item.json.name)).toEqual(addressees(to));
		expect(again.items.every((item) => item.json.already_sent === true)).toBe(true);
	});

	it.each(['url', 'template', 'content'] as const)('Items in Parallel: %s to each item, three at once, output in item order', async (source) => {
		const { items, error } = await api.run({ typeVersion: 1.2, parameters: parameters(source, 'eachItem', 'letter', { options: { parallelItems: 3 } }), items: inputFor('eachItem') });
		expect(error).toBeUndefined();
		expect(items.map((item) => [row(item), item.json.name])).toEqual(people.map((p, index) => [index, p.name]));
	});

	it('a mail run from a PDF takes the first item\'s PDF for every letter, in as many print jobs as Letters per Print Job asks', async () => {
		const before = api.fake.createdPrintJobs().length;
		const { items, error } = await api.run({ typeVersion: 1.2, parameters: parameters('pdf', 'allItems', 'letter', { options: { lettersPerJob: 2 } }), items: inputFor('allItems') });
		expect(error).toBeUndefined();
		const jobs = api.fake.createdPrintJobs().slice(before);
		expect(jobs.map((job) => job.letters.length)).toEqual([2, 1]);
		expect(items.map((item) => item.json.name)).toEqual(people.map((p) => p.name));
	});

	it('a PDF to items says on the right item what is missing from its address', async () => {
		const input = inputFor('allItems');
		// Cat's UK address needs its postcode.
		input[2] = { ...input[2], json: { ...input[2].json, postcode: '' } };
		const { items, error } = await api.run({ typeVersion: 1.2, continueOnFail: true, parameters: parameters('url', 'allItems', 'letter'), items: input });
		expect(error).toBeUndefined();
		expect(items.filter((item) => !item.json.error).map((item) => item.json.name)).toEqual([people[0].name, people[1].name]);
		const failed = items.find((item) => item.json.error)!;
		expect(row(failed)).toBe(2);
		expect(String(failed.json.error)).toContain('Item 3 has no postcode');
	});

	it('a blank template ID is refused before anything is sent', async () => {
		const { error } = await api.run({ typeVersion: 1.2, parameters: parameters('template', 'eachItem', 'letter', { template: '  ' }), items: inputFor('eachItem') });
		expect(error?.message).toBe('No template ID given');
		expect(api.apiCalls().filter((call) => call.method === 'POST')).toHaveLength(0);
	});

	it("an unknown template is the API's refusal, on the item", async () => {
		const { error } = await api.run({ typeVersion: 1.2, parameters: parameters('template', 'eachItem', 'letter', { template: 'tmpl_nope' }), items: inputFor('eachItem') });
		expect(error?.message).toMatch(/template/i);
		expect(error?.description ?? '').toContain('tmpl_nope');
	});
});
