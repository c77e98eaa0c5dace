import { readFileSync } from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { CONTRACT, listBreach, metadataBreach, type ListAnswer } from '../../../../nodes/Intelliprint/transport';
import { DETAILS } from '../../../../scripts/contract/details';
import { BEGIN, END, renderContract } from '../../../../scripts/contract/render';
import { BROKEN_MODES } from '../../../fake-api/brokenModes';

/**
 * The API contract (transport/contract.ts) is written down once: the docs page is generated from it and cannot drift,
 * every file it names relies on it by name, and the fake can break every row a test or check:api exercises. Its
 * checks (contractChecks.ts) judge an answer alone, so each is proven here on answers made by hand.
 */
const root = new URL('../../../../', import.meta.url);
const page = (entries: unknown[], more: Partial<ListAnswer> = {}): ListAnswer => ({ data: entries, has_more: false, total_available: entries.length, ...more });
const job = (id: string, fields: Record<string, unknown>) => ({ id, ...fields });

describe('the contract, written down once', () => {
	it('docs/api-contract.md holds the table as generated (npm run docs:contract)', () => {
		const docs = readFileSync(new URL('docs/api-contract.md', root), 'utf8');
		expect(docs.slice(docs.indexOf(BEGIN), docs.indexOf(END) + END.length)).toBe(renderContract());
	});

	it('the rows in full cover exactly the IDs the node names', () => {
		expect(Object.keys(DETAILS).sort()).toEqual(Object.keys(CONTRACT).sort());
	});

	it.each(Object.entries(DETAILS).flatMap(([id, row]) => row.usedBy.map((file) => [id, file])))('"%s": %s names it', (id, file) => {
		expect(readFileSync(new URL(`nodes/Intelliprint/${file}`, root), 'utf8')).toContain(id);
	});

	it("each of the fake's broken modes breaks an assumption of the contract", () => {
		for (const mode of Object.values(BROKEN_MODES)) expect(Object.keys(CONTRACT)).toContain(mode.assumption);
	});
});

describe('the checks on a list answer', () => {
	const desc = { sort_field: 'created', sort_order: 'desc', limit: 1000, skip: 0 };

	it('an answer as asked breaks nothing', () => {
		const qs = { ...desc, testmode: true, fields: ['id', 'created', 'metadata', 'testmode'] };
		expect(listBreach('/prints', qs, page([job('print_b', { created: 20, metadata: {}, testmode: true }), job('print_a', { created: 10, metadata: {}, testmode: true })]))).toBeUndefined();
	});

	it('list-order: within a page, across pages, and ascending', () => {
		const out = page([job('print_a', { created: 10 }), job('print_b', { created: 20 })]);
		expect(listBreach('/prints', desc, out)?.detail).toBe('the list was asked for the highest created first, but print_a (created 10) came before print_b (created 20)');
		expect(listBreach('/prints', desc, page([job('print_c', { created: 30 })]), page([job('print_d', { created: 5 })]))?.assumption).toBe('list-order');
		expect(listBreach('/prints', { ...desc, sort_order: 'asc' }, out)).toBeUndefined();
		// Text is not judged: its order depends on the API's collation.
		expect(listBreach('/mailing_lists', { sort_field: 'name', sort_order: 'desc' }, page([{ id: 'a', name: 'a' }, { id: 'b', name: 'B' }]))).toBeUndefined();
	});

	it('reference-filter and mode-filters: an entry the filter should have kept out', () => {
		expect(listBreach('/prints', { reference: 'k1' }, page([job('print_a', { reference: 'k2' })]))?.detail).toBe('the list was filtered on reference = "k1", but it held print_a with reference = "k2"');
		expect(listBreach('/prints', { reference: 'k1' }, page([job('print_a', {})]))?.assumption).toBe('reference-filter');
		expect(listBreach('/prints', { confirmed: true }, page([job('print_a', { confirmed: false })]))?.assumption).toBe('mode-filters');
		expect(listBreach('/prints', { testmode: 'true' }, page([job('print_a', { testmode: false })]))?.assumption).toBe('mode-filters');
		// A mode flag the answer does not carry is not judged; other endpoints have no such filters.
		expect(listBreach('/prints', { testmode: true }, page([job('print_a', {})]))).toBeUndefined();
		expect(listBreach('/backgrounds', { reference: 'k1' }, page([{ id: 'bg_a' }]))).toBeUndefined();
	});

	it('projection: a field asked for and missing', () => {
		const breach = listBreach('/prints', { fields: ['id', 'cost', 'metadata'] }, page([job('print_a', { cost: null })]));
		expect(breach).toEqual({ assumption: 'projection', detail: 'the list was asked for id, cost, metadata on each entry, but print_a came without metadata' });
	});

	it('counts: more than the limit, or has_more that does not agree with total_available', () => {
		expect(listBreach('/prints', { limit: 1 }, page([{ id: 'a' }, { id: 'b' }]))?.assumption).toBe('counts');
		expect(listBreach('/prints', { limit: 2, skip: 2 }, page([{ id: 'c' }], { total_available: 4 }))?.detail).toBe('the page ending at entry 3 said has_more false, with total_available 4');
		expect(listBreach('/prints', { limit: 2, skip: 2 }, page([{ id: 'c' }, { id: 'd' }], { total_available: 4, has_more: true }))?.assumption).toBe('counts');
		expect(listBreach('/prints', { limit: 2 }, page([{ id: 'c' }], { total_available: undefined }))).toBeUndefined();
	});

	it("metadata-kept: the node's entries in a create's answer, as sent", () => {
		const sent = { n8n_sent_key: 'k1', n8n_spend_claim: 'abc' };
		expect(metadataBreach(sent, { id: 'print_a', metadata: { ...sent, batch: '7' } })).toBeUndefined();
		expect(metadataBreach(sent, { id: 'print_a', metadata: {} })?.detail).toBe('print job print_a was made with metadata n8n_sent_key = "k1", but the answer has null');
		expect(metadataBreach(sent, { id: 'print_a' })?.assumption).toBe('metadata-kept');
		expect(metadataBreach({}, { id: 'print_a' })).toBeUndefined();
	});
});
