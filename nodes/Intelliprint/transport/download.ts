import { NodeApiError } from 'n8n-workflow';

import { connectionSettings, type IntelliprintContext } from './connection';
import { send } from './send';

/** The first bytes each kind of file Intelliprint links to starts with. */
const SIGNATURES = { pdf: Buffer.from('%PDF-'), png: Buffer.from([0x89, 0x50, 0x4e, 0x47]) };

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
	kind: keyof typeof SIGNATURES = 'pdf',
): Promise<DownloadedFile> {
	const { apiOrigin } = await connectionSettings(ctx);
	let origin: string;
	try {
		origin = new URL(url).origin;
	} catch {
		throw new NodeApiError(ctx.getNode(), {}, {
			message: `Intelliprint gave no usable link for ${what}`,
			description: `The link was ${JSON.stringify(String(url).slice(0, 100))}. Get the item again for a fresh link.`,
			itemIndex,
		});
	}
	const response = await send(ctx, {
		options: {
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		},
		repeatable: true,
		toApi: origin === apiOrigin,
		itemIndex,
	});
	if (response.statusCode >= 300 && response.statusCode < 400) {
		// Only a link on the API's own host gets here: redirects are not followed with the key, and no retry cures one.
		const location = response.headers?.location;
		throw new NodeApiError(ctx.getNode(), {}, {
			message: `The link to ${what} redirects elsewhere (HTTP ${response.statusCode}), so it was not followed`,
			description: `The link is on Intelliprint's own host, so the request carried your API key, which must not go on to ${location ? `"${String(location).slice(0, 100)}"` : 'another address'}. Trying again does not change this: check the Base URL of the Intelliprint API credential, or ask Intelliprint support why the file link redirects.`,
			httpCode: String(response.statusCode),
			itemIndex,
		});
	}
	if (response.statusCode >= 300) {
		throw new NodeApiError(ctx.getNode(), {}, {
			message: `Could not download ${what} (HTTP ${response.statusCode})`,
			description: [403, 404, 410].includes(response.statusCode)
				? 'Intelliprint file links expire after about an hour. Get the item again for a fresh link, then download straight away.'
				: 'The file host refused the download. Try again later.',
			httpCode: String(response.statusCode),
			itemIndex,
		});
	}
	const data = Buffer.from(response.body as ArrayBuffer);
	// A proxy's error page with a 200 status must not pass for the file.
	if (data.subarray(0, 1024).indexOf(SIGNATURES[kind]) === -1) {
		throw new NodeApiError(ctx.getNode(), {}, {
			message: `The download of ${what} is not a ${kind.toUpperCase()} file`,
			description: `The file host answered HTTP ${response.statusCode} with ${data.length} bytes that do not look like a ${kind.toUpperCase()}. A proxy may have answered instead of the file host. Try again later.`,
			itemIndex,
		});
	}
	const contentType = response.headers?.['content-type'];
	return {
		data,
		mimeType: (Array.isArray(contentType) ? contentType[0] : contentType)?.split(';')[0] ?? 'application/octet-stream',
	};
}
