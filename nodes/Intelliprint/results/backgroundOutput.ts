import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { downloadFile } from '../transport';

export interface Background extends IDataObject {
	id: string;
	name?: string;
	preview?: string;
}

/** The API's `created` is UNIX seconds; `created_at` next to it is the same moment as an ISO date a person can read. */
function withReadableTime(background: Background): Background {
	const created = background.created;
	return typeof created === 'number' && Number.isFinite(created) ? { ...background, created_at: new Date(created * 1000).toISOString() } : background;
}

/** One item per background, with its PNG preview as a binary when the user asked for it. */
export async function backgroundItems(
	ctx: IExecuteFunctions,
	backgrounds: Background[],
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const download = ctx.getNodeParameter('downloadPreview', itemIndex, false) as boolean;
	const property = ctx.getNodeParameter('previewBinaryProperty', itemIndex, 'preview') as string;
	const items: INodeExecutionData[] = [];
	for (const background of backgrounds) {
		const item: INodeExecutionData = { json: withReadableTime(background), pairedItem: { item: itemIndex } };
		if (download && background.preview) {
			const file = await downloadFile(ctx, background.preview, `the preview of background ${background.id}`, itemIndex, 'png');
			const fileName = `${background.name || background.id}.png`.replace(/[\\/]/g, '-');
			item.binary = { [property]: await ctx.helpers.prepareBinaryData(file.data, fileName, 'image/png') };
		}
		items.push(item);
	}
	return items;
}
