import fs from 'fs-extra';
import { NodeHelpers, type INode, type INodeParameters, type INodeProperties, type ResourceMapperField } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Intelliprint } from '../../nodes/Intelliprint/Intelliprint.node';
import { getRecipientFields } from '../../nodes/Intelliprint/methods/resourceMapping';

/**
 * The examples are saved as n8n's editor saves them, so that opening one (before or after a run) changes nothing and
 * shows no "Node parameters have changed". For the resource mapper (Recipient Fields) that is the value its editor
 * component makes once it has loaded the fields: n8n's ResourceMapper.vue (2.x and 1.x) starts from
 * { mappingMode, value: {}, matchingColumns: [], schema: [], attemptToConvertTypes: false, convertFieldsToString:
 * false } and spreads the saved value over it; a value without a schema makes it fetch the fields and save them (the
 * change); and after a successful run it fetches them again and sets each field's `removed` from the one it had
 * (false where unset), saving again unless the schema is already that. So the schema is saved as the node's mapping
 * method gives it, each field with `removed: false`.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const EDITOR_KEYS = ['mappingMode', 'value', 'matchingColumns', 'schema', 'attemptToConvertTypes', 'convertFieldsToString'];
const N8N_LINES = [
	{ line: '2.x', home: `${ROOT}.e2e/n8n` },
	{ line: '1.x', home: `${ROOT}.e2e/n8n-1` },
];

const description = new Intelliprint().description;
const mappers = description.properties.filter((property) => property.type === 'resourceMapper');

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

const examples = (fs.readdirSync(`${ROOT}examples`) as string[])
	.filter((name) => name.endsWith('.json'))
	.sort()
	.map((name) => ({ name, workflow: fs.readJsonSync(`${ROOT}examples/${name}`) as { nodes: WorkflowNode[] } }));

/** The resource mapper parameters the panel shows for a node (with its defaults filled in, as the editor does). */
function shownMappers(node: WorkflowNode): INodeProperties[] {
	const values = NodeHelpers.getNodeParameters(description.properties, node.parameters, true, false, node as unknown as INode, description) ?? {};
	return mappers.filter((mapper) => NodeHelpers.displayParameter(values, mapper, node as unknown as INode, description));
}

/** How a saved resource mapper value differs from what the editor would keep; empty when it is the same. */
function editorFormProblems(saved: unknown, fields: ResourceMapperField[]): string[] {
	if (typeof saved !== 'object' || saved === null) return ['no value saved: the editor writes the default and its schema on opening'];
	const value = saved as Record<string, unknown>;
	const problems: string[] = [];
	if (JSON.stringify(Object.keys(value)) !== JSON.stringify(EDITOR_KEYS)) problems.push(`keys ${Object.keys(value).join(', ')}; the editor keeps ${EDITOR_KEYS.join(', ')}`);
	if (!Array.isArray(value.schema) || value.schema.length === 0) problems.push('no schema: the editor fetches the fields on opening and saves them');
	else {
		const expected = JSON.parse(JSON.stringify(fields)).map((field: ResourceMapperField) => ({ ...field, removed: false }));
		if (JSON.stringify(value.schema) !== JSON.stringify(expected)) problems.push(`schema ${JSON.stringify(value.schema)}; the mapping method gives ${JSON.stringify(expected)}`);
	}
	if (typeof value.value !== 'object' || value.value === null) problems.push(`value ${JSON.stringify(value.value)}: the editor keeps an object ({} for Map Automatically)`);
	if (!Array.isArray(value.matchingColumns)) problems.push('no matchingColumns list');
	if (value.attemptToConvertTypes !== false || value.convertFieldsToString !== false) problems.push('attemptToConvertTypes and convertFieldsToString are false in the editor');
	return problems;
}

/** The keys of the object literal whose `{` is at `start`, at its top level only. */
function topLevelKeys(text: string, start: number): string[] {
	const keys: string[] = [];
	let depth = 0;
	for (let at = start; at < text.length; at++) {
		const char = text[at];
		if (char === '{' || char === '[') depth++;
		else if (char === '}' || char === ']') {
			depth--;
			if (depth === 0) break;
		} else if (depth === 1 && /[{,\s]/.test(text[at - 1])) {
			const key = /^(\w+)\s*:/.exec(text.slice(at, at + 40));
			if (key) keys.push(key[1]);
		}
	}
	return keys;
}

describe('examples saved as the editor saves them', () => {
	const withMapper = examples.flatMap(({ name, workflow }) =>
		workflow.nodes.filter((node) => node.type.endsWith('.intelliprint')).flatMap((node) => shownMappers(node).map((mapper) => ({ name, node, mapper }))),
	);

	it('the examples that map recipients are found (rows to letters, the scheduled mail run, template to rows, approve before posting)', () => {
		expect([...new Set(withMapper.map(({ name }) => name))]).toEqual(['approve-before-posting.json', 'rows-to-letters.json', 'scheduled-mail-run.json', 'template-to-rows.json']);
	});

	it('every resource mapper value the panel shows is saved with its schema, as the editor keeps it', async () => {
		const { fields } = await getRecipientFields.call({} as never);
		const wrong = withMapper.flatMap(({ name, node, mapper }) => editorFormProblems(node.parameters[mapper.name], fields).map((problem) => `${name}, "${node.name}", ${mapper.displayName}: ${problem}`));
		expect(wrong).toEqual([]);
	});

	it('a value saved without its schema, as the examples once were, is caught', async () => {
		const { fields } = await getRecipientFields.call({} as never);
		expect(editorFormProblems({ mappingMode: 'autoMapInputData', value: null }, fields)).toEqual([
			'keys mappingMode, value; the editor keeps mappingMode, value, matchingColumns, schema, attemptToConvertTypes, convertFieldsToString',
			'no schema: the editor fetches the fields on opening and saves them',
			'value null: the editor keeps an object ({} for Map Automatically)',
			'no matchingColumns list',
			'attemptToConvertTypes and convertFieldsToString are false in the editor',
		]);
		expect(editorFormProblems(undefined, fields)).toHaveLength(1);
		// A field the mapping method no longer gives (or gives differently) is a change too.
		const stale = { mappingMode: 'autoMapInputData', value: {}, matchingColumns: [], schema: fields.slice(1).map((field) => ({ ...field, removed: false })), attemptToConvertTypes: false, convertFieldsToString: false };
		expect(editorFormProblems(stale, fields)).toHaveLength(1);
	});
});

describe.each(N8N_LINES)("the resource mapper's saved value in n8n $line's editor", ({ line, home }) => {
	const installed = fs.existsSync(`${home}/node_modules/n8n-editor-ui/dist/assets`);
	it.skipIf(!installed)(`starts from the keys the examples are saved with (n8n ${line})`, () => {
		const assets = `${home}/node_modules/n8n-editor-ui/dist/assets`;
		const starts = (fs.readdirSync(assets) as string[])
			.filter((name) => name.startsWith('ParameterInputList') && name.endsWith('.js'))
			.flatMap((name) => {
				const text = fs.readFileSync(`${assets}/${name}`, 'utf8');
				return [...text.matchAll(/paramValue:\s*\{\s*mappingMode:/g)].map((match) => topLevelKeys(text, match.index + match[0].indexOf('{')));
			});
		expect(starts.length).toBeGreaterThan(0);
		for (const keys of starts) expect(keys).toEqual(EDITOR_KEYS);
	});

	if (!installed) {
		it(`n8n ${line} is not installed here (npm run test:e2e installs it): the editor's starting value was not read`, () => {
			expect(installed).toBe(false);
		});
	}
});
