import { randomBytes } from 'node:crypto';

/** A file part: the bytes and the name/type the API should see. */
export interface FilePart {
	data: Buffer;
	fileName: string;
	mimeType: string;
}

export type FormValue = string | number | boolean | FilePart | null | undefined | FormObject | FormValue[];
export interface FormObject {
	[key: string]: FormValue;
}

export interface MultipartBody {
	body: Buffer;
	contentType: string;
}

export function isFilePart(value: unknown): value is FilePart {
	return (
		typeof value === 'object' &&
		value !== null &&
		Buffer.isBuffer((value as FilePart).data) &&
		typeof (value as FilePart).fileName === 'string'
	);
}

function isEmptyValue(value: FormValue): boolean {
	if (value === null || value === undefined) return true;
	if (Array.isArray(value)) return value.length === 0;
	if (typeof value === 'object' && !isFilePart(value)) return Object.keys(value).length === 0;
	return false;
}

/**
 * Flattens nested objects into the bracketed keys the API reads (`postage[service]`,
 * `extra_documents[0][order]`). Empty values are left out, as the official SDK does, so that
 * "not set" never reaches the API as an empty string that it would refuse.
 */
export function flattenFormFields(object: FormObject, prefix = ''): Array<[string, string | FilePart]> {
	const fields: Array<[string, string | FilePart]> = [];
	for (const [key, value] of Object.entries(object)) {
		if (isEmptyValue(value)) continue;
		const name = prefix ? `${prefix}[${key}]` : key;
		if (isFilePart(value)) {
			fields.push([name, value]);
		} else if (Array.isArray(value)) {
			const indexed: FormObject = {};
			value.forEach((entry, index) => (indexed[String(index)] = entry));
			fields.push(...flattenFormFields(indexed, name));
		} else if (typeof value === 'object') {
			fields.push(...flattenFormFields(value as FormObject, name));
		} else {
			fields.push([name, String(value)]);
		}
	}
	return fields;
}

function quoted(value: string): string {
	return value.replace(/[\r\n]+/g, ' ').replace(/"/g, '%22');
}

/**
 * Builds a multipart/form-data body by hand: n8n forbids runtime dependencies such as form-data.
 * File bytes are copied exactly once, into the final body, which is then reused by any retry.
 */
export function encodeMultipart(fields: Array<[string, string | FilePart]>): MultipartBody {
	const boundary = `----n8nIntelliprint${randomBytes(12).toString('hex')}`;
	const chunks: Buffer[] = [];
	for (const [name, value] of fields) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"`;
		if (isFilePart(value)) {
			head += `; filename="${quoted(value.fileName)}"\r\nContent-Type: ${value.mimeType}\r\n\r\n`;
			chunks.push(Buffer.from(head, 'utf8'), value.data, Buffer.from('\r\n'));
		} else {
			chunks.push(Buffer.from(`${head}\r\n\r\n${value}\r\n`, 'utf8'));
		}
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
