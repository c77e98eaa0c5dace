import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { IntelliprintApi } from '../../credentials/IntelliprintApi.credentials';
import { IntelliprintWebhookApi } from '../../credentials/IntelliprintWebhookApi.credentials';
import { Intelliprint } from '../../nodes/Intelliprint/Intelliprint.node';
import { getRecipientFields } from '../../nodes/Intelliprint/methods/resourceMapping';
import { IntelliprintStatusTrigger } from '../../nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node';
import { IntelliprintTrigger } from '../../nodes/IntelliprintTrigger/IntelliprintTrigger.node';
import { LabelChecker, N8N_NODE_LABELS, N8N_STRINGS, editorStrings, labelTree, lineAt, proseOf, stringsOf, type Mention } from '../helpers/uiLabels';

/**
 * Every label a message, a hint or a doc names is one the panel shows: the node's own (resources, operations,
 * parameters, options, from the node descriptions) or n8n's (a node's Settings, the resource mapper's modes, read
 * from the installed n8n's editor strings, 2.x and 1.x). Checked: paths written "X → Y → Z", and names in quotes or
 * emphasis written in Title Case.
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const N8N_LINES = [
	{ line: '2.x', home: `${ROOT}.e2e/n8n` },
	{ line: '1.x', home: `${ROOT}.e2e/n8n-1` },
];

const filesUnder = (folder: string, ending: string) =>
	(fs.readdirSync(`${ROOT}${folder}`, { recursive: true }) as string[]).filter((name) => name.endsWith(ending)).map((name) => `${folder}/${name}`).sort();

async function checker(): Promise<LabelChecker> {
	const mapper = await getRecipientFields.call({} as never);
	return new LabelChecker(
		labelTree({
			actionNode: new Intelliprint().description,
			otherNodes: [new IntelliprintTrigger().description, new IntelliprintStatusTrigger().description],
			credentials: [new IntelliprintApi(), new IntelliprintWebhookApi()],
			mapperFields: mapper.fields.map((field) => field.displayName),
		}),
	);
}

/** What the docs and the node's words name: paths, quoted names, and labels n8n no longer shows. */
function mentionsIn(labels: LabelChecker, file: string, text: string, firstLine = 1): Mention[] {
	const where = lineAt(file, text, firstLine);
	return [...labels.paths(text, where), ...labels.names(text, where), ...LabelChecker.retired(text, where)];
}

function allMentions(labels: LabelChecker): Mention[] {
	const code = [...filesUnder('nodes', '.ts'), ...filesUnder('credentials', '.ts')].flatMap((file) =>
		stringsOf(`${ROOT}${file}`).flatMap(({ text, line }) => mentionsIn(labels, file, text, line)),
	);
	const docs = filesUnder('docs', '.md').flatMap((file) => mentionsIn(labels, file, proseOf(fs.readFileSync(`${ROOT}${file}`, 'utf8'))));
	// The examples' sticky notes and node notes are read in the editor.
	const examples = filesUnder('examples', '.json').flatMap((file) => {
		const workflow = fs.readJsonSync(`${ROOT}${file}`) as { nodes: Array<{ name: string; type: string; notes?: string; parameters: { content?: unknown } }> };
		return workflow.nodes.flatMap((node) =>
			[node.notes, node.type === 'n8n-nodes-base.stickyNote' ? node.parameters.content : undefined]
				.filter((text): text is string => typeof text === 'string')
				.flatMap((text) => mentionsIn(labels, `${file} (${node.name})`, proseOf(text))),
		);
	});
	return [...code, ...docs, ...examples];
}

describe('labels named in messages and docs', () => {
	it('every path ("Print Job → Create → Options") and quoted name is one the node or n8n shows', async () => {
		const mentions = allMentions(await checker());
		const wrong = mentions.filter((mention) => mention.wrong).map((mention) => `${mention.where}: ${mention.text}: ${mention.wrong}`);
		expect(wrong).toEqual([]);
		// The parsing found what is there: a check that reads nothing would pass everything.
		expect(mentions.filter((mention) => mention.text.includes('→')).length).toBeGreaterThan(40);
		expect(mentions.filter((mention) => !mention.text.includes('→')).length).toBeGreaterThan(40);
		expect(mentions.map((mention) => mention.text)).toEqual(expect.arrayContaining(['Print Job → Create', 'Mailing List Recipient → Add', 'Recipient Fields → Mapping Column Mode → Map Each Column Manually']));
	});

	it('finds the wrong labels the docs once had', async () => {
		const labels = await checker();
		const wrongIn = (text: string) => mentionsIn(labels, 'example', text).filter((mention) => mention.wrong).map((mention) => mention.text);
		expect(wrongIn('Name the fields, or choose "Map Each Field Manually" under "Recipient Fields".')).toEqual(['Map Each Field Manually']);
		expect(wrongIn('Choose Recipient Fields → Mapping Column Mode → Map Each Field Manually.')).toEqual(['Recipient Fields → Mapping Column Mode → Map Each Field Manually.']);
		expect(wrongIn('Mailing List Recipient → Create gives every row an outcome.')).toEqual(['Mailing List Recipient → Create gives every row an outcome.']);
		expect(wrongIn('With **Continue On Fail**, a failed item becomes an item.')).toEqual(['Continue On Fail']);
		expect(wrongIn('paste the Test URL and click "Test the trigger"')).toEqual(['Test the trigger']);
		expect(wrongIn('set up with *Retry on Fail*')).toEqual(['Retry on Fail']);
		expect(wrongIn('Print Job → Create → Items in Parallel')).toEqual(['Print Job → Create → Items in Parallel']);
		expect(wrongIn('Print Job → Create → Options → Items in Parallel, and On Error → Continue (using error output)')).toEqual([]);
	});
});

describe.each(N8N_LINES)("n8n's own labels, as n8n $line shows them", ({ line, home }) => {
	const installed = fs.existsSync(`${home}/node_modules/n8n/package.json`);
	it.skipIf(!installed)(`the editor's strings the docs use (Settings, On Error, the resource mapper's modes) are n8n ${line}'s`, () => {
		expect(editorStrings(home)).toEqual(N8N_STRINGS);
	});

	it.skipIf(!installed)(`the labels of n8n's nodes the docs name are in n8n ${line}'s nodes`, () => {
		const missing = N8N_NODE_LABELS.flatMap(({ file, labels }) => {
			const source = fs.readFileSync(`${home}/node_modules/${file}`, 'utf8');
			return labels.filter((name) => !new RegExp(`(?:displayName|name): ['"]${name.replace(/[()]/g, '\\$&')}['"]`).test(source)).map((name) => `${file}: ${name}`);
		});
		expect(missing).toEqual([]);
	});

	if (!installed) {
		it(`n8n ${line} is not installed here (npm run test:e2e installs it): its strings were not read, and the labels were checked against the copy in test/helpers/uiLabels.ts`, () => {
			expect(installed).toBe(false);
		});
	}
});
