/**
 * Country names by key (nameKey.ts), and how a written name is found among them: as it is, without a bracketed
 * part, with words shortened by a dot ("Czech Rep.", "N. Ireland"), without a state form ("Principality of Monaco",
 * "Bailiwick of Guernsey", "Monaco, Principality of"), or without "Islands" ("Turks & Caicos"). The same code builds
 * the index in the node (from Intl and the data) and in scripts/countries.mjs, which stores only the names the node
 * would not find by itself.
 */

import { nameKey, shortenedWords, shortens, type WrittenWord } from './nameKey';

/** Codes of the data posted as another's: Ascension (AC) and Tristan da Cunha (TA) are part of St Helena (SH). */
export const POSTED_AS: Readonly<Record<string, string>> = { AC: 'SH', TA: 'SH' };

/**
 * The words of a state form, in the languages whose sheets write one before or after the name: "Republic of",
 * "Principality of", "Royaume de", "Fürstentum", "Vereinigte Republik". Keys are case- and accent-free.
 */
const STATE_FORM = new Set(
	`republic rep principality bailiwick kingdom grand duchy sultanate emirate federal fed federative federated federation
	islamic democratic dem peoples people popular united socialist commonwealth independent hashemite cooperative co
	operative oriental bolivarian plurinational sovereign union confederation realm
	republique royaume principaute duche bailliage sultanat emirat federale islamique democratique populaire
	unie socialiste independant
	republica reino principado gran ducado sultanato emirato islamica democratica unida socialista independiente
	independente repubblica regno principato granducato popolare unita
	republik konigreich furstentum grossherzogtum bundesrepublik islamische demokratische vereinigte sozialistische
	unabhangige volksrepublik republiek koninkrijk vorstendom groothertogdom islamitische democratische verenigde volksrepubliek`.split(/\s+/),
);
/** Words of a state form that also name a part of a country ("State of Georgia"): taken off only beside another. */
const PART_WORDS = new Set(['state', 'states', 'territory', 'department', 'collectivity', 'overseas', 'etat', 'estado', 'stato', 'staat', 'territoire']);
/** The words that join a state form to the name: "of", "de la", "van", "der". */
const LINKS = new Set(['of', 'de', 'du', 'des', 'd', 'del', 'della', 'di', 'da', 'do', 'dos', 'das', 'van', 'der', 'von', 'la', 'el', 'le', 'l', 'los', 'las']);
/** Articles a name may start with in the languages of LINKS: "Les Pays-Bas", "El Reino Unido", "Die Schweiz". */
const ARTICLES = new Set(['le', 'la', 'les', 'l', 'el', 'los', 'las', 'il', 'lo', 'die', 'der', 'das', 'het']);
/**
 * A name reached by taking a state form off, and the countries it may also mean: the Republic of China is Taiwan's
 * own name, and "China" alone is the People's Republic's.
 */
const FORM_ALSO: Record<string, string> = { CN: 'TW' };
/** State forms that say "People's Republic": China's, not Taiwan's. */
const PEOPLES = new Set(['peoples', 'people', 'popular', 'populaire', 'popolare', 'volksrepublik']);

const isForm = (word: string) => STATE_FORM.has(word) || PART_WORDS.has(word) || LINKS.has(word);
/** How many words at one end of `words` are a state form (with at least one word that is only a state form's). */
function formLength(words: string[]): number {
	let length = 0;
	while (length < words.length && isForm(words[length])) length++;
	return words.slice(0, length).some((word) => STATE_FORM.has(word)) ? length : 0;
}

/** The countries a name of many may mean: more than this is no answer at all ("N." alone names dozens). */
const MAX_CANDIDATES = 3;

export class CountryIndex {
	/** Codes by key: "GB", or "CD CG" where the name is one of more than one country's. */
	private readonly codes = new Map<string, string>();
	/** The keys of English names: a name shortened with dots ("S. Korea") is read as English first. */
	private readonly english = new Set<string>();
	/** The keys by their number of words, for names with shortened words: made at the first such name. */
	private byLength: Map<number, Array<{ words: string[]; codes: string; english: boolean }>> | undefined;

	get size(): number {
		return this.codes.size;
	}

	/** Adds a name (already a key) of a country; a name two countries share is both's, and says so when read. */
	add(key: string, code: string, english = false): void {
		if (!key) return;
		if (english) this.english.add(key);
		const had = this.codes.get(key);
		if (had === undefined) this.codes.set(key, code);
		else if (!had.split(' ').includes(code)) this.codes.set(key, [...had.split(' '), code].sort().join(' '));
		this.byLength = undefined;
	}

	/** The codes a key is, as it is. */
	exactly(key: string): string[] | undefined {
		return this.codes.get(key)?.split(' ');
	}

	/** Every key with its codes. */
	entries(): IterableIterator<[string, string]> {
		return this.codes.entries();
	}

	/** The countries a written name may be, by the ways this module reads one; undefined when it names none. */
	find(text: string): string[] | undefined {
		const key = nameKey(text);
		const bare = text.includes('(') ? nameKey(text.replace(/\([^)]*\)/g, ' ')) : key;
		const words = shortenedWords(text);
		return this.found(key) ?? (bare === key ? undefined : this.found(bare)) ?? (words && this.shortened(words)) ?? this.withoutForm(bare);
	}

	/** The key as it is, or with "Islands" after it ("Cayman", "Turks & Caicos"). */
	private found(key: string): string[] | undefined {
		if (!key) return undefined;
		return this.exactly(key) ?? (key.endsWith('island') ? undefined : this.exactly(`${key} island`));
	}

	/** "Principality of Monaco", "Republik Österreich", "Monaco, Principality of", "Les Pays-Bas": the name without its state form or article. */
	private withoutForm(key: string): string[] | undefined {
		const words = key.split(' ');
		const article = ARTICLES.has(words[0]) && words.length > 1 ? this.found(words.slice(1).join(' ')) : undefined;
		if (article) return article;
		const front = formLength(words);
		const back = formLength([...words].reverse());
		if (!front && !back) return undefined;
		const rest = words.slice(front, words.length - back);
		const forms = [words.slice(0, front), words.slice(words.length - back)].filter((form) => form.length);
		// A form that is a name itself ("United Kingdom" in "Scotland, United Kingdom") is not taken off.
		if (!rest.length || forms.some((form) => this.codes.has(form.join(' ')))) return undefined;
		const found = this.found(rest.join(' '));
		const also = found?.length === 1 && !forms.flat().some((word) => PEOPLES.has(word)) ? FORM_ALSO[found[0]] : undefined;
		return also ? [...found!, also] : found;
	}

	/** Words shortened by a dot, each read as a word of the same name that starts with its first letter and holds its letters in order. */
	private shortened(written: WrittenWord[]): string[] | undefined {
		if (!this.byLength) {
			this.byLength = new Map();
			for (const [key, codes] of this.codes) {
				const words = key.split(' ');
				const same = this.byLength.get(words.length) ?? [];
				if (!same.length) this.byLength.set(words.length, same);
				same.push({ words, codes, english: this.english.has(key) });
			}
		}
		const names = (this.byLength.get(written.length) ?? []).filter(({ words }) =>
			written.every(({ word, short }, at) => (short ? shortens(word, words[at]) : word === words[at])),
		);
		const english = names.filter((name) => name.english);
		const found = new Set((english.length ? english : names).flatMap((name) => name.codes.split(' ')));
		return found.size && found.size <= MAX_CANDIDATES ? [...found].sort() : undefined;
	}
}
