import fs from 'fs-extra';
import type { ICredentialType, INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import ts from 'typescript';

/**
 * The labels the package's messages and docs name, and the labels n8n shows, as a tree a path such as
 * "Print Job → Create → Options → Items in Parallel" can be followed in. Read by test/package/uiLabels.test.ts.
 */

export interface Label {
	label: string;
	children: Label[];
}

const label = (text: string, children: Label[] = []): Label => ({ label: text, children });

/**
 * n8n's own words the docs and messages use, by their keys in n8n's editor strings (the same in 2.x and 1.x; the
 * test reads them from each installed n8n's editor bundle and fails when one differs).
 */
export const N8N_STRINGS = {
	'nodeSettings.settings': 'Settings',
	'nodeSettings.onError.displayName': 'On Error',
	'nodeSettings.onError.options.stopWorkflow.displayName': 'Stop Workflow',
	'nodeSettings.onError.options.continueRegularOutput.displayName': 'Continue',
	'nodeSettings.onError.options.continueErrorOutput.displayName': 'Continue (using error output)',
	'nodeSettings.retryOnFail.displayName': 'Retry On Fail',
	'nodeSettings.alwaysOutputData.displayName': 'Always Output Data',
	'nodeSettings.executeOnce.displayName': 'Execute Once',
	'resourceMapper.mappingMode.label': 'Mapping Column Mode',
	'resourceMapper.mappingMode.defineBelow.name': 'Map Each Column Manually',
	'resourceMapper.mappingMode.autoMapInputData.name': 'Map Automatically',
	'mainSidebar.executions': 'Executions',
	'nodeWebhooks.webhookUrls': 'Webhook URLs',
	'nodeWebhooks.productionUrl': 'Production URL',
	'nodeWebhooks.testUrl': 'Test URL',
	'ndv.output.noOutputData.trigger.action': 'Test this trigger',
	'ndv.execute.fetchEvent': 'Fetch Test Event',
	'ndv.execute.listenForTestEvent': 'Listen for test event',
} as const;

const n8n = (key: keyof typeof N8N_STRINGS) => N8N_STRINGS[key];

/**
 * Labels of n8n's own nodes the docs name, with the file of the installed n8n (under node_modules) whose source
 * must hold each as a display name or an option name.
 */
export const N8N_NODE_LABELS: Array<{ file: string; labels: string[] }> = [
	{ file: 'n8n-nodes-base/dist/nodes/HttpRequest/V3/Description.js', labels: ['Authentication', 'Predefined Credential Type', 'Batching'] },
	{ file: 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js', labels: ['HTTP Request'] },
	{ file: 'n8n-nodes-base/dist/nodes/RespondToWebhook/RespondToWebhook.node.js', labels: ['Respond to Webhook'] },
	{ file: '@n8n/n8n-nodes-langchain/dist/nodes/agents/Agent/Agent.node.js', labels: ['AI Agent'] },
];

/** The strings of n8n's editor bundle (`"key": "value"` in 1.x, `"key":\`value\`` in 2.x) that N8N_STRINGS names. */
export function editorStrings(n8nHome: string): Record<string, string> | undefined {
	const assets = `${n8nHome}/node_modules/n8n-editor-ui/dist/assets`;
	if (!fs.existsSync(assets)) return undefined;
	const keys = Object.keys(N8N_STRINGS);
	const found: Record<string, string> = {};
	// The English strings are in one of the largest files: read those first, and stop once every key is found.
	const files = fs
		.readdirSync(assets)
		.filter((name) => name.endsWith('.js'))
		.map((name) => ({ path: `${assets}/${name}`, size: fs.statSync(`${assets}/${name}`).size }))
		.sort((a, b) => b.size - a.size);
	for (const { path } of files) {
		const text = fs.readFileSync(path, 'utf8');
		if (!text.includes('"nodeSettings.onError.displayName"')) continue;
		for (const key of keys) {
			const escaped = key.replace(/\./g, '\\.');
			const match = new RegExp(`"${escaped}"\\s*:\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|\`([^\`]*)\`)`).exec(text);
			if (match && found[key] === undefined) found[key] = match[1] ?? match[2];
		}
		if (keys.every((key) => found[key] !== undefined)) break;
	}
	return found;
}

type Shown = { resource?: string[]; operation?: string[] };
const shownFor = (property: INodeProperties): Shown => (property.displayOptions?.show ?? {}) as Shown;

/** A parameter and what can be chosen or filled in under it, as the panel shows them. */
function parameterLabel(property: INodeProperties | INodePropertyCollection, mapperFields: string[]): Label {
	if ('values' in property) {
		// A fixed collection's group: its fields.
		return label(property.displayName, property.values.map((value) => parameterLabel(value, mapperFields)));
	}
	const children: Label[] = [];
	if (property.type === 'options' || property.type === 'multiOptions') {
		for (const option of (property.options ?? []) as INodePropertyOptions[]) children.push(label(option.name));
	} else if (property.type === 'collection') {
		for (const option of (property.options ?? []) as INodeProperties[]) children.push(parameterLabel(option, mapperFields));
	} else if (property.type === 'fixedCollection') {
		for (const group of (property.options ?? []) as INodePropertyCollection[]) {
			const groupLabel = parameterLabel(group, mapperFields);
			// A group of one is shown by its fields alone: they are named under the collection itself too.
			children.push(groupLabel, ...groupLabel.children);
		}
	} else if (property.type === 'resourceMapper') {
		children.push(
			label(n8n('resourceMapper.mappingMode.label'), [label(n8n('resourceMapper.mappingMode.autoMapInputData.name')), label(n8n('resourceMapper.mappingMode.defineBelow.name'))]),
			...mapperFields.map((field) => label(field)),
		);
	} else if (property.type === 'resourceLocator') {
		for (const mode of property.modes ?? []) children.push(label(mode.displayName));
	}
	return label(property.displayName, children);
}

/** The action node: its resources, each resource's operations, each operation's parameters (every version). */
function actionNodeLabels(description: INodeTypeDescription, mapperFields: string[]): Label {
	const properties = description.properties;
	const resourceProperty = properties.find((property) => property.name === 'resource')!;
	const resources = (resourceProperty.options as INodePropertyOptions[]).map((resource) => {
		const operations = properties
			.filter((property) => property.name === 'operation' && shownFor(property).resource?.includes(String(resource.value)))
			.flatMap((property) => property.options as INodePropertyOptions[])
			.map((operation) => {
				const parameters = properties.filter((property) => {
					const shown = shownFor(property);
					if (['resource', 'operation'].includes(property.name) || property.type === 'notice') return false;
					return (!shown.resource || shown.resource.includes(String(resource.value))) && (!shown.operation || shown.operation.includes(String(operation.value)));
				});
				return label(operation.name, parameters.map((parameter) => parameterLabel(parameter, mapperFields)));
			});
		return label(resource.name, operations);
	});
	return label(description.displayName, resources);
}

/** Any other node or credential: its parameters. */
function propertiesLabel(name: string, properties: INodeProperties[], mapperFields: string[]): Label {
	return label(name, properties.filter((property) => property.type !== 'notice').map((property) => parameterLabel(property, mapperFields)));
}

/** n8n's own labels the docs and messages use: a node's Settings, and the editor's. */
function n8nLabels(credentials: string[]): Label[] {
	const onError = label(n8n('nodeSettings.onError.displayName'), [
		label(n8n('nodeSettings.onError.options.stopWorkflow.displayName')),
		label(n8n('nodeSettings.onError.options.continueRegularOutput.displayName')),
		label(n8n('nodeSettings.onError.options.continueErrorOutput.displayName')),
	]);
	const settings = label(n8n('nodeSettings.settings'), [
		onError,
		label(n8n('nodeSettings.retryOnFail.displayName')),
		label(n8n('nodeSettings.alwaysOutputData.displayName')),
		label(n8n('nodeSettings.executeOnce.displayName')),
	]);
	const httpRequest = label('HTTP Request', [label('Authentication', [label('Predefined Credential Type', credentials.map((name) => label(name)))]), label('Options', [label('Batching')])]);
	const nodes = N8N_NODE_LABELS.flatMap((entry) => entry.labels).filter((name) => !['Authentication', 'Predefined Credential Type', 'Batching', 'HTTP Request'].includes(name));
	return [
		settings,
		onError,
		httpRequest,
		label(n8n('mainSidebar.executions')),
		label(n8n('nodeWebhooks.webhookUrls'), [label(n8n('nodeWebhooks.productionUrl')), label(n8n('nodeWebhooks.testUrl'))]),
		label(n8n('ndv.output.noOutputData.trigger.action')),
		label(n8n('ndv.execute.fetchEvent')),
		label(n8n('ndv.execute.listenForTestEvent')),
		...nodes.map((name) => label(name)),
	];
}

export interface LabelSources {
	actionNode: INodeTypeDescription;
	otherNodes: INodeTypeDescription[];
	credentials: ICredentialType[];
	/** The resource mapper's field names (from the node's mapping method). */
	mapperFields: string[];
}

/** Every label, in a tree under one root. */
export function labelTree(sources: LabelSources): Label {
	const credentialNames = sources.credentials.map((credential) => credential.displayName);
	return label('', [
		...actionNodeLabels(sources.actionNode, sources.mapperFields).children,
		actionNodeLabels(sources.actionNode, sources.mapperFields),
		...sources.otherNodes.map((node) => propertiesLabel(node.displayName, node.properties, sources.mapperFields)),
		...sources.credentials.map((credential) => propertiesLabel(credential.displayName, credential.properties, sources.mapperFields)),
		...n8nLabels(credentialNames),
	]);
}

/** The labels of the tree by their text (one text may stand at several places). */
function index(tree: Label): Map<string, Label[]> {
	const byText = new Map<string, Label[]>();
	const visit = (node: Label) => {
		if (node.label) byText.set(node.label, [...(byText.get(node.label) ?? []), node]);
		node.children.forEach(visit);
	};
	visit(tree);
	return byText;
}

/**
 * A label named without its last part in brackets is the label ("Daily Spending Limit" for "Daily Spending Limit
 * (GBP)"): what the panel shows starts with it.
 */
const matches = (named: string, actual: string) => named === actual || actual.replace(/ \([^)]*\)$/, '') === named;

export interface Mention {
	/** Where: file and line. */
	where: string;
	/** The path as written, e.g. "Print Job → Create", or the quoted name. */
	text: string;
	/** Why it does not name what n8n shows; undefined when it does. */
	wrong?: string;
}

/** Paths and names that are not n8n's or the package's labels, and why they are left alone. */
export const NOT_CHECKED: Array<{ text: RegExp; why: string }> = [
	{ text: /^Account → API Keys/, why: "the Intelliprint dashboard's menu" },
	{ text: /^Webhooks → your endpoint/, why: "the Intelliprint dashboard's menu" },
	{ text: /^Settings → (?:Trusted Publisher|Secrets and variables)/, why: "npmjs.com's and GitHub's settings (docs/releasing.md)" },
	{ text: /^Trusted Publishing$/, why: "npm's name for publishing from CI without a token (docs/releasing.md)" },
	{ text: /^(?:Post Code|Address Line 2)$/, why: 'column names a sheet may use, as the automatic mapping reads them' },
];

const skipped = (text: string) => NOT_CHECKED.some((entry) => entry.text.test(text));

const SMALL_WORDS = 'a|an|and|as|at|by|for|from|in|into|of|on|or|per|the|to|up|with';
/** A name in Title Case of two words or more ("Map Each Column Manually", "Letters per Print Job", "PDF at a URL"). */
const TITLE_CASE = new RegExp(`^[A-Z][A-Za-z]*(?: (?:[A-Z][A-Za-z]*|${SMALL_WORDS}))*(?: [A-Z][A-Za-z]*| \\([^()]+\\))$`);

/** Labels n8n no longer shows. */
const RETIRED = /\bContinue\s+On\s+Fail\b/;

/** Words before a quoted name that make it something to click or choose in the panel. */
const ACTION = /\b(?:click|choose|select|pick|press|open|turn on|turn off|switch on|switch off)\s+(?:the\s+)?$/i;

/** " / " between two labels of one level ("Get / Get Many"), with their formatting. */
const SIBLING = /^[\s*_"“”']* \/ [\s*_"“”']*/;

export class LabelChecker {
	private readonly byText: Map<string, Label[]>;
	private readonly texts: string[];

	constructor(tree: Label) {
		this.byText = index(tree);
		this.texts = [...this.byText.keys()].sort((a, b) => b.length - a.length);
	}

	/** Whether a quoted name is a label anywhere. */
	isLabel(name: string): boolean {
		return this.texts.some((text) => matches(name, text));
	}

	/** The longest label among `candidates` that `text` starts with (followed by a word boundary). */
	private static prefix(text: string, candidates: Label[]): { node: Label; named: string } | undefined {
		let best: { node: Label; named: string } | undefined;
		for (const node of candidates) {
			for (const named of [node.label, node.label.replace(/ \([^)]*\)$/, '')]) {
				if (text.startsWith(named) && !/^[A-Za-z0-9]/.test(text.slice(named.length)) && (!best || named.length > best.named.length)) best = { node, named };
			}
		}
		return best;
	}

	/** The labels the text before an arrow ends with, longest first. */
	private suffix(before: string): { nodes: Label[]; named: string } | undefined {
		const trimmed = before.replace(/[\s*_"“”']+$/, '');
		for (const text of this.texts) {
			for (const named of [text, text.replace(/ \([^)]*\)$/, '')]) {
				if (trimmed.endsWith(named) && !/[A-Za-z0-9]$/.test(trimmed.slice(0, -named.length))) return { nodes: this.byText.get(text)!, named };
			}
		}
		return undefined;
	}

	/** The paths ("X → Y → Z") in a text, each checked against the tree. */
	paths(text: string, where: (offset: number) => string): Mention[] {
		const found: Mention[] = [];
		let arrow = text.indexOf('→');
		while (arrow !== -1) {
			const { mention, end } = this.path(text, arrow);
			if (mention) found.push({ ...mention, where: where(arrow) });
			arrow = text.indexOf('→', end);
		}
		return found;
	}

	/** The path through the arrow at `arrow`, checked, and where it ends in the text. */
	private path(text: string, arrow: number): { mention?: Omit<Mention, 'where'>; end: number } {
		const before = text.slice(Math.max(0, arrow - 80), arrow);
		const start = this.suffix(before);
		if (!start) {
			// No label before the arrow: a placeholder, code or a lower-case phrase ("item 3 → …") is no path.
			const word = /([A-Za-z][A-Za-z()]*)[\s*_"“”']*$/.exec(before)?.[1];
			if (!word || !/^[A-Z]/.test(word)) return { end: arrow + 1 };
			const written = `${word} ${text.slice(arrow, arrow + 60).replace(/\s+/g, ' ')}`;
			return { mention: skipped(written) ? undefined : { text: written, wrong: `"${word}" is not a label of the node or of n8n` }, end: this.pathEnd(text, arrow) };
		}
		let written = start.named;
		let nodes = start.nodes;
		let at = arrow;
		for (;;) {
			const after = text.slice(at + 1);
			const lead = /^[\s*_"“”']*/.exec(after)![0];
			const rest = after.slice(lead.length).replace(/\s+/g, ' ');
			// Words after an arrow that are no label (lower case, a placeholder, code): the path ends.
			if (!/^[A-Z]/.test(rest)) return { mention: { text: written }, end: at + 1 };
			const children = nodes.flatMap((node) => node.children);
			const next = LabelChecker.prefix(rest, children);
			if (!next) {
				const shown = `${written} → ${rest.slice(0, 50)}`;
				if (skipped(shown)) return { end: this.pathEnd(text, at) };
				const names = [...new Set(children.map((child) => `"${child.label}"`))];
				const last = written.split(' → ').at(-1);
				return { mention: { text: shown, wrong: `after "${last}" n8n shows ${names.length ? names.join(', ') : 'nothing'}` }, end: this.pathEnd(text, at) };
			}
			written += ` → ${next.named}`;
			let afterLabel = rest.slice(next.named.length);
			let consumed = at + 1 + lead.length + next.named.length;
			// "Get / Get Many / Delete": siblings, each a label.
			for (let sibling = SIBLING.exec(afterLabel); sibling; sibling = SIBLING.exec(afterLabel)) {
				const other = LabelChecker.prefix(afterLabel.slice(sibling[0].length), children);
				if (!other) break;
				written += ` / ${other.named}`;
				afterLabel = afterLabel.slice(sibling[0].length + other.named.length);
				consumed += sibling[0].length + other.named.length;
			}
			nodes = [next.node];
			if (!/^[\s*_"“”']*→/.test(afterLabel)) return { mention: { text: written }, end: consumed };
			at = text.indexOf('→', consumed);
		}
	}

	/** Where a path that is not followed ends: at the last arrow of the run of arrows it starts (a menu's path). */
	private pathEnd(text: string, arrow: number): number {
		let end = arrow;
		for (let next = text.indexOf('→', end + 1); next !== -1 && next - end < 50 && !/[.;!?\n|]/.test(text.slice(end + 1, next)); next = text.indexOf('→', end + 1)) end = next;
		return end + 1;
	}

	/**
	 * Names in quotes or emphasis that read as labels (Title Case, two words or more), and any quoted name a user is
	 * told to click, choose or turn on, each checked.
	 */
	names(text: string, where: (offset: number) => string): Mention[] {
		const found: Mention[] = [];
		// A name may run over a line break (Markdown wraps), never over a blank line.
		const quoted = /"((?:[^"\n]|\n(?!\n)){3,60})"|“((?:[^”\n]|\n(?!\n)){3,60})”|\*\*((?:[^*\n]|\n(?!\n)){3,60})\*\*|(?<![*\w])\*((?:[^*\n]|\n(?!\n)){3,60})\*(?![*\w])/g;
		for (const match of text.matchAll(quoted)) {
			const name = (match[1] ?? match[2] ?? match[3] ?? match[4]).replace(/\s+/g, ' ').trim().replace(/[.:,]$/, '');
			const told = ACTION.test(text.slice(Math.max(0, match.index - 20), match.index)) && match[1] !== undefined;
			if (name.includes('→') || RETIRED.test(name) || skipped(name) || !(told || TITLE_CASE.test(name))) continue;
			found.push({ where: where(match.index), text: name, wrong: this.isLabel(name) ? undefined : `"${name}" is not a label of the node or of n8n` });
		}
		return found;
	}

	/** A label that n8n showed once and no longer does, written anywhere (quoted or not). */
	static retired(text: string, where: (offset: number) => string): Mention[] {
		return [...text.matchAll(new RegExp(RETIRED.source, 'g'))].map((match) => ({
			where: where(match.index),
			text: match[0],
			wrong: 'n8n shows On Error → "Continue" or "Continue (using error output)" (Continue On Fail was the setting before n8n 1.0)',
		}));
	}
}

/** The text a user reads in a TypeScript file: its string literals and template texts (placeholders as `${…}`). */
export function stringsOf(path: string): Array<{ text: string; line: number }> {
	const source = ts.createSourceFile(path, fs.readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
	const strings: Array<{ text: string; line: number }> = [];
	const visit = (node: ts.Node) => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
		const line = () => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) strings.push({ text: node.text, line: line() });
		else if (ts.isTemplateExpression(node)) {
			strings.push({ text: [node.head.text, ...node.templateSpans.map((span) => `\${…}${span.literal.text}`)].join(''), line: line() });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	// n8n expressions are code, not words.
	return strings.filter((entry) => !entry.text.startsWith('={{'));
}

/** The prose of a Markdown file: code blocks and code spans become a placeholder, so no path runs through them. */
export function proseOf(markdown: string): string {
	return markdown.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' ')).replace(/`[^`\n]*`/g, (code) => `\`${'·'.repeat(Math.max(0, code.length - 2))}\``);
}

/** "file:line" for an offset in a text. */
export const lineAt = (file: string, text: string, firstLine = 1) => (offset: number) => `${file}:${firstLine + text.slice(0, offset).split('\n').length - 1}`;
