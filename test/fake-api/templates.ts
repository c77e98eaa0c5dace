import { newId } from './http';

/** A template as made in Intelliprint's dashboard: content with `{{name}}` placeholders (the API shows no more of it). */
export interface FakeTemplate {
	id: string;
	name: string;
	content: string;
}

/**
 * Templates the fake knows. The API has no endpoint to list or read them (they are made in the dashboard), so
 * tests and the sandbox add them here and clients name them by ID in `template`.
 */
export class TemplateStore {
	readonly templates = new Map<string, FakeTemplate>();

	add({ id = newId('tmpl'), name, content }: { id?: string; name: string; content: string }): FakeTemplate {
		// Test setup mistakes, not API answers: a dashboard would not save either.
		if (this.templates.has(id)) throw new Error(`template ${id} exists already`);
		if (!content.trim()) throw new Error(`template ${id} has no content`);
		const template = { id, name, content };
		this.templates.set(id, template);
		return template;
	}

	/** The template's content, or undefined when there is no such template. */
	contentOf(id: string): string | undefined {
		return this.templates.get(id)?.content;
	}
}
