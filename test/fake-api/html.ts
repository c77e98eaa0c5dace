/** A paragraph of a letter: its hard lines (from <br>, list items or newlines), each wrapped on its own. */
export interface Block {
	lines: string[];
	heading: boolean;
}

const ENTITIES: Record<string, string> = {
	amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', pound: '£', euro: '€', copy: '©', reg: '®',
	ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', bull: '•',
};
/** Marks the start of a heading while tags are turned into breaks (a control character no letter contains). */
const HEADING = '\u0001';

export function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
		if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
		const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
		return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
	});
}

const looksLikeHtml = (content: string) => /<\/?[a-z][a-z0-9]*\b[^>]*>|<!--/i.test(content);

/** HTML to text with "\n" for line breaks and "\n\n" between paragraphs, as a reader would see it. */
function htmlText(content: string): string {
	return decodeEntities(
		content
			.replace(/<!--[\s\S]*?-->/g, '')
			.replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, '')
			// The source's own line breaks and indentation are not the letter's, as in a browser.
			.replace(/\s+/g, ' ')
			.replace(/<br\s*\/?>/gi, '\n')
			.replace(/<h[1-3]\b[^>]*>/gi, `\n\n${HEADING}`)
			.replace(/<li\b[^>]*>/gi, '\n• ')
			.replace(/<\/?(p|div|h[1-6]|ul|ol|table|tr|blockquote|section|article|header|footer|address|pre|hr)\b[^>]*>/gi, '\n\n')
			.replace(/<\/td\s*>/gi, ' ')
			.replace(/<[^>]*>/g, ''),
	);
}

/**
 * The blocks of a letter. HTML: <p>, <h1>-<h3> and lists make paragraphs, <br> and <li> lines, other tags go,
 * entities are decoded. Plain text (no tags): each newline is a line, a blank line starts a paragraph.
 * Placeholders are left in; `fill` puts each recipient's values in.
 */
export function toBlocks(content: string): Block[] {
	const text = looksLikeHtml(content) ? htmlText(content) : content.replace(/\r\n?/g, '\n').replace(/\n[ \t]*(?=\n)/g, '\n');
	return text
		.split(/\n{2,}/)
		.map((paragraph) => {
			const heading = paragraph.includes(HEADING);
			const lines = paragraph.replaceAll(HEADING, '').split('\n').map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim());
			while (lines.length > 0 && !lines[0]) lines.shift();
			while (lines.length > 0 && !lines[lines.length - 1]) lines.pop();
			return { lines, heading };
		})
		.filter((block) => block.lines.length > 0);
}

/**
 * Fills `{{name}}` (spaces inside the braces allowed) from a recipient's variables. A placeholder with no
 * variable becomes empty text: our choice, as the API's behaviour there is not public. A value may hold
 * line breaks; they become lines of the letter.
 */
export function fill(blocks: Block[], variables: Record<string, string>): Block[] {
	const put = (text: string) => text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, key: string) => variables[key] ?? '');
	return blocks.map((block) => ({ heading: block.heading, lines: block.lines.flatMap((line) => put(line).split(/\r?\n/)) }));
}
