import { Response } from 'undici';

import { fail } from './http';

/** A file received in a multipart body. */
export interface UploadedFile {
	fileName: string;
	contentType: string;
	data: Buffer;
}

/** A body value: text from forms, any JSON value from JSON bodies, files from multipart. */
export type Field = string | number | boolean | null | UploadedFile | Field[] | { [key: string]: Field };
export type Fields = { [key: string]: Field };

/** `postage[service]` → ['postage', 'service']; `files[]` → ['files', '']; `postage.service` → ['postage', 'service']. */
export function keyPath(key: string): string[] {
	const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
	if (!match) throw fail.invalid('body_incorrect_format', `Could not read the parameter name "${key}".`, key);
	const head = match[1].split('.');
	const rest = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
	return [...head, ...rest];
}

/** Builds nested objects from flat bracket/dotted keys, as the API reads them. Numeric keys become arrays. */
export function nest(entries: Array<[string, string | UploadedFile]>): Fields {
	const root: Fields = {};
	for (const [key, value] of entries) {
		const path = keyPath(key);
		let node: { [key: string]: Field } = root;
		path.forEach((segment, index) => {
			const last = index === path.length - 1;
			if (segment === '') {
				// `files[]`: append to a list held under the parent key.
				return;
			}
			if (last || path[index + 1] === '') {
				if (path[index + 1] === '') {
					const list = (node[segment] as Field[] | undefined) ?? [];
					list.push(value);
					node[segment] = list;
				} else {
					node[segment] = value;
				}
				return;
			}
			if (typeof node[segment] !== 'object' || node[segment] === null || isFile(node[segment])) node[segment] = {};
			node = node[segment] as { [key: string]: Field };
		});
	}
	return arraysFromIndexedObjects(root) as Fields;
}

export function isFile(value: unknown): value is UploadedFile {
	return typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data);
}

function arraysFromIndexedObjects(value: Field): Field {
	if (typeof value !== 'object' || value === null || isFile(value)) return value;
	if (Array.isArray(value)) return value.map(arraysFromIndexedObjects);
	const keys = Object.keys(value);
	const converted: { [key: string]: Field } = {};
	for (const key of keys) converted[key] = arraysFromIndexedObjects(value[key]);
	if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
		return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key]);
	}
	return converted;
}

/** Parses a JSON, urlencoded or multipart body into nested fields. */
export async function parseBody(raw: Buffer, contentType: string | undefined): Promise<Fields> {
	if (raw.length === 0) return {};
	const type = (contentType ?? '').toLowerCase();
	if (type.startsWith('application/json')) {
		try {
			const parsed = JSON.parse(raw.toString('utf8'));
			if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
			return parsed as Fields;
		} catch {
			throw fail.invalid('body_incorrect_format', 'The request body is not valid JSON.');
		}
	}
	if (type.startsWith('application/x-www-form-urlencoded')) {
		return nest([...new URLSearchParams(raw.toString('utf8')).entries()]);
	}
	if (type.startsWith('multipart/form-data')) {
		let form;
		try {
			form = await new Response(raw, { headers: { 'content-type': contentType! } }).formData();
		} catch {
			throw fail.invalid('body_incorrect_format', 'The multipart body could not be parsed.');
		}
		const entries: Array<[string, string | UploadedFile]> = [];
		for (const [key, value] of form.entries()) {
			if (typeof value === 'string') entries.push([key, value]);
			else {
				entries.push([
					key,
					{ fileName: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) },
				]);
			}
		}
		return nest(entries);
	}
	throw fail.invalid('body_incorrect_format', `Unsupported content type "${contentType ?? ''}".`);
}

/** A body for the record: files are summarised as { fileName, contentType, size }. */
export const summarise = (value: Field): unknown => {
	if (isFile(value)) return { fileName: value.fileName, contentType: value.contentType, size: value.data.length };
	if (Array.isArray(value)) return value.map(summarise);
	if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, summarise(v)]));
	return value;
};
