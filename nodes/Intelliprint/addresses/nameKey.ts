/**
 * The key a country's name is looked up by, the same for the names in the data (scripts/countries.mjs imports this
 * file) and for what a sheet holds: case, Latin and Greek accents, punctuation, "&" or "and", "the" and "St." do not
 * count; other scripts are kept as they are written (Thai and Devanagari vowel signs are letters, not accents).
 */

/** Latin letters that carry no separable accent, read as their plain forms. */
const FOLDED: Record<string, string> = { æ: 'ae', ø: 'o', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h' };
/**
 * Words a key leaves out: "the", and "and" as the languages of the data write it between two names ("Bosnia and
 * Herzegovina", "Trinidad & Tobago", "Saint-Pierre-et-Miquelon", "São Tomé e Príncipe", "Bosnia-Herzegovina").
 */
const LEFT_OUT = new Set(['the', 'and', 'et', 'und', 'y', 'e', 'en', 'og', 'och', 'i', 've', 'es', 'si', 'ja']);
/** Words read as one: "St Helena" is "Saint Helena", "Cayman Island" is "Cayman Islands". */
const SAME: Record<string, string> = { st: 'saint', ste: 'sainte', islands: 'island', isles: 'isle' };

/** The words of a name as keys hold them, in order; `all` keeps the words a key leaves out. */
function keyWords(text: string, all = false): string[] {
	return text
		.normalize('NFKD')
		.replace(/([\p{Script=Latin}\p{Script=Greek}])\p{M}+/gu, '$1')
		.normalize('NFC')
		.toLowerCase()
		.replace(/[æøœßłđðþıħ]/g, (letter) => FOLDED[letter])
		.replace(/['’ʼ.]/g, '')
		.split(/[^\p{L}\p{M}\p{N}]+/u)
		.filter((word) => word && (all || !LEFT_OUT.has(word)))
		.map((word) => SAME[word] ?? word);
}

/** The key of a name: "Bosnia & Herzegovina", "bosnia and herzegovina" and "Bosnia-Herzegovina" are one. */
export const nameKey = (text: string): string => keyWords(text).join(' ');

/** A word of a written name, and whether it was shortened with a dot ("Rep.", "N.", "Is."). */
export interface WrittenWord {
	word: string;
	short: boolean;
}

/** Letters each followed by a dot, as initials are written: "U.S.A.", "U.K.", "P.D.R.". */
const INITIALS = /(?<![\p{L}\p{M}])(?:\p{L}\.){2,}/gu;
/** Shortenings sheets also write without their dot: "Czech Rep", "Cayman Is", "N Ireland". */
const UNDOTTED = new Set(['rep', 'dem', 'fed', 'sts', 'is', 'isl', 'isls', 'terr', 'n', 's', 'nth', 'sth']);

/**
 * The words of a name with those shortened marked ("Czech Rep.", "N. Ireland", "Turks & Caicos Is.", "Czech Rep"),
 * or undefined when none is: initials ("U.K.") are a word, not shortenings.
 */
export function shortenedWords(text: string): WrittenWord[] | undefined {
	const parts = text.replace(INITIALS, (initials) => initials.replace(/\./g, '')).split(/(?<=\p{L})\.(?![\p{L}\p{N}])/u);
	const words = parts.flatMap((part, at) => {
		const dotted = at < parts.length - 1 ? /\p{L}+$/u.exec(part)?.[0] : undefined;
		const found = keyWords(dotted ? part.slice(0, -dotted.length) : part).map((word) => ({ word, short: UNDOTTED.has(word) }));
		return dotted ? [...found, ...keyWords(dotted, true).map((word) => ({ word, short: true }))] : found;
	});
	return words.some((written) => written.short) ? words : undefined;
}

/** Whether `short` ("rep", "is", "sts") is `word` ("republic", "islands", "states") shortened: its first letter, then its letters in order. */
export function shortens(short: string, word: string): boolean {
	if (short.length > word.length || short[0] !== word[0]) return false;
	let at = 0;
	for (const letter of word) if (letter === short[at]) at++;
	return at >= short.length;
}
