import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Intelliprint } from '../../../../../nodes/Intelliprint/Intelliprint.node';

const { description } = new Intelliprint();
const { properties } = description;

/** The parameters n8n's panel shows (and keeps) for these values, as n8n itself works them out. */
function shown(typeVersion: number, values: INodeParameters): INodeParameters {
	const node = { typeVersion, parameters: {} } as unknown as INode;
	return NodeHelpers.getNodeParameters(properties, { resource: 'printJob', operation: 'create', ...values }, true, false, node, description)!;
}
/** The names of the Options collection's entries the panel offers for these values. */
const options = (typeVersion: number, values: INodeParameters) =>
	(properties.find((p) => p.name === 'options' && NodeHelpers.displayParameter({ resource: 'printJob', operation: 'create', ...values }, p, { typeVersion } as INode, description))?.options ?? []).filter((option) =>
		NodeHelpers.displayParameterPath(shown(typeVersion, values), option as never, 'options', { typeVersion } as INode, description),
	).map((option) => option.name);

describe('Print Job → Create: source and recipients in the panel (version 1.2)', () => {
	it('a new node starts as a PDF file to the addresses printed in it', () => {
		expect(shown(1.2, {})).toMatchObject({ source: 'pdf', recipientsFrom: 'inFile', binaryPropertyName: 'data' });
		expect(shown(1.2, {})).not.toHaveProperty('recipientFields');
	});

	it.each([
		['pdf', 'binaryPropertyName'],
		['url', 'fileUrl'],
		['template', 'template'],
		['content', 'content'],
	])('%s reaches items, each item and a mailing list, and shows %s', (source, field) => {
		for (const recipientsFrom of ['allItems', 'eachItem', 'mailingList']) {
			const values = shown(1.2, { source, recipientsFrom });
			expect(values).toHaveProperty(field);
			expect(values.recipientsFrom).toBe(recipientsFrom);
			expect('recipientFields' in values).toBe(recipientsFrom !== 'mailingList');
			expect('mailingList' in values).toBe(recipientsFrom === 'mailingList');
			// Placeholders are filled only in text and templates.
			expect('variables' in values).toBe(recipientsFrom !== 'mailingList' && (source === 'template' || source === 'content'));
		}
	});

	it('only a PDF can go to the addresses in it; text and templates start with the items', () => {
		expect(shown(1.2, { source: 'url' }).recipientsFrom).toBe('inFile');
		expect(shown(1.2, { source: 'template' }).recipientsFrom).toBe('allItems');
		expect(shown(1.2, { source: 'content' }).recipientsFrom).toBe('allItems');
	});

	it('splitting is offered only for a PDF of letters carrying their own addresses; Letters per Print Job only for a mail run', () => {
		expect(options(1.2, { source: 'pdf' })).toContain('splitting');
		expect(options(1.2, { source: 'pdf', recipientsFrom: 'allItems' })).not.toContain('splitting');
		expect(options(1.2, { source: 'pdf', recipientsFrom: 'allItems' })).toContain('lettersPerJob');
		expect(options(1.2, { source: 'url', recipientsFrom: 'mailingList' })).not.toContain('lettersPerJob');
		expect(options(1.2, { source: 'template', recipientsFrom: 'eachItem' })).not.toContain('splitting');
	});
});

describe('stored workflows of versions 1 and 1.1 keep their parameters', () => {
	it.each([1, 1.1])('version %s: the four sources as before', (version) => {
		expect(shown(version, {})).toMatchObject({ source: 'pdf' });
		expect(shown(version, {})).not.toHaveProperty('recipientsFrom');
		expect(shown(version, { source: 'content' })).toMatchObject({ recipientsFrom: 'allItems', variables: 'all' });
		expect(shown(version, { source: 'mailingList' })).toHaveProperty('mailingList');
		expect(shown(version, { source: 'mailingList' })).not.toHaveProperty('recipientsFrom');
		expect(shown(version, { source: 'url' })).not.toHaveProperty('recipientFields');
	});
});
