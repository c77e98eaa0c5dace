import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';

import { fail } from './http';
import { fill, toBlocks, type Block } from './html';
import { MM, WINDOWS, type WindowSide } from './pdf';
import { windowLines, type Recipient } from './recipients';

/** What the renderer needs to know of a job. */
export interface RenderJob {
	content: string;
	recipients: Recipient[];
	type: 'letter' | 'postcard';
	/** The postcard size (`postage.ideal_envelope`); unused for letters. */
	size: string;
	window: WindowSide;
}

/** One rendered letter: its pages in the job's PDF (0-based) and all its text, for `remove_letters`. */
export interface RenderedLetter {
	pages: number[];
	text: string;
}

const A4 = { width: 595.28, height: 841.89 };
/**
 * Letter layout (ours), in points: the body runs 25 mm from the left to 20 mm from the right, from 100 mm down on
 * the first page (below the window) and 25 mm down on later ones, to 20 mm above the bottom edge.
 */
const BODY = { left: 25 * MM, right: 20 * MM, firstTop: 100 * MM, top: 25 * MM, bottom: 20 * MM, size: 11, leading: 15, gap: 7 };
const HEADING = { size: 14, leading: 19 };
/**
 * The address starts 12 mm inside its window (so a right-window address stays clear of the left window, which
 * ends at 110 mm), first baseline 10 mm below the window's top, lines 5 mm apart: nine lines fit.
 */
const ADDRESS = { inset: 12 * MM, first: 10 * MM, step: 5 * MM, size: 10, smallest: 6 };
/** Postcard sizes, landscape, in mm (ours: A6 and A5). */
const POSTCARDS: Record<string, [number, number]> = { postcard_a6: [148, 105], postcard_a5: [210, 148], postcard_a5_enveloped: [210, 148] };

interface Fonts {
	regular: PDFFont;
	bold: PDFFont;
	/** The characters Helvetica can show (WinAnsi); others are printed as "?" rather than failing the job. */
	known: Set<number>;
}

function printable(text: string, fonts: Fonts): string {
	return [...text].map((char) => (fonts.known.has(char.codePointAt(0)!) ? char : char === '\t' ? ' ' : '?')).join('');
}

/** Greedy word wrap; a word wider than the line is broken between characters. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
	const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
	const lines: string[] = [];
	let current = '';
	for (let word of text.split(' ').filter(Boolean)) {
		const joined = current ? `${current} ${word}` : word;
		if (fits(joined)) {
			current = joined;
			continue;
		}
		if (current) lines.push(current);
		while (!fits(word) && word.length > 1) {
			let cut = word.length - 1;
			while (cut > 1 && !fits(word.slice(0, cut))) cut--;
			lines.push(word.slice(0, cut));
			word = word.slice(cut);
		}
		current = word;
	}
	lines.push(current);
	return lines;
}

/** Writes the address lines at the given top-left point, each shrunk (down to 6 pt) to fit the width. */
function drawAddress(page: PDFPage, fonts: Fonts, lines: string[], x: number, firstFromTop: number, width: number): void {
	const height = page.getHeight();
	lines.forEach((line, index) => {
		const text = printable(line, fonts);
		let size = ADDRESS.size;
		while (size > ADDRESS.smallest && fonts.regular.widthOfTextAtSize(text, size) > width) size -= 0.5;
		page.drawText(text, { x, y: height - firstFromTop - index * ADDRESS.step, size, font: fonts.regular });
	});
}

/** The address in the envelope window, where the fake reads addresses back from a letter. */
function drawWindowAddress(page: PDFPage, fonts: Fonts, recipient: Recipient, side: WindowSide): void {
	const area = WINDOWS[side];
	drawAddress(page, fonts, windowLines(recipient.address), area.left + ADDRESS.inset, area.top + ADDRESS.first, area.right - area.left - ADDRESS.inset - 2 * MM);
}

function drawLetter(document: PDFDocument, fonts: Fonts, blocks: Block[], recipient: Recipient, side: WindowSide): number {
	const width = A4.width - BODY.left - BODY.right;
	let page = document.addPage([A4.width, A4.height]);
	let pages = 1;
	drawWindowAddress(page, fonts, recipient, side);
	let y = A4.height - BODY.firstTop;
	for (const block of blocks) {
		const font = block.heading ? fonts.bold : fonts.regular;
		const { size, leading } = block.heading ? HEADING : BODY;
		for (const line of block.lines.flatMap((hard) => wrap(printable(hard, fonts), font, size, width))) {
			if (y - leading < BODY.bottom) {
				page = document.addPage([A4.width, A4.height]);
				pages++;
				y = A4.height - BODY.top;
			}
			if (line) page.drawText(line, { x: BODY.left, y: y - size, size, font });
			y -= leading;
		}
		y -= BODY.gap;
	}
	return pages;
}

/** A postcard (ours): the content on the front, the address on the right half of the back. Content that does not fit is refused. */
function drawPostcard(document: PDFDocument, fonts: Fonts, blocks: Block[], recipient: Recipient, size: string, index: number): number {
	const [widthMm, heightMm] = POSTCARDS[size] ?? POSTCARDS.postcard_a6;
	const [width, height] = [widthMm * MM, heightMm * MM];
	const margin = 8 * MM;
	const textSize = widthMm > 150 ? 11 : 9;
	const front = document.addPage([width, height]);
	let y = height - margin;
	for (const block of blocks) {
		const font = block.heading ? fonts.bold : fonts.regular;
		const lineSize = block.heading ? textSize + 2 : textSize;
		for (const line of block.lines.flatMap((hard) => wrap(printable(hard, fonts), font, lineSize, width - 2 * margin))) {
			if (y - lineSize * 1.35 < margin) {
				throw fail.invalid('parameter_invalid', `Invalid value for content: it does not fit on the front of a ${size} postcard (recipient ${index}).`, 'content');
			}
			if (line) front.drawText(line, { x: margin, y: y - lineSize, size: lineSize, font });
			y -= lineSize * 1.35;
		}
		y -= lineSize / 2;
	}
	const back = document.addPage([width, height]);
	back.drawLine({ start: { x: width / 2, y: margin }, end: { x: width / 2, y: height - margin }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
	drawAddress(back, fonts, windowLines(recipient.address), width / 2 + 5 * MM, height * 0.4, width / 2 - 5 * MM - margin);
	return 2;
}

async function embedFonts(document: PDFDocument): Promise<Fonts> {
	const regular = await document.embedFont(StandardFonts.Helvetica);
	return { regular, bold: await document.embedFont(StandardFonts.HelveticaBold), known: new Set(regular.getCharacterSet()) };
}

/**
 * The same PDF once per recipient, each copy's first page addressed to its recipient: the window whited out
 * (whatever the file printed there would show through the envelope), then the address written where content
 * letters have it. Copy n is pages n·size to n·size + size - 1.
 */
export async function addressedCopies(pdf: Buffer, recipients: Recipient[], side: WindowSide): Promise<{ pdf: Buffer; size: number }> {
	const source = await PDFDocument.load(pdf, { ignoreEncryption: true });
	const document = await PDFDocument.create();
	const fonts = await embedFonts(document);
	const area = WINDOWS[side];
	const indexes = source.getPageIndices();
	for (const recipient of recipients) {
		// A call per copy, though fonts and images are then copied each time: copies made in one call share objects, so drawing on one could change them all.
		const pages = await document.copyPages(source, indexes);
		pages.forEach((page) => document.addPage(page));
		const first = pages[0];
		first.drawRectangle({ x: area.left, y: first.getHeight() - area.bottom, width: area.right - area.left, height: area.bottom - area.top, color: rgb(1, 1, 1) });
		drawWindowAddress(first, fonts, recipient, side);
	}
	return { pdf: Buffer.from(await document.save()), size: indexes.length };
}

/**
 * Renders every recipient's letter (or postcard) into one PDF, fonts embedded once per job; each letter's PDF
 * is cut from it by page range, as letters split from an uploaded file are.
 */
export async function renderContent(job: RenderJob): Promise<{ pdf: Buffer; letters: RenderedLetter[] }> {
	const document = await PDFDocument.create();
	const fonts = await embedFonts(document);
	const blocks = toBlocks(job.content);
	const letters: RenderedLetter[] = [];
	for (const [index, recipient] of job.recipients.entries()) {
		const filled = fill(blocks, recipient.variables);
		const first = document.getPageCount();
		const count = job.type === 'postcard' ? drawPostcard(document, fonts, filled, recipient, job.size, index) : drawLetter(document, fonts, filled, recipient, job.window);
		const text = [...windowLines(recipient.address), ...filled.flatMap((block) => block.lines)].join('\n');
		letters.push({ pages: Array.from({ length: count }, (_, page) => first + page), text });
	}
	return { pdf: Buffer.from(await document.save()), letters };
}
