import { describe, expect, it } from 'vitest';

import { pageCount } from '../../../../fake-api/pdf';
import { useFakeApi } from '../../../../helpers/context';
import { simplePdf } from '../../../../helpers/pdfs';
import { byId, createFourLetterJob } from '../../../../helpers/printJobs';

const letterPdfs = { output: 'letters', downloadLetterPdfs: true, letterPdfBinaryProperty: 'letter' };

describe('Print Job: letters and their PDFs as files', () => {
	describe('with a separate file host (as the real service)', () => {
		const api = useFakeApi();

		it("puts each letter's own PDF on its item, without sending the API key to the file host", async () => {
			const id = await createFourLetterJob(api);
			const { items, error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: byId(id), ...letterPdfs } });
			expect(error).toBeUndefined();
			expect(items).toHaveLength(4);
			const pages = await Promise.all(items.map((i) => pageCount(Buffer.from(i.binary!.letter.data, 'base64'))));
			expect(pages).toEqual(items.map((i) => i.json.pages));
			expect(items[0].binary!.letter).toMatchObject({ mimeType: 'application/pdf', fileName: `${items[0].json.id}.pdf` });
			const downloads = api.fake.requests.filter((r) => r.path.startsWith('files:/letters/'));
			expect(downloads).toHaveLength(4);
			expect(downloads.every((r) => r.headers.authorization === undefined)).toBe(true);
		});

		it('downloads letter PDFs straight from Create too', async () => {
			const { items } = await api.run({
				parameters: { resource: 'printJob', operation: 'create', binaryPropertyName: 'data', ...letterPdfs, options: { splitting: { values: { method: 'split_on_pages', pages: 1 } } } },
				items: [{ files: { data: { data: await simplePdf(3), fileName: 'three.pdf' } } }],
			});
			expect(items.map((i) => Object.keys(i.binary ?? {}))).toEqual([['letter'], ['letter'], ['letter']]);
		});

		it('explains an expired link', async () => {
			const id = await createFourLetterJob(api);
			const job = api.fake.prints.get(id);
			job.letters[1].pdf = `${api.fake.fileUrl}/letters/ltr_0000expired.pdf?expires=1`;
			const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: byId(id), ...letterPdfs } });
			expect(error?.message).toBe(`Could not download the PDF of letter ${job.letters[1].id} (HTTP 404)`);
			expect(error?.description).toContain('expire after about an hour');
		});
	});

	describe("with files on the API's own host", () => {
		const api = useFakeApi({ rateLimit: false, filesOnApiHost: true });

		it('authenticates the download, because the host is the API itself', async () => {
			const id = await createFourLetterJob(api);
			const { items, error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: byId(id), ...letterPdfs } });
			expect(error).toBeUndefined();
			expect(items.every((i) => i.binary?.letter)).toBe(true);
			const downloads = api.fake.requests.filter((r) => r.path.startsWith('/files/'));
			expect(downloads).toHaveLength(4);
			expect(downloads.every((r) => r.headers.authorization === `Bearer ${api.fake.apiKey}`)).toBe(true);
		});

		it('a link there that redirects is reported as a redirect, which no retry cures, and is not followed', async () => {
			const id = await createFourLetterJob(api);
			api.fake.faults.push({ host: 'files', method: 'GET', path: /^\/letters\//, redirect: { status: 302, to: 'elsewhere' }, times: 4 });
			const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: byId(id), ...letterPdfs } });
			expect(error?.message).toMatch(/^The link to the PDF of letter ltr_\w+ redirects elsewhere \(HTTP 302\), so it was not followed$/);
			expect(error?.description).toContain('Trying again does not change this');
			expect(error?.description).not.toMatch(/try again later/i);
			expect(api.fake.elsewhere).toEqual([]);
		});
	});
});
