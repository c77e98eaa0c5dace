/**
 * Invisible characters in what goes on an envelope: text copied from a web page, a PDF or another system brings
 * them along. Those that print nothing and mean nothing are removed; those that change what is printed (a
 * right-to-left override reverses the text after it) or that a printer cannot print (control characters) refuse
 * the row, with the character named, since the value looks right on screen. Used by addressRules.ts, with the
 * line breaks and composed characters that make text print as it looks.
 */

/** Removed wherever they stand: zero-width space, word joiner, byte order mark, soft hyphen. */
const HARMLESS = /[\u200B\u2060\uFEFF\u00AD]/g;
/** Kept: they shape scripts (zero-width joiner and non-joiner) or mark direction in right-to-left text. */
const SHAPING = new Set(['\u200C', '\u200D', '\u200E', '\u200F', '\u061C']);
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const ANY = INVISIBLE;
const ANY_BUT_NEWLINE = /(?!\n)[\p{Cc}\p{Cf}]/u;
const PLAIN = /^[\x20-\x7e]*$/;
const PLAIN_LINES = /^[\x20-\x7e\n]*$/;

const NAMES: Record<string, string> = {
	'\u202A': 'left-to-right embedding',
	'\u202B': 'right-to-left embedding',
	'\u202C': 'pop directional formatting',
	'\u202D': 'left-to-right override',
	'\u202E': 'right-to-left override',
	'\u2066': 'left-to-right isolate',
	'\u2067': 'right-to-left isolate',
	'\u2068': 'first strong isolate',
	'\u2069': 'pop directional isolate',
};

/** "U+202E, right-to-left override": how a message shows a character no one can see. */
export function codePoint(character: string): string {
	const hex = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
	const name = NAMES[character] ?? (/\p{Cc}/u.test(character) ? 'a control character' : 'an invisible format character');
	return `${hex}, ${name}`;
}

/** A postcode with every invisible character taken out: none belongs in one, and none changes which it is. */
export function postcodeText(text: string): string {
	return text.replace(/[\p{Cc}\p{Cf}]/gu, (character) => (character === '\t' ? ' ' : ''));
}

/**
 * A line break however it was typed: CR LF, CR, and the Unicode line and paragraph separators (U+2028, U+2029) that
 * text copied from a word processor or a PDF brings.
 */
const LINE_BREAK = /\r\n?|[\u2028\u2029]/g;

/**
 * A name or address line as it will be printed: harmless invisible characters removed, tabs as spaces, line breaks
 * as "\n" in address lines (lines left empty by two breaks in a row dropped) and as spaces in a name, which is one
 * line on the envelope; in Unicode's composed form (NFC), so that "ü" typed as "u" and a combining diaeresis
 * prints, and compares, as the one character. The first character that would change what is printed, if there is
 * one, as `refused`.
 */
export function printedText(text: string, lines: boolean): { text: string; refused?: string } {
	// Printable ASCII (and line breaks in address lines) has nothing to remove, replace, compose or refuse.
	if ((lines ? PLAIN_LINES : PLAIN).test(text)) return { text: lines && text.includes('\n') ? text.split('\n').filter((line) => line.trim()).join('\n') : text };
	const broken = text.replace(HARMLESS, '').replace(LINE_BREAK, lines ? '\n' : ' ').replace(/\t/g, ' ').normalize('NFC');
	const cleaned = lines && broken.includes('\n') ? broken.split('\n').filter((line) => line.trim()).join('\n') : broken;
	// Most text holds none: one test of the whole text, a character at a time only when it does (half the check's time).
	if (!(lines ? ANY_BUT_NEWLINE : ANY).test(cleaned)) return { text: cleaned };
	for (const character of cleaned) {
		if (character === '\n' && lines) continue;
		if (INVISIBLE.test(character) && !SHAPING.has(character)) return { text: cleaned, refused: character };
	}
	return { text: cleaned };
}
