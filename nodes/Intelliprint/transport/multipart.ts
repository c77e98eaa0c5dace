import type { IExecuteFunctions } from 'n8n-workflow';
import { randomBytes } from 'node:crypto';

import { confirmsField } from './confirmPass';

/** The stream type n8n's binary helpers return (node code may not import node:stream itself). */
export type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/** A file part: its bytes in memory, or a stream of a file n8n keeps on disk or in S3. */
export interface FilePart {
	fileName: string;
	mimeType: string;
	data?: Buffer;
	/** Opened anew for every attempt, so a retried request sends the whole file again. */
	stream?: { size: number; open: () => Promise<BinaryStream> };
}

export type FormValue = string | number | boolean | FilePart | null | undefined | FormObject | FormValue[];
export interface FormObject {
	[key: string]: FormValue;
}

/** A ready multipart body: its length is exact, and `open()` gives the bytes for one attempt. */
export interface MultipartBody {
	contentType: string;
	length: number;
	open: () => Promise<Buffer | BinaryStream>;
	/** Whether a field sets `confirmed` to true: such a body needs the spending gate's pass (confirmPass.ts). */
	confirms: boolean;
}

export function isFilePart(value: unknown): value is FilePart {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as FilePart).fileName === 'string' &&
		(Buffer.isBuffer((value as FilePart).data) || typeof (value as FilePart).stream?.open === 'function')
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
 * "not set" never reaches the API as an empty string that it would refuse. Fields are added to one
 * list as they are found (no spreading of a part's fields into its parent's: 50,000 recipients are
 * 300,000 fields, more than a call's arguments can hold).
 */
export function flattenFormFields(object: FormObject, prefix = ''): Array<[string, string | FilePart]> {
	const fields: Array<[string, string | FilePart]> = [];
	for (const [key, value] of Object.entries(object)) addField(fields, prefix ? `${prefix}[${key}]` : key, value);
	return fields;
}

function addField(fields: Array<[string, string | FilePart]>, name: string, value: FormValue): void {
	if (isEmptyValue(value)) return;
	if (isFilePart(value)) fields.push([name, value]);
	else if (Array.isArray(value)) value.forEach((entry, index) => addField(fields, `${name}[${index}]`, entry));
	else if (typeof value === 'object') for (const [key, inner] of Object.entries(value as FormObject)) addField(fields, `${name}[${key}]`, inner);
	else fields.push([name, String(value)]);
}

function quoted(value: string): string {
	return value.replace(/[\r\n]+/g, ' ').replace(/"/g, '%22');
}

/**
 * Builds a multipart/form-data body by hand (n8n forbids runtime dependencies such as form-data).
 * Files in memory are copied once into the body, which every retry reuses. Files n8n streams are
 * never loaded whole: the body is then a stream of the parts, opened again for each attempt.
 */
export function encodeMultipart(fields: Array<[string, string | FilePart]>): MultipartBody {
	const boundary = `----n8nIntelliprint${randomBytes(12).toString('hex')}`;
	const segments: Array<Buffer | FilePart> = [];
	// Text parts are gathered and encoded together: one buffer per run of fields, not per field.
	let text: string[] = [];
	const flush = () => {
		if (text.length) segments.push(Buffer.from(text.join(''), 'utf8'));
		text = [];
	};
	for (const [name, value] of fields) {
		const head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"`;
		if (isFilePart(value)) {
			text.push(`${head}; filename="${quoted(value.fileName)}"\r\nContent-Type: ${value.mimeType}\r\n\r\n`);
			flush();
			segments.push(value.data ?? value);
			text.push('\r\n');
		} else {
			text.push(`${head}\r\n\r\n${value}\r\n`);
		}
	}
	text.push(`--${boundary}--\r\n`);
	flush();
	const contentType = `multipart/form-data; boundary=${boundary}`;
	const confirms = fields.some(([name, value]) => confirmsField(name, value));

	const streamed = segments.filter((segment): segment is FilePart => !Buffer.isBuffer(segment));
	if (streamed.length === 0) {
		const body = Buffer.concat(segments as Buffer[]);
		return { contentType, length: body.length, confirms, open: async () => body };
	}
	const length = segments.reduce((sum, s) => sum + (Buffer.isBuffer(s) ? s.length : s.stream!.size), 0);
	return {
		contentType,
		length,
		confirms,
		open: async () => {
			const first = await streamed[0].stream!.open();
			// Readable.from, reached through the stream n8n handed us: every Node stream class has it.
			const from = (first.constructor as unknown as { from: (source: AsyncIterable<Buffer>) => BinaryStream }).from;
			async function* parts(): AsyncGenerator<Buffer> {
				for (const segment of segments) {
					if (Buffer.isBuffer(segment)) {
						yield segment;
						continue;
					}
					const stream = segment === streamed[0] ? first : await segment.stream!.open();
					for await (const chunk of stream) yield chunk as Buffer;
				}
			}
			return from(parts());
		},
	};
}

function hasFilePart(value: FormValue): boolean {
	if (isFilePart(value)) return true;
	if (Array.isArray(value)) return value.some(hasFilePart);
	if (value && typeof value === 'object') return Object.values(value).some(hasFilePart);
	return false;
}

/** The value as the SDK sends it, without null, undefined, empty objects and empty lists. */
function pruned(value: FormValue): FormValue {
	// A plain object or list with nothing to drop is returned as it is, not copied: a mail run's body is 100,000
	// recipients, and copying each (with its variables) cost more than serialising them.
	if (Array.isArray(value)) {
		let kept: FormValue[] | undefined;
		for (let at = 0; at < value.length; at++) {
			const inner = pruned(value[at]);
			const empty = isEmptyValue(inner);
			if (kept === undefined && (empty || inner !== value[at])) kept = value.slice(0, at);
			if (kept !== undefined && !empty) kept.push(inner);
		}
		return kept ?? value;
	}
	if (value && typeof value === 'object' && !isFilePart(value)) {
		const object = value as Record<string, FormValue>;
		const prototype = Object.getPrototypeOf(object);
		// Anything but a plain object (a date from an expression, say) is copied as before: its own fields only.
		const plain = prototype === Object.prototype || prototype === null;
		const keys = Object.keys(object);
		let kept: Record<string, FormValue> | undefined = plain ? undefined : {};
		const keep = (key: string, inner: FormValue) => Object.defineProperty(kept, key, { value: inner, enumerable: true, writable: true, configurable: true });
		for (let at = 0; at < keys.length; at++) {
			const inner = pruned(object[keys[at]]);
			const empty = isEmptyValue(inner);
			if (kept === undefined && (empty || inner !== object[keys[at]])) {
				kept = {};
				for (let before = 0; before < at; before++) keep(keys[before], object[keys[before]]);
			}
			if (kept !== undefined && !empty) keep(keys[at], inner);
		}
		return (kept ?? object) as FormValue;
	}
	return value;
}

/**
 * A create's body: multipart when it carries a file (the API reads files only so), JSON otherwise.
 * A mail run as JSON is about a fifth of its multipart size (each field a part with its own
 * headers: 12.4 MB against 2.4 MB for 10,000 letters), and the API reads JSON bodies too.
 */
export function createBody(fields: FormObject): { multipart: MultipartBody } | { json: FormObject; length: number } {
	if (hasFilePart(fields)) return { multipart: encodeMultipart(flattenFormFields(fields)) };
	const json = pruned(fields) as FormObject;
	// Its size is wanted only to explain a "too large" answer: not serialised for it on every create.
	return {
		json,
		get length() {
			return Buffer.byteLength(JSON.stringify(json));
		},
	};
}
