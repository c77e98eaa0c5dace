import { NodeApiError } from 'n8n-workflow';

import { connectionSettings, send, type IntelliprintContext } from './request';

export interface DownloadedFile {
	data: Buffer;
	mimeType: string;
}

/**
 * Fetches a file Intelliprint links to (a letter's PDF, a merged PDF, a background preview). These
 * links usually point at a separate file host and carry their own signature: the API key is sent
 * only when the link is on the API's own host.
 */
export async function downloadFile(
	ctx: IntelliprintContext,
	url: string,
	what: string,
	itemIndex?: number,
): Promise<DownloadedFile> {
	const { baseUrl } = await connectionSettings(ctx);
	const response = await send(ctx, {
		options: {
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Signed links must not hand the key on if the file host redirects elsewhere.
			sendCredentialsOnCrossOriginRedirect: false,
		},
		repeatable: true,
		toApi: new URL(url).origin === new URL(baseUrl).origin,
		itemIndex,
	});
	if (response.statusCode >= 400) {
		throw new NodeApiError(ctx.getNode(), {}, {
			message: `Could not download ${what} (HTTP ${response.statusCode})`,
			description: [403, 404, 410].includes(response.statusCode)
				? 'Intelliprint file links expire after about an hour. Get the item again for a fresh link, then download straight away.'
				: 'The file host refused the download. Try again later.',
			httpCode: String(response.statusCode),
			itemIndex,
		});
	}
	const contentType = response.headers?.['content-type'];
	return {
		data: Buffer.from(response.body as ArrayBuffer),
		mimeType: (Array.isArray(contentType) ? contentType[0] : contentType)?.split(';')[0] ?? 'application/octet-stream',
	};
}
