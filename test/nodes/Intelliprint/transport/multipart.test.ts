import { describe, expect, it } from 'vitest';

import { parseBody } from '../../../fake-api/body';
import { encodeMultipart, flattenFormFields } from '../../../../nodes/Intelliprint/transport';

describe('multipart encoding', () => {
	it('flattens nested objects and arrays into bracketed keys, leaving empty values out', () => {
		const file = { data: Buffer.from('%PDF-1.4'), fileName: 'a "b".pdf', mimeType: 'application/pdf' };
		const fields = flattenFormFields({
			file, reference: 'R', confirmed: false, empty: '', nothing: null, none: undefined, list: [], obj: {},
			printing: { double_sided: 'mixed', double_sided_specific_pages: [1, 3] },
			extra_documents: [{ document: file, order: 'last' }],
			nudge: { x: 2.5, y: -1 },
		});
		expect(fields.map(([key, value]) => [key, typeof value === 'string' ? value : 'FILE'])).toEqual([
			['file', 'FILE'], ['reference', 'R'], ['confirmed', 'false'], ['empty', ''],
			['printing[double_sided]', 'mixed'], ['printing[double_sided_specific_pages][0]', '1'], ['printing[double_sided_specific_pages][1]', '3'],
			['extra_documents[0][document]', 'FILE'], ['extra_documents[0][order]', 'last'],
			['nudge[x]', '2.5'], ['nudge[y]', '-1'],
		]);
	});

	it('produces a body a standard multipart parser reads back exactly', async () => {
		const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0, 255, 13, 10, 45, 45]), Buffer.from('binary')]);
		const multipart = encodeMultipart(flattenFormFields({ file: { data: pdf, fileName: 'x.pdf', mimeType: 'application/pdf' }, metadata: { batch: 'ünïcode "quoted"' } }));
		const body = (await multipart.open()) as Buffer;
		expect(body.length).toBe(multipart.length);
		const parsed = await parseBody(body, multipart.contentType);
		expect((parsed.file as { data: Buffer }).data.equals(pdf)).toBe(true);
		expect(parsed.metadata).toEqual({ batch: 'ünïcode "quoted"' });
	});

	it('encodes 60,000 recipients (360,000 fields) without running out of stack, and they read back', async () => {
		const recipients = Array.from({ length: 60_000 }, (_, i) => ({
			address: { name: `Customer ${i}`, line: `${i} High Street\nLeeds`, postcode: 'LS1 4AP', country: 'GB' },
			variables: { n: String(i), ünï: 'x' },
		}));
		const fields = flattenFormFields({ content: '<p>Hi</p>', recipients });
		expect(fields).toHaveLength(1 + 60_000 * 6);
		const multipart = encodeMultipart(fields);
		const body = (await multipart.open()) as Buffer;
		expect(body.length).toBe(multipart.length);
		const parsed = (await parseBody(body, multipart.contentType)) as { recipients: typeof recipients };
		expect(parsed.recipients).toHaveLength(60_000);
		expect(parsed.recipients[59_999]).toEqual(recipients[59_999]);
	});
});
