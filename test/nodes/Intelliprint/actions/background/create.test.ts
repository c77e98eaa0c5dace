import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { simplePdf } from '../../../../helpers/pdfs';

const api = useFakeApi();
const create = (extra: Record<string, unknown> = {}) => ({ resource: 'background', operation: 'create', binaryPropertyName: 'data', ...extra });

describe('Background → Create', () => {
	it('uploads the letterhead as a multipart file with its name and team', async () => {
		const pdf = await simplePdf(1, 'Letterhead');
		const { items, error } = await api.run({
			parameters: create({ name: 'Head office', team: 'team_ops' }),
			items: [{ files: { data: { data: pdf, fileName: 'head-office.pdf' } } }],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: expect.stringMatching(/^bg_/), object: 'background', name: 'Head office', filename: 'head-office.pdf', team: 'team_ops' });
		const [call] = api.apiCalls();
		expect(call).toMatchObject({ method: 'POST', path: '/v1/backgrounds' });
		expect(call.body).toEqual({ file: { fileName: 'head-office.pdf', contentType: 'application/pdf', size: pdf.length }, name: 'Head office', team: 'team_ops' });
	});

	it('can hand the PNG preview on as a binary', async () => {
		const { items } = await api.run({
			parameters: create({ downloadPreview: true, previewBinaryProperty: 'preview' }),
			items: [{ files: { data: { data: await simplePdf(1), fileName: 'lh.pdf' } } }],
		});
		const preview = items[0].binary!.preview;
		expect(preview).toMatchObject({ mimeType: 'image/png', fileName: 'lh.pdf.png' });
		expect(Buffer.from(preview.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
		// The preview comes from the file host, which is never sent the API key.
		const download = api.fake.requests.find((r) => r.path.startsWith('files:/backgrounds/'));
		expect(download?.headers.authorization).toBeUndefined();
	});

	it('refuses a file that is not a PDF, on the right item, and goes on with Continue On Fail', async () => {
		const { items } = await api.run({
			parameters: create(),
			continueOnFail: true,
			items: [
				{ files: { data: { data: Buffer.from('\x89PNG...'), fileName: 'logo.png', mimeType: 'image/png' } } },
				{ files: { data: { data: await simplePdf(1), fileName: 'ok.pdf' } } },
			],
		});
		expect(items[0]).toMatchObject({ json: { error: 'The file in "data" is not a PDF' }, pairedItem: { item: 0 } });
		expect(items[1].json.object).toBe('background');
	});
});
