import { isFile, type UploadedFile } from './body';
import { fail } from './http';
import { looksLikePdf } from './pdf';
import { readRecipients, type Recipient, type RecipientInput } from './recipients';

/** `file[url]` or `file[content]` + `file[name]`: a file named rather than uploaded (the SDK documents both). */
export interface FileRef {
	url?: string;
	content?: string;
	name?: string;
}

/**
 * What letters to given recipients are made of: content (written, or a template's), or a file printed once
 * per recipient; `mailing_list` says where the recipients were copied from.
 */
export interface ContentSource {
	/** The text rendered for each recipient; '' when a file is printed instead. */
	content: string;
	recipients: Recipient[];
	mailing_list: string | null;
	/** The template the content was copied from. */
	template?: string;
	/** The file as given, kept so a change of recipients can address it again. */
	file?: UploadedFile;
}

/** An account's template content by ID (undefined: no such template). */
export type TemplateLookup = (id: string) => string | undefined;

export interface SourceInput {
	file?: UploadedFile | FileRef;
	template?: string;
	content?: string;
	recipients?: RecipientInput[];
	mailing_list?: string;
}

/** A stored mailing list's recipients, in order, or undefined when there is no such list. */
export type MailingListLookup = (id: string) => Recipient[] | undefined;

/** The API fetches `file[url]` itself: a short wait (ours), as a server would not hold a request open for long. */
const DOWNLOAD_TIMEOUT_MS = 5000;

const invalid = (param: string, message: string) => fail.invalid('parameter_invalid', `Invalid value for ${param}: ${message}`, param);

async function download(url: string, maxBytes: number): Promise<Buffer> {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw invalid('file.url', `"${url}" is not a URL.`);
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('file.url', 'only http and https URLs can be fetched.');
	let response: Response;
	try {
		response = await fetch(parsed, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
	} catch (error) {
		throw invalid('file.url', `the file could not be downloaded (${(error as Error).name === 'TimeoutError' ? 'no answer in time' : (error as Error).message}).`);
	}
	if (!response.ok) throw invalid('file.url', `the file could not be downloaded (HTTP ${response.status}).`);
	if (Number(response.headers.get('content-length') ?? 0) > maxBytes) throw invalid('file.url', 'the file is too large.');
	const data = Buffer.from(await response.arrayBuffer());
	if (data.length > maxBytes) throw invalid('file.url', 'the file is too large.');
	if (!looksLikePdf(data)) throw invalid('file.url', 'the file at this URL is not a PDF.');
	return data;
}

/** An uploaded, linked or inlined file, as one uploaded PDF. */
export async function resolveFile(value: UploadedFile | FileRef, maxBytes: number): Promise<UploadedFile> {
	if (isFile(value)) {
		if (!looksLikePdf(value.data)) throw invalid('file', 'the file is not a PDF.');
		return value;
	}
	if (value.url !== undefined && value.content !== undefined) throw invalid('file', "give either 'file.url' or 'file.content', not both.");
	if (value.url !== undefined) {
		const data = await download(value.url, maxBytes);
		const name = value.name || decodeURIComponent(new URL(value.url).pathname.split('/').pop() ?? '') || 'document.pdf';
		return { fileName: name, contentType: 'application/pdf', data };
	}
	if (value.content === undefined) throw fail.invalid('parameter_missing', "Missing required param: file (upload it, or give 'file.url' or 'file.content').", 'file');
	if (!value.name) throw fail.invalid('parameter_missing', 'Missing required param: file.name.', 'file.name');
	const base64 = value.content.replace(/\s+/g, '');
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) throw invalid('file.content', 'expected the file in base64.');
	const data = Buffer.from(base64, 'base64');
	if (!looksLikePdf(data)) throw invalid('file.content', 'the file is not a PDF.');
	return { fileName: value.name, contentType: 'application/pdf', data };
}

function listRecipients(id: string, lookup: MailingListLookup): Recipient[] {
	const recipients = lookup(id);
	if (!recipients) throw invalid('mailing_list', `no such mailing list: ${id}.`);
	if (recipients.length === 0) throw invalid('mailing_list', `the mailing list ${id} has no recipients.`);
	return recipients.map((recipient) => ({ address: { ...recipient.address }, variables: { ...recipient.variables } }));
}

/** A job's recipients: given inline, or copied from a stored list (later list changes do not reach the job). */
function jobRecipients(input: SourceInput, lookup: MailingListLookup): Pick<ContentSource, 'recipients' | 'mailing_list'> | undefined {
	if (input.recipients !== undefined && input.mailing_list !== undefined) throw invalid('mailing_list', "give either 'recipients' or 'mailing_list', not both.");
	if (input.mailing_list !== undefined) return { recipients: listRecipients(input.mailing_list, lookup), mailing_list: input.mailing_list };
	if (input.recipients === undefined) return undefined;
	if (input.recipients.length === 0) throw fail.invalid('parameter_missing', 'Missing required param: recipients.', 'recipients');
	return { recipients: readRecipients(input.recipients), mailing_list: null };
}

function checkContent(content: string): string {
	if (!content.trim()) throw invalid('content', 'the content is empty.');
	return content;
}

const SOURCES = ['file', 'content', 'template'] as const;

/** A template's content, copied into the job: later changes to the template do not reach it (as with mailing lists). */
function templateContent(id: string, templates: TemplateLookup): string {
	if (!id.trim()) throw invalid('template', 'the template ID is empty.');
	const content = templates(id);
	if (content === undefined) throw invalid('template', `no such template: ${id}.`);
	return content;
}

/**
 * Where a new job's letters come from: exactly one of a file, content and a template. A file without
 * recipients carries its own addresses; content and templates need recipients (given, or a mailing list).
 */
export async function resolveSource(
	input: SourceInput,
	lookup: MailingListLookup,
	maxBytes: number,
	templates: TemplateLookup = () => undefined,
): Promise<{ file: UploadedFile } | { content: ContentSource }> {
	const given = SOURCES.filter((key) => input[key] !== undefined);
	if (given.length > 1) throw invalid(given[1], `give only one of 'file', 'content' or 'template', not ${given.map((key) => `'${key}'`).join(' and ')}.`);
	const recipients = jobRecipients(input, lookup);
	if (input.file !== undefined) {
		const file = await resolveFile(input.file, maxBytes);
		return recipients ? { content: { content: '', ...recipients, file } } : { file };
	}
	const source = given[0] ?? 'content';
	const content = source === 'template' ? templateContent(input.template!, templates) : checkContent(input.content ?? '');
	if (!recipients) throw fail.invalid('parameter_missing', `Missing required param: recipients (or 'mailing_list'), to go with '${source}'.`, 'recipients');
	return { content: { content, ...recipients, ...(source === 'template' && { template: input.template }) } };
}

/** An update of a job's content or recipients; a file carrying its own addresses refuses them, and only content has content to change. */
export function updateSource(current: ContentSource | undefined, input: SourceInput, lookup: MailingListLookup): ContentSource | undefined {
	const given = (['content', 'recipients', 'mailing_list'] as const).find((key) => input[key] !== undefined);
	if (!given) return current;
	if (!current) throw invalid(given, 'this print job was made from a file that carries its own addresses, so it has no content or recipients to change.');
	if (input.content !== undefined && (current.file || current.template)) throw invalid('content', `this print job was made from a ${current.file ? 'file' : 'template'}, so it has no content to change.`);
	const recipients = jobRecipients(input, lookup);
	return { ...current, content: input.content !== undefined ? checkContent(input.content) : current.content, ...(recipients ?? {}) };
}
