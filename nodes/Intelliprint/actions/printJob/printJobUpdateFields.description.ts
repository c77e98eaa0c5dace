import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { printJobSettingFields } from './printJobOptions.description';

/**
 * Update offers each setting on its own, unlike Create's groups: n8n fills a group with the
 * defaults of every field in it, so opening Postage to set only the mail date would also send
 * "second class, C5" and downgrade a first-class draft. Here only the fields the user adds are sent.
 * The fields are lifted out of Create's groups, so both stay one definition.
 */
const CREATE_ONLY = ['postageAbroad'];
const lifted = new Map<string, { group: string; field: string }>();

function capitalised(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

function lift(group: INodeProperties): INodeProperties[] {
	const single = group.type === 'fixedCollection' && !group.typeOptions?.multipleValues;
	const inner = single ? (group.options as Array<{ name: string; values?: INodeProperties[] }>)?.[0] : undefined;
	if (!inner?.values) return [group];
	// A draft's letters are addressed already: what goes abroad is Create's choice (Service is checked against them).
	return inner.values.filter((field) => !CREATE_ONLY.includes(field.name)).map((field) => {
		const name = `${group.name}${capitalised(field.name)}`;
		lifted.set(name, { group: group.name, field: field.name });
		const label = field.displayName.startsWith(group.displayName) ? field.displayName : `${group.displayName} ${field.displayName}`;
		// Shown and sent on its own: no "show only with" rules tied to its group's other fields.
		const standalone: INodeProperties = { ...field, name, displayName: label };
		delete standalone.displayOptions;
		delete standalone.required;
		return standalone;
	});
}

export const printJobUpdateFields: INodeProperties[] = printJobSettingFields.flatMap(lift);

/** The update's fields put back into Create's groups, holding only what the user added. */
export function groupUpdateFields(fields: IDataObject): IDataObject {
	const grouped: IDataObject = {};
	for (const [name, value] of Object.entries(fields)) {
		const target = lifted.get(name);
		if (!target) {
			grouped[name] = value;
			continue;
		}
		const group = (grouped[target.group] ??= { values: {} }) as { values: IDataObject };
		group.values[target.field] = value;
	}
	return grouped;
}
