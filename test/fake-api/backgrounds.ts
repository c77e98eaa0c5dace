import { isFile, type Fields, type UploadedFile } from './body';
import { fail, newestFirst, newId, nextSequence } from './http';
import { looksLikePdf, mergePdfs } from './pdf';
import { BACKGROUND_CREATE, BACKGROUND_UPDATE, validate } from './schema';

export interface FakeBackground {
	id: string;
	object: 'background';
	name: string;
	filename: string;
	team: string | null;
	preview: string;
	created: number;
	_seq?: number;
	file: { name: string; size: number };
}

/** Backgrounds (letterheads), as the official SDK shows them. */
export class BackgroundStore {
	readonly backgrounds = new Map<string, FakeBackground>();

	constructor(private readonly previewUrl: (id: string) => string) {}

	create(fields: Fields): FakeBackground {
		if (!('file' in fields)) throw fail.invalid('parameter_missing', 'Missing required param: file.', 'file');
		const input = validate(fields, BACKGROUND_CREATE) as { file: UploadedFile; name?: string; team?: string };
		if (!looksLikePdf(input.file.data)) throw fail.invalid('parameter_invalid', 'Invalid value for file: a background must be a PDF.', 'file');
		const id = newId('bg');
		const background: FakeBackground = {
			id, object: 'background', name: input.name || input.file.fileName, filename: input.file.fileName, team: input.team || null,
			preview: this.previewUrl(id), created: Math.floor(Date.now() / 1000), _seq: nextSequence(), file: { name: input.file.fileName, size: input.file.data.length },
		};
		this.backgrounds.set(id, background);
		return background;
	}

	get(id: string): FakeBackground {
		const background = this.backgrounds.get(id);
		if (!background) throw fail.notFound(`background ${id}`);
		return background;
	}

	update(id: string, fields: Fields): FakeBackground {
		const background = this.get(id);
		const input = validate(fields, BACKGROUND_UPDATE) as { name?: string; team?: string };
		if (input.name !== undefined) background.name = input.name;
		if (input.team !== undefined) background.team = input.team || null;
		return background;
	}

	remove(id: string): Record<string, unknown> {
		this.get(id);
		this.backgrounds.delete(id);
		return { id, object: 'background', deleted: true };
	}

	list(query: URLSearchParams): FakeBackground[] {
		const team = query.get('team');
		return [...this.backgrounds.values()].filter((b) => !team || b.team === team).sort(newestFirst);
	}
}

/** The merge tool: repeated `files[]` parts merged in order into one PDF, served from the file host. */
export class MergeStore {
	readonly merged = new Map<string, Buffer>();

	constructor(private readonly downloadUrl: (id: string) => string) {}

	async merge(fields: Fields): Promise<Record<string, unknown>> {
		for (const key of Object.keys(fields)) {
			if (key !== 'files') throw fail.invalid('parameter_unknown', `Received unknown parameter: ${key} (Did you mean files?)`, key);
		}
		const files = fields.files;
		if (!Array.isArray(files) || files.length === 0) throw fail.invalid('parameter_missing', 'Missing required param: files.', 'files');
		const pdfs: Buffer[] = [];
		for (const [index, file] of files.entries()) {
			if (!isFile(file) || !looksLikePdf(file.data)) throw fail.invalid('parameter_invalid', `Invalid value for files[${index}]: expected a PDF file.`, `files[${index}]`);
			pdfs.push(file.data);
		}
		if (pdfs.length < 2) throw fail.invalid('parameter_invalid', 'Invalid value for files: merging needs at least two files.', 'files');
		const id = newId('merge');
		this.merged.set(id, await mergePdfs(pdfs));
		return { id, object: 'merge', download_link: this.downloadUrl(id) };
	}
}
