import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, NodeError } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readPdfProperty } from '../../building';
import { asNodeError, errorItem, rowsInWords } from '../../results';
import { apiRequest, downloadFile, encodeMultipart, type FilePart, EXPECT } from '../../transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Fields',
		name: 'binaryPropertyNames',
		type: 'string',
		default: '',
		placeholder: 'e.g. letter, terms, leaflet',
		hint: "Comma-separated, in merge order. Leave empty to merge all of the item's binary fields in their order.",
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Download Merged File',
				name: 'download',
				type: 'boolean',
				default: true,
				description: 'Whether to download the merged PDF into a binary field, ready for Print Job → Create or a storage node',
			},
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: 'merged.pdf',
				description: 'The file name of the downloaded merged PDF',
			},
			{
				displayName: 'Merge Across All Items',
				name: 'combineAllItems',
				type: 'boolean',
				default: false,
				description: 'Whether to merge the files of all input items, in item order, into one PDF instead of one PDF per item',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'outputBinaryProperty',
				type: 'string',
				default: 'data',
				hint: 'The name of the output binary field for the merged PDF',
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['merge'], operation: ['merge'] } }, properties);

async function filesOfItem(ctx: IExecuteFunctions, itemIndex: number): Promise<FilePart[]> {
	const listed = (ctx.getNodeParameter('binaryPropertyNames', itemIndex, '') as string)
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	const names = listed.length ? listed : Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	const files: FilePart[] = [];
	for (const name of names) files.push(await readPdfProperty(ctx, itemIndex, name, 'Input Binary Fields'));
	return files;
}

/**
 * Merging across all items makes one PDF of all their files or none: a document silently missing a part is worse
 * than none. A file that cannot be read fails its own item with its reason, and each other item with one that
 * names the item that stopped it.
 */
function allOrNothing(ctx: IExecuteFunctions, itemIndexes: number[], refused: Array<[number, NodeError]>): INodeExecutionData[] {
	const own = new Map(refused);
	const which = rowsInWords(refused.map(([index]) => index));
	return itemIndexes.map((index) =>
		errorItem(
			ctx,
			own.get(index) ??
				new NodeOperationError(ctx.getNode(), `Not merged: the files of ${which} could not be read, and Merge Across All Items merges all files or none`, {
					itemIndex: index,
					description: `Nothing was sent. Correct or remove ${which}, and run again.`,
				}),
			index,
		),
	);
}

/** Merging across all items is one request for the whole run. */
export function runsOnce(this: IExecuteFunctions): boolean {
	return (this.getNodeParameter('options', 0, {}) as IDataObject).combineAllItems === true;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const combine = options.combineAllItems === true;
	const itemIndexes = combine ? this.getInputData().map((_, index) => index) : [itemIndex];

	const files: FilePart[] = [];
	const refused: Array<[number, NodeError]> = [];
	for (const index of itemIndexes) {
		try {
			for (const file of await filesOfItem(this, index)) files.push(file);
		} catch (error) {
			if (!combine || !this.continueOnFail()) throw asNodeError(this, error);
			refused.push([index, asNodeError(this, error)]);
		}
	}
	if (refused.length) return allOrNothing(this, itemIndexes, refused);
	if (files.length < 2) {
		throw new NodeOperationError(this.getNode(), `Merging needs at least two PDFs, but found ${files.length}`, {
			itemIndex,
			description: combine
				? 'Give the input items more PDF binary fields between them.'
				: 'Name two or more binary fields in "Input Binary Fields", or turn on "Merge Across All Items" to merge the files of several items.',
		});
	}

	const merge = await apiRequest<IDataObject>(this, { expect: EXPECT.merge,
		method: 'POST',
		path: '/tools/merge',
		multipart: encodeMultipart(files.map((file) => ['files[]', file])),
		itemIndex,
	});
	const pairedItem = combine ? itemIndexes.map((item) => ({ item })) : { item: itemIndex };
	const item: INodeExecutionData = { json: merge, pairedItem };
	if (options.download !== false) {
		if (typeof merge.download_link !== 'string') {
			throw new NodeApiError(this.getNode(), {}, {
				message: "Intelliprint's merge answer has no download link",
				description: `The merge ${String(merge.id)} was made, but its file cannot be fetched. Turn off "Download Merged File" to keep the merge result without the file, or try again.`,
				itemIndex,
			});
		}
		const file = await downloadFile(this, merge.download_link, 'the merged PDF', itemIndex);
		const property = (options.outputBinaryProperty as string) || 'data';
		item.binary = {
			[property]: await this.helpers.prepareBinaryData(file.data, (options.fileName as string) || 'merged.pdf', 'application/pdf'),
		};
	}
	return [item];
}
