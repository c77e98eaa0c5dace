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

/** What content letters are made of; `mailing_list` says where the recipients were copied from. */
export interface ContentSource {
	content: string;
	recipients: Recipient[];
	mailing_list: string | null;
}

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

/** The recipients of a content job: given inline, or copied from a stored list (later list changes do not reach the job). */
function contentRecipients(input: SourceInput, lookup: MailingListLookup): Pick<ContentSource, 'recipients' | 'mailing_list'> | undefined {
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

/** Where a new job's letters come from: exactly one of a file and content with its recipients. */
export async function resolveSource(input: SourceInput, lookup: MailingListLookup, maxBytes: number): Promise<{ file: UploadedFile } | { content: ContentSource }> {
	// The fake keeps no templates (their shape is not public), so every template id is unknown to it.
	if (input.template !== undefined) throw invalid('template', `no such template: ${input.template}.`);
	if (input.file !== undefined) {
		if (input.content !== undefined) throw invalid('content', "give either 'file' or 'content', not both.");
		if (input.recipients !== undefined) throw invalid('recipients', "recipients go with 'content': a file carries its own addresses.");
		if (input.mailing_list !== undefined) throw invalid('mailing_list', "a mailing list goes with 'content': a file carries its own addresses.");
		return { file: await resolveFile(input.file, maxBytes) };
	}
	const content = checkContent(input.content ?? '');
	const recipients = contentRecipients(input, lookup);
	if (!recipients) throw fail.invalid('parameter_missing', "Missing required param: recipients (or 'mailing_list'), to go with 'content'.", 'recipients');
	return { content: { content, ...recipients } };
}

/** An update of a content job's content or recipients; a job made from a file refuses them. */
export function updateSource(current: ContentSource | undefined, input: SourceInput, lookup: MailingListLookup): ContentSource | undefined {
	const given = (['content', 'recipients', 'mailing_list'] as const).find((key) => input[key] !== undefined);
	if (!given) return current;
	if (!current) throw invalid(given, 'this print job was made from a file, so it has no content or recipients to change.');
	const recipients = contentRecipients(input, lookup);
	return { content: input.content !== undefined ? checkContent(input.content) : current.content, ...(recipients ?? { recipients: current.recipients, mailing_list: current.mailing_list }) };
}
