import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { numberValue, textValue } from '../values';

/** Sort, trim and skip, as every list endpoint takes them; `sortFields` are the ones the endpoint sorts on. */
export function listOptions(sortFields: Array<[name: string, value: string]>): INodeProperties {
	return {
		displayName: 'List Options',
		name: 'listOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Only Fields',
				name: 'fields',
				type: 'string',
				default: '',
				placeholder: 'e.g. reference, letters.status, cost.amount',
				description: 'Comma-separated fields to keep of each entry (dot paths reach inside); ID and object are always kept. Leave empty for all.',
			},
			{
				displayName: 'Skip',
				name: 'skip',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'How many entries to pass over first, e.g. to continue where an earlier run stopped',
			},
			{
				displayName: 'Sort By',
				name: 'sortField',
				type: 'options',
				default: 'created',
				options: sortFields.map(([name, value]) => ({ name, value })),
			},
			{
				displayName: 'Sort Order',
				name: 'sortOrder',
				type: 'options',
				default: 'desc',
				options: [
					{ name: 'Ascending', value: 'asc' },
					{ name: 'Descending', value: 'desc' },
				],
			},
		],
	};
}

/** The query and starting point a Get Many's list options ask for. */
export function listQuery(ctx: IExecuteFunctions, itemIndex: number): { qs: IDataObject; skip: number } {
	const options = ctx.getNodeParameter('listOptions', itemIndex, {}) as IDataObject;
	const qs: IDataObject = {};
	if (options.sortField) qs.sort_field = textValue(ctx, itemIndex, options.sortField, 'Sort By');
	if (options.sortOrder) qs.sort_order = textValue(ctx, itemIndex, options.sortOrder, 'Sort Order');
	const fields = (textValue(ctx, itemIndex, options.fields, 'Only Fields') ?? '').split(',').map((field) => field.trim()).filter(Boolean);
	if (fields.length) qs.fields = fields;
	return { qs, skip: numberValue(ctx, itemIndex, options.skip, 'Skip', { integer: true, min: 0 }) ?? 0 };
}
