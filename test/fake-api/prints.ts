import type { Fields, UploadedFile } from './body';
import { readExtraDocuments, type ExtraDocument, type ExtraDocumentInput } from './extras';
import { History, type HistoryOptions } from './history';
import { fail, newId, nextSequence } from './http';
import { buildContentLetters, buildFileLetters, buildLetters, cost, type FakeLetter, type LetterSettings } from './letters';
import { pageCount } from './pdf';
import { applyType } from './postcards';
import { refuseMisdirectedPostage } from './destinations';
import { filterPrints } from './printFilters';
import { readVariables } from './recipients';
import { PRINT_CREATE, PRINT_UPDATE, validate } from './schema';
import { resolveSource, updateSource, type ContentSource, type MailingListLookup, type SourceInput, type TemplateLookup } from './sources';

/** The API's answer to a create with nothing to print (reported verbatim, without a full stop). */
export const MISSING_SOURCE = "Missing required parameter: You must provide either 'content', 'file', or 'template'";

/** A print job as the fake keeps it (the API's fields; letters carry internal page ranges). */
export interface FakePrintJob {
	id: string;
	object: 'print';
	/** The file's name by default; null for letters made from content. */
	reference: string | null;
	confirmed: boolean;
	testmode: boolean;
	created: number;
	_seq?: number;
	confirmed_at: number | null;
	/** When the confirm happened by the real clock (see listingDelayMs); never sent. */
	_confirmedAtMs?: number;
	/** When the job was created by the real clock (see listingDelayMs); never sent. */
	_createdAtMs?: number;
	type?: string;
	pages?: number;
	sheets?: number;
	file?: { name: string; pages: number } | null;
	address_window?: string;
	splitting?: LetterSettings['splitting'];
	printing?: LetterSettings['printing'];
	postage?: LetterSettings['postage'] & { mail_date: number | null };
	background?: { first_page: string | null; other_pages: string | null };
	confidential?: boolean;
	extra_documents?: ExtraDocument[];
	remove_letters?: { with_phrase: string | null; series: string[] };
	nudge?: { x: number | null; y: number | null };
	confirmation_email?: boolean;
	metadata: Record<string, string>;
	cost: { amount: number; after_tax: number; currency: 'GBP' };
	letters: FakeLetter[];
	[key: string]: unknown;
}

/** A create or update body after validation against the schema. */
interface PrintInput extends SourceInput {
	testmode?: boolean;
	reference?: string;
	confirmed?: boolean;
	type?: string;
	address_window?: string;
	splitting?: Partial<LetterSettings['splitting']>;
	printing?: Partial<LetterSettings['printing']>;
	postage?: Partial<NonNullable<FakePrintJob['postage']>>;
	background?: Partial<NonNullable<FakePrintJob['background']>>;
	confidential?: boolean;
	extra_documents?: ExtraDocumentInput[];
	remove_letters?: { with_phrase?: string };
	nudge?: { x?: number; y?: number };
	confirmation_email?: boolean;
	metadata?: unknown;
}

/** Print jobs as the API keeps them, with the documented lifecycle rules. */
export class PrintStore {
	readonly jobs = new Map<string, FakePrintJob>();
	/** Each job's PDF: the uploaded file, or for letters to recipients the one made for them (letters are page ranges of it). */
	readonly files = new Map<string, UploadedFile>();
	/** What jobs to given recipients are made of (a job has recipients exactly when it has an entry here). */
	readonly contents = new Map<string, ContentSource>();
	/** Every job created through the API, in order (seeded ones are not), kept after a draft is deleted. */
	readonly created: FakePrintJob[] = [];
	/**
	 * A list shows a change this long after it happened (a cache or a replica behind the list): until then a new job
	 * is not listed and a confirmed job is listed as the draft it was. A job read by its ID is always up to date.
	 */
	listingDelayMs = 0;
	/** A big sender's past jobs (seedHistory), held compactly: read and listed with the jobs above; one changed moves into them. */
	history?: History;

	constructor(
		private readonly letterPdfUrl: (letterId: string) => string,
		private readonly backgroundExists: (id: string) => boolean,
		private readonly mailingList: MailingListLookup = () => undefined,
		private readonly maxFileBytes = 100 * 1024 * 1024,
		private readonly template: TemplateLookup = () => undefined,
	) {}

	private now(): number {
		return Math.floor(Date.now() / 1000);
	}

	/** `anyService`: the broken mode that takes any service to any country (brokenModes.ts). */
	async create(fields: Fields, anyService = false): Promise<FakePrintJob> {
		// Named `file` as before content letters existed: clients that only upload files read it so.
		if (!['file', 'content', 'template'].some((key) => key in fields)) throw fail.invalid('parameter_missing', MISSING_SOURCE, 'file');
		const input = validate(fields, PRINT_CREATE) as PrintInput;
		const source = await resolveSource(input, this.mailingList, this.maxFileBytes, this.template);
		const file = 'file' in source ? source.file : source.content.file;
		const id = newId('print');
		const job: FakePrintJob = {
			id, object: 'print', account: 'acc_fake', user: 'usr_fake', team: 'team_fake', type: 'letter',
			reference: file?.fileName ?? null, confirmed: false, testmode: input.testmode ?? false, created: this.now(), _seq: nextSequence(), _createdAtMs: Date.now(), confirmed_at: null, cost: cost(0),
			file: file ? { name: file.fileName, pages: await pageCount(file.data) } : null,
			splitting: { method: 'none', phrase: null, pages: null },
			printing: { double_sided: 'no', double_sided_specific_pages: null, premium_quality: false, black_and_white: false },
			postage: { service: 'uk_second_class', ideal_envelope: 'c5', mail_date: null },
			background: { first_page: null, other_pages: null }, address_window: 'left',
			confidential: false, extra_documents: [], remove_letters: { with_phrase: null, series: [] },
			nudge: { x: null, y: null }, confirmation_email: true, metadata: {}, letters: [],
		};
		// A file to recipients is kept as its addressed copies, made in apply() as content letters are.
		if ('file' in source) this.files.set(id, source.file);
		await this.apply(job, input, 'content' in source ? source.content : undefined, anyService);
		this.created.push(job);
		return job;
	}

	async update(id: string, fields: Fields, anyService = false): Promise<FakePrintJob> {
		const job = this.get(id);
		const input = validate(fields, PRINT_UPDATE) as PrintInput;
		if (job.confirmed) {
			throw fail.invalid('parameter_invalid', 'This print job has already been confirmed, so it can no longer be updated.', 'confirmed');
		}
		// Worked out on a copy, so that a refused update changes nothing; the stored object stays the same one.
		const draft = await this.apply(structuredClone(job), input, updateSource(this.contents.get(id), input, this.mailingList), anyService);
		for (const key of Object.keys(job)) delete job[key];
		this.jobs.set(id, Object.assign(job, draft));
		return job;
	}

	get(id: string): FakePrintJob {
		const job = this.jobs.get(id) ?? this.history?.view(id);
		if (!job) throw fail.notFound(`print ${id}`);
		return job;
	}

	/** Draft: deleted. Confirmed: letters still waiting to print are cancelled and refunded. */
	remove(id: string): Record<string, unknown> {
		this.history?.adopt(id, this.jobs);
		const job = this.get(id);
		if (!job.confirmed) {
			this.jobs.delete(id);
			return { id, object: 'print', deleted: true };
		}
		for (const letter of job.letters) {
			if (letter.status === 'waiting_to_print') {
				letter.status = 'cancelled';
				letter.cost = cost(0);
			}
		}
		this.reprice(job);
		return job;
	}

	list(query: URLSearchParams): FakePrintJob[] {
		const now = Date.now();
		const listed = [...this.jobs.values()]
			.filter((job) => now - (job._createdAtMs ?? 0) >= this.listingDelayMs)
			.map((job) => (job.confirmed && now - (job._confirmedAtMs ?? 0) < this.listingDelayMs ? { ...job, confirmed: false, confirmed_at: null } : job));
		return this.history ? this.history.listing(listed, query) : filterPrints(listed, query);
	}

	/** Puts a big sender's past print jobs on the account (see history.ts); once per store. */
	seedHistory(options: HistoryOptions): History {
		if (this.history) throw new Error('This fake already holds a history');
		this.history = new History(options);
		return this.history;
	}

	/** Adds n plain jobs without PDF processing, for list and pagination tests. */
	seed(count: number, overrides: Partial<FakePrintJob> = {}): FakePrintJob[] {
		const created: FakePrintJob[] = [];
		for (let i = 0; i < count; i++) {
			const id = newId('print');
			const letter: FakeLetter = {
				id: newId('ltr'), object: 'letter', status: overrides.confirmed ? 'waiting_to_print' : 'draft', pages: 1, sheets: 1,
				postage_service: 'uk_second_class', envelope: 'c5', address: { name: `Seeded ${i + 1}`, line: '1 Test Street', postcode: 'LS1 4AP', country: 'GB' },
				tracking_number: null, print_stream: null, cost: cost(85), shipped_date: null, pdf_status: 'built', pdf: null, returned: null,
			};
			const job: FakePrintJob = {
				id, object: 'print', reference: `seed-${i + 1}`, confirmed: false, testmode: false, created: this.now(), _seq: nextSequence(), confirmed_at: null,
				pages: 1, sheets: 1, cost: cost(85), metadata: {}, letters: [letter], ...overrides,
			};
			this.jobs.set(id, job);
			created.push(job);
		}
		return created;
	}

	/** Moves letters along their lifecycle (tests use it to stand in for the print house). */
	setLetterStatus(letterId: string, status: string, extra: Partial<FakeLetter> = {}): FakeLetter {
		this.history?.adoptLetter(letterId, this.jobs);
		for (const job of this.jobs.values()) {
			const letter = job.letters.find((l) => l.id === letterId);
			if (letter) {
				Object.assign(letter, { status, ...extra });
				if (status === 'sent' && !letter.shipped_date) letter.shipped_date = this.now();
				return letter;
			}
		}
		throw new Error(`no letter ${letterId}`);
	}

	private async apply(job: FakePrintJob, input: PrintInput, content: ContentSource | undefined, anyService = false): Promise<FakePrintJob> {
		const merged = job as Record<string, unknown>;
		for (const key of ['splitting', 'printing', 'postage', 'background', 'nudge', 'remove_letters'] as const) {
			if (input[key]) merged[key] = { ...(merged[key] as object), ...input[key] };
		}
		for (const key of ['reference', 'confidential', 'confirmation_email', 'type', 'address_window'] as const) {
			if (input[key] !== undefined) merged[key] = input[key];
		}
		if (input.metadata) job.metadata = { ...job.metadata, ...readVariables(input.metadata, 'metadata') };
		refuseOverBudget(job.metadata);
		applyType(job, input);
		const splitting = job.splitting!;
		if (content && splitting.method !== 'none') {
			throw fail.invalid('parameter_invalid', 'Invalid value for splitting.method: letters to recipients are one per recipient; splitting is for an uploaded file that carries its own addresses.', 'splitting.method');
		}
		if (splitting.method === 'split_on_phrase' && !splitting.phrase) throw fail.invalid('parameter_missing', 'Missing required param: splitting.phrase.', 'splitting.phrase');
		if (splitting.method === 'split_on_pages' && !((splitting.pages ?? 0) >= 1)) throw fail.invalid('parameter_missing', 'Missing required param: splitting.pages.', 'splitting.pages');
		const printing = job.printing!;
		if (printing.double_sided === 'mixed' && !printing.double_sided_specific_pages?.length) {
			throw fail.invalid('parameter_missing', 'Missing required param: printing.double_sided_specific_pages.', 'printing.double_sided_specific_pages');
		}
		for (const side of ['first_page', 'other_pages'] as const) {
			const bg = job.background?.[side];
			if (bg && !this.backgroundExists(bg)) throw fail.invalid('parameter_invalid', `No such background: ${bg}.`, `background.${side}`);
		}
		if (input.extra_documents) job.extra_documents = await readExtraDocuments(input.extra_documents);
		const extraPages = (job.extra_documents ?? []).reduce((sum, d) => sum + d.pages, 0);
		const settings = { ...(job as unknown as LetterSettings), extraPages };
		if (content) {
			const built = content.file
				? await buildFileLetters(content.file.data, content.recipients, settings, () => newId('ltr'))
				: await buildContentLetters(content.content, content.recipients, settings, () => newId('ltr'));
			this.files.set(job.id, { fileName: 'letters.pdf', contentType: 'application/pdf', data: built.pdf });
			this.contents.set(job.id, content);
			job.letters = built.letters;
		} else {
			job.letters = (await buildLetters(this.files.get(job.id)!.data, settings, () => newId('ltr'))).letters;
		}
		for (const letter of job.letters) letter.pdf = this.letterPdfUrl(letter.id);
		if (!anyService) refuseMisdirectedPostage(job);
		job.remove_letters!.series = [];
		if (input.confirmed === true) {
			job.confirmed = true;
			job.confirmed_at = this.now();
			job._confirmedAtMs = Date.now();
			for (const letter of job.letters) letter.status = 'waiting_to_print';
		}
		this.reprice(job);
		this.jobs.set(job.id, job);
		return job;
	}

	private reprice(job: FakePrintJob): void {
		job.pages = job.letters.reduce((sum, l) => sum + l.pages, 0);
		job.sheets = job.letters.reduce((sum, l) => sum + l.sheets, 0);
		const amount = job.letters.reduce((sum, l) => sum + l.cost.amount, 0);
		job.cost = { amount, after_tax: Math.round(amount * 1.2), currency: 'GBP' };
	}
}

/**
 * How much metadata a job keeps is not published; the fake keeps what the API family Intelliprint's follows keeps
 * (Stripe's: 50 entries, names up to 40 characters, values up to 500) and refuses more, as that API does (ours).
 */
export const METADATA_LIMITS = { entries: 50, nameChars: 40, valueChars: 500 };
function refuseOverBudget(metadata: Record<string, string>): void {
	const names = Object.keys(metadata);
	const invalid = (message: string) => fail.invalid('parameter_invalid', `Invalid metadata: ${message}.`, 'metadata');
	if (names.length > METADATA_LIMITS.entries) throw invalid(`you can specify up to ${METADATA_LIMITS.entries} keys, not ${names.length}`);
	const longName = names.find((name) => name.length > METADATA_LIMITS.nameChars);
	if (longName) throw invalid(`keys can be up to ${METADATA_LIMITS.nameChars} characters long (${longName.slice(0, 50)})`);
	const longValue = names.find((name) => String(metadata[name]).length > METADATA_LIMITS.valueChars);
	if (longValue) throw invalid(`values can be up to ${METADATA_LIMITS.valueChars} characters long (${longValue} has ${String(metadata[longValue]).length})`);
}
