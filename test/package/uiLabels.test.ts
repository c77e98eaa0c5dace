import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { IntelliprintApi } from '../../credentials/IntelliprintApi.credentials';
import { IntelliprintWebhookApi } from '../../credentials/IntelliprintWebhookApi.credentials';
import { Intelliprint } from '../../nodes/Intelliprint/Intelliprint.node';
import { getRecipientFields } from '../../nodes/Intelliprint/methods/resourceMapping';
import { IntelliprintStatusTrigger } from '../../nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node';
import { IntelliprintTrigger } from '../../nodes/IntelliprintTrigger/IntelliprintTrigger.node';
import { LabelChecker, N8N_NODE_LABELS, N8N_STRINGS, editorStrings, labelTree, lineAt, proseOf, stringsOf, type Label, type Mention } from '../helpers/uiLabels';

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

/**
 * n8n's words for what the panel and the editor show around the node, as the docs use them (issue 57, read in n8n
 * 2.41 and 1.123 in Chromium): the resource mapper's fields under "Values to Send"; the credential dialog, which tests
 * on Save and offers Retry (no Test button); the trigger picker's heading.
 */
const SHOWN = {
	'resourceMapper.valuesToSend.label': 'Values to Send',
	'credentialEdit.credentialConfig.retry': 'Retry',
	'nodeCreator.triggerHelperPanel.selectATrigger': 'What triggers this workflow?',
} as const;

/** The resource mapper's parameter, whose name n8n does not show (its Mapping Column Mode sits under Recipients). */
const MAPPER = 'Recipient Fields';

/**
 * Where the resource mapper sits, its modes and fields are shown under the parameter before it (Recipients), the
 * manual fields under "Values to Send".
 */
function asShown(tree: Label, mapperFields: string[]): Label {
	const visit = (node: Label) => {
		const mapper = node.children.find((child) => child.label === MAPPER);
		const recipients = node.children.find((child) => child.label === 'Recipients');
		if (mapper && recipients) {
			const fields = mapperFields.map((field) => ({ label: field, children: [] }));
			recipients.children.push(...mapper.children, { label: SHOWN['resourceMapper.valuesToSend.label'], children: fields });
		}
		node.children.forEach(visit);
	};
	visit(tree);
	return tree;
}

async function checker(): Promise<LabelChecker> {
	const mapper = await getRecipientFields.call({} as never);
	const mapperFields = mapper.fields.map((field) => field.displayName);
	const tree = labelTree({
		actionNode: new Intelliprint().description,
		otherNodes: [new IntelliprintTrigger().description, new IntelliprintStatusTrigger().description],
		credentials: [new IntelliprintApi(), new IntelliprintWebhookApi()],
		mapperFields,
	});
	return new LabelChecker(asShown(tree, mapperFields));
}

/**
 * Words the editor does not show, in the pages a newcomer reads first (README, getting started, troubleshooting):
 * the first run of issue 57 met each of them.
 */
const NOT_SHOWN: Array<{ text: RegExp; why: string }> = [
	{ text: new RegExp(`\\b${MAPPER}\\b`), why: 'n8n shows the resource mapper without its name: Mapping Column Mode is under Recipients, the manual fields under "Values to Send"' },
	{ text: /\b(?:click|press)\s+[*_"]*Test\b(?![*_"]*\s+(?:this|the)\s+trigger)/i, why: "n8n's credential dialog has no Test button: it tests on Save and offers Retry" },
	{ text: /\bAdd\s+[*_"]*Intelliprint Trigger\b/, why: 'the trigger picker lists it as "Intelliprint", beside "Intelliprint Status Trigger"' },
];
const FIRST_PAGES = ['README.md', 'docs/getting-started.md', 'docs/troubleshooting.md'];

/** What the docs and the node's words name: paths, quoted names, and labels n8n no longer shows. */
function mentionsIn(labels: LabelChecker, file: string, text: string, firstLine = 1): Mention[] {
	const where = lineAt(file, text, firstLine);
	return [...labels.paths(text, where), ...labels.names(text, where), ...LabelChecker.retired(text, where)];
}

function allMentions(labels: LabelChecker): Mention[] {
	const code = [...filesUnder('nodes', '.ts'), ...filesUnder('credentials', '.ts')].flatMap((file) =>
		stringsOf(`${ROOT}${file}`).flatMap(({ text, line }) => mentionsIn(labels, file, text, line)),
	);
	const docs = ['README.md', ...filesUnder('docs', '.md')].flatMap((file) => mentionsIn(labels, file, proseOf(fs.readFileSync(`${ROOT}${file}`, 'utf8'))));
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

/** Strings of the installed n8n's editor bundle by their keys (the ones editorStrings does not read). */
function editorSays(home: string, keys: string[]): Record<string, string> {
	const assets = `${home}/node_modules/n8n-editor-ui/dist/assets`;
	const said: Record<string, string> = {};
	for (const name of fs.readdirSync(assets).filter((file) => file.endsWith('.js'))) {
		const text = fs.readFileSync(`${assets}/${name}`, 'utf8');
		for (const key of keys.filter((wanted) => said[wanted] === undefined && text.includes(`"${wanted}"`))) {
			const value = new RegExp(`"${key.replace(/\./g, '\\.')}"\\s*:\\s*(?:"([^"]*)"|\`([^\`]*)\`)`).exec(text);
			if (value) said[key] = value[1] ?? value[2];
		}
		if (keys.every((key) => said[key] !== undefined)) break;
	}
	return said;
}

describe('labels named in messages and docs', () => {
	it('every path ("Print Job → Create → Options") and quoted name is one the node or n8n shows', async () => {
		const mentions = allMentions(await checker());
		const wrong = mentions.filter((mention) => mention.wrong).map((mention) => `${mention.where}: ${mention.text}: ${mention.wrong}`);
		expect(wrong).toEqual([]);
		// The parsing found what is there: a check that reads nothing would pass everything.
		expect(mentions.filter((mention) => mention.text.includes('→')).length).toBeGreaterThan(40);
		expect(mentions.filter((mention) => !mention.text.includes('→')).length).toBeGreaterThan(40);
		expect(mentions.map((mention) => mention.text)).toEqual(expect.arrayContaining(['Print Job → Create', 'Mailing List Recipient → Add', 'Recipients → Mapping Column Mode → Map Each Column Manually', 'Values to Send']));
	});

	it('the pages a newcomer reads first name nothing the editor does not show (issue 57)', () => {
		const wrong = FIRST_PAGES.flatMap((file) => {
			const text = proseOf(fs.readFileSync(`${ROOT}${file}`, 'utf8'));
			return NOT_SHOWN.flatMap(({ text: words, why }) => [...text.matchAll(new RegExp(words.source, `g${words.flags}`))].map((match) => `${lineAt(file, text)(match.index)}: ${match[0]}: ${why}`));
		});
		expect(wrong).toEqual([]);
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
		expect(wrongIn('Print Job → Create → Recipients → Mapping Column Mode → Map Each Column Manually, then **Values to Send**')).toEqual([]);
		expect(wrongIn('Print Job → Create → Recipients → Values to Send → Postcode')).toEqual([]);
		const notShown = (text: string) => NOT_SHOWN.filter(({ text: words }) => words.test(text)).map(({ why }) => why.split(':')[0]);
		expect(notShown('Choose Recipient Fields → Mapping Column Mode')).toEqual(['n8n shows the resource mapper without its name']);
		expect(notShown('and click **Test**: it tells a refused key')).toEqual(["n8n's credential dialog has no Test button"]);
		expect(notShown('answers only while you click *Test this trigger*, once')).toEqual([]);
		expect(notShown('1. Add **Intelliprint Trigger**, choose the **Event**')).toEqual(['the trigger picker lists it as "Intelliprint", beside "Intelliprint Status Trigger"']);
	});
});

describe.each(N8N_LINES)("n8n's own labels, as n8n $line shows them", ({ line, home }) => {
	const installed = fs.existsSync(`${home}/node_modules/n8n/package.json`);
	it.skipIf(!installed)(`the editor's strings the docs use (Settings, On Error, the resource mapper's modes) are n8n ${line}'s`, () => {
		expect(editorStrings(home)).toEqual(N8N_STRINGS);
	});

	it.skipIf(!installed)(`the words for the credential dialog, the resource mapper's fields and the trigger picker are n8n ${line}'s`, () => {
		expect(editorSays(home, Object.keys(SHOWN))).toEqual(SHOWN);
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
