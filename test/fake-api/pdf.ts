import { PDFDocument } from '@cantoo/pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** One page's text, with the lines that fall inside the address window (see WINDOWS). */
export interface PageText {
	text: string;
	windowLines: string[];
}

export const MM = 72 / 25.4;
export type WindowSide = 'left' | 'right';
/**
 * The address windows of an A4 page, in points: 35-90 mm from the top, 15-110 mm from the left edge
 * (`address_window=left`, the default) or its mirror image 100-195 mm (`right`). Letters are read here and
 * content letters are written here, so the two cannot drift apart.
 */
export const WINDOWS: Record<WindowSide, { left: number; right: number; top: number; bottom: number }> = {
	left: { left: 15 * MM, right: 110 * MM, top: 35 * MM, bottom: 90 * MM },
	right: { left: 100 * MM, right: 195 * MM, top: 35 * MM, bottom: 90 * MM },
};

export async function pageCount(data: Buffer): Promise<number> {
	const document = await PDFDocument.load(data, { ignoreEncryption: true, updateMetadata: false });
	return document.getPageCount();
}

/** Reads every page's text with positions (pdf.js), so letters can be split and addressed. */
export async function readPages(data: Buffer, side: WindowSide = 'left'): Promise<PageText[]> {
	const area = WINDOWS[side];
	const task = getDocument({ data: new Uint8Array(data), verbosity: 0, useSystemFonts: false, isEvalSupported: false });
	const document = await task.promise;
	const pages: PageText[] = [];
	try {
		for (let number = 1; number <= document.numPages; number++) {
			const page = await document.getPage(number);
			const height = page.getViewport({ scale: 1 }).height;
			const content = await page.getTextContent();
			const lines = new Map<number, Array<{ x: number; str: string }>>();
			const all: string[] = [];
			for (const item of content.items) {
				if (!('str' in item) || !item.str.trim()) continue;
				all.push(item.str);
				const [x, y] = [item.transform[4], item.transform[5]];
				const fromTop = height - y;
				if (x < area.left || x > area.right || fromTop < area.top || fromTop > area.bottom) continue;
				const key = Math.round(fromTop);
				lines.set(key, [...(lines.get(key) ?? []), { x, str: item.str }]);
			}
			const windowLines = [...lines.entries()]
				.sort((a, b) => a[0] - b[0])
				.map(([, parts]) => parts.sort((a, b) => a.x - b.x).map((p) => p.str).join(' ').trim());
			pages.push({ text: all.join(' '), windowLines });
			page.cleanup();
		}
	} finally {
		await document.destroy();
	}
	return pages;
}

/** Copies the given pages (0-based) of a PDF into a new PDF. */
export async function extractPages(data: Buffer, pageIndexes: number[]): Promise<Buffer> {
	const source = await PDFDocument.load(data, { ignoreEncryption: true });
	const target = await PDFDocument.create();
	const copied = await target.copyPages(source, pageIndexes);
	copied.forEach((page) => target.addPage(page));
	return Buffer.from(await target.save());
}

/** Appends PDFs one after the other into one PDF. */
export async function mergePdfs(files: Buffer[]): Promise<Buffer> {
	const target = await PDFDocument.create();
	for (const file of files) {
		const source = await PDFDocument.load(file, { ignoreEncryption: true });
		const copied = await target.copyPages(source, source.getPageIndices());
		copied.forEach((page) => target.addPage(page));
	}
	return Buffer.from(await target.save());
}

export function looksLikePdf(data: Buffer): boolean {
	return data.subarray(0, 1024).indexOf('%PDF-') !== -1;
}
