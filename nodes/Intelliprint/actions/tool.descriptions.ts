import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MODEL_ARGUMENTS } from '../agent';

/**
 * What the node shows when an AI agent uses it as a tool (n8n names that node type
 * "intelliprintTool" and shows parameters whose display options ask for `@tool`).
 */
const AS_TOOL: IDisplayOptions = { show: { '@tool': [true] } };

function onlyWhen(property: INodeProperties, extra: IDisplayOptions): INodeProperties {
	const displayOptions: IDisplayOptions = { ...property.displayOptions };
	for (const kind of ['show', 'hide'] as const) {
		if (extra[kind]) displayOptions[kind] = { ...displayOptions[kind], ...extra[kind] };
	}
	return { ...property, displayOptions };
}

/**
 * A field a model fills when the node is a tool: in the tool, its default is a `$fromAI()` with a
 * description written for a model (n8n builds the tool's schema from these calls only, so a field
 * the builder leaves to the model with n8n's own button reaches the model as a bare name).
 * Elsewhere the field is as it was.
 */
export function filledByModel(
	property: INodeProperties,
	argument: { key: string; description: string; type?: 'string' | 'number' | 'boolean' },
): INodeProperties[] {
	MODEL_ARGUMENTS.set(property.displayName, argument.key);
	const fromAi = `$fromAI('${argument.key}', ${JSON.stringify(argument.description)}, '${argument.type ?? 'string'}')`;
	const value = `={{ ${fromAi} }}`;
	return toolDefault(property, property.type === 'resourceLocator' ? { __rl: true, mode: 'id', value } : value);
}

/** A field whose default differs when the node is a tool (e.g. safer, or what a model can use). */
export function toolDefault(property: INodeProperties, value: INodeProperties['default']): INodeProperties[] {
	return [onlyWhen(property, { hide: { '@tool': [true] } }), onlyWhen({ ...property, default: value }, AS_TOOL)];
}

/**
 * The tool's description as a model reads it. n8n adds its own "Tool Description" field unless the
 * node has one, and its automatic text ("Create a print job in Intelliprint") says nothing about
 * money, test mode or what comes back; this one does, per operation, and the builder may edit it.
 */
export function toolDescriptionField(resource: string, option: INodePropertyOptions, text?: string): INodeProperties[] {
	const operation = option.value as string;
	const told = text ?? `${option.description ?? option.action ?? option.name} in Intelliprint, the UK print-and-post service.`;
	const field: INodeProperties = {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: told,
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
		description: 'What the AI model is told this tool does; a clear description makes the model use it well',
	};
	if (resource !== 'printJob' || !LIVE_LETTER_OPERATIONS.includes(operation)) return [field];
	// The model is told in advance what the builder allowed (the default follows "Allow Live Letters").
	return [
		onlyWhen({ ...field, default: `${told} ${TEST_ONLY[operation]}` }, { show: { allowLive: [false] } }),
		onlyWhen({ ...field, default: `${told} ${LIVE_ALLOWED}` }, { show: { allowLive: [true] } }),
	];
}

/** The print job operations that could post real mail, where the builder decides whether a model may. */
const LIVE_LETTER_OPERATIONS = ['create', 'confirm', 'update'];
/** What a model is told the tool does when the builder has not allowed live letters, per operation. */
const TEST_ONLY: Record<string, string> = {
	create: 'In this workflow the tool makes test jobs only (free, never printed or posted): a live job asked for is made as a test job.',
	confirm: 'In this workflow the tool confirms test jobs only (free, never printed or posted); confirming a live draft is refused.',
	update: 'In this workflow the tool may change drafts, and confirm test jobs only; confirming a live draft is refused.',
};
const LIVE_ALLOWED =
	'This workflow allows live letters: a confirmed live job is printed, posted and charged. Spending limits may hold a live job back as a draft; the error then gives its ID and cost: do not retry, tell the user.';

/** Whether the agent may post real mail: off unless the builder turns it on in the tool's panel. */
export const liveLettersFields: INodeProperties[] = [
	{
		displayName:
			'Used by an AI agent, this tool makes only test jobs (free, never printed or posted) and cannot confirm drafts, whatever the model asks, unless "Allow Live Letters" is on',
		name: 'toolSafetyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@tool': [true], resource: ['printJob'], operation: LIVE_LETTER_OPERATIONS } },
	},
	{
		displayName: 'Allow Live Letters (Costs Money)',
		name: 'allowLive',
		type: 'boolean',
		default: false,
		displayOptions: { show: { '@tool': [true], resource: ['printJob'], operation: LIVE_LETTER_OPERATIONS } },
		description:
			'Whether the model may create live jobs and confirm drafts: confirmed live letters are printed, posted and charged to your account',
	},
];
