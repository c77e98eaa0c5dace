import fs from 'fs-extra';
import { sleep } from 'n8n-workflow';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/**
 * The real n8n editor in a real browser, for the editor test (editorExamples.test.ts) and `npm run screenshots`:
 * playwright-core drives a Chromium already on the machine (Debian's, installed by test/e2e/install-chromium.sh),
 * and downloads no browser of its own.
 */

/** Where a Chromium or Chrome is looked for, after CHROMIUM_PATH: Debian's and Ubuntu's, then Chrome's on macOS and Windows. */
export const CHROMIUM_PLACES = [
	'/usr/bin/chromium',
	'/usr/bin/chromium-browser',
	'/usr/bin/google-chrome',
	'/Applications/Chromium.app/Contents/MacOS/Chromium',
	'/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
	'C:/Program Files/Google/Chrome/Application/chrome.exe',
];

/** The browser to drive: `preferred` (CHROMIUM_PATH) when set, else the first of CHROMIUM_PLACES present. */
export function findChromium(preferred?: string): string | undefined {
	if (preferred) return fs.pathExistsSync(preferred) ? preferred : undefined;
	return CHROMIUM_PLACES.find((place) => fs.pathExistsSync(place));
}

/** A headless Chromium without the background traffic a fresh profile starts (updates, sync, QUIC probes). */
export async function launchBrowser(executablePath: string): Promise<Browser> {
	return await chromium.launch({
		executablePath,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
}

/**
 * Waits until n8n serves its editor and REST routes: n8n 1.x reports ready before they exist, and a page opened in
 * that moment shows "Cannot GET".
 */
export async function waitForEditor(url: string, timeoutMs = 90_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while ((await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined))?.status !== 200) {
		if (Date.now() > deadline) throw new Error(`n8n at ${url} never answered /rest/settings`);
		await sleep(250);
	}
}

/** The owner account a fresh n8n asks for on its first visit, made through the editor's own setup form. */
export async function setUpOwnerInEditor(page: Page, url: string, owner: { email: string; firstName: string; lastName: string; password: string }): Promise<void> {
	await waitForEditor(url);
	await page.goto(`${url}/setup`);
	await page.locator('input[name="email"]').fill(owner.email);
	await page.locator('input[name="firstName"]').fill(owner.firstName);
	await page.locator('input[name="lastName"]').fill(owner.lastName);
	await page.locator('input[name="password"]').fill(owner.password);
	await page.getByRole('button', { name: /next|continue|set ?up/i }).first().click();
	await page.waitForURL((address) => !address.pathname.startsWith('/setup'), { timeout: 30_000 });
	await page.keyboard.press('Escape');
}

/**
 * Signs the browser into a session made over n8n's REST API (the suite's n8n: test/e2e/server.ts): its auth cookie,
 * and the browser ID the session was made with, which the editor keeps in localStorage and sends with every request.
 */
export async function useSession(context: BrowserContext, session: { url: string; cookie: string; browserId: string }): Promise<void> {
	const [name, ...value] = session.cookie.split('=');
	await context.addCookies([{ name, value: value.join('='), url: session.url }]);
	await context.addInitScript({ content: `localStorage.setItem('n8n-browserId', ${JSON.stringify(session.browserId)});` });
}

/** A node on the canvas, by its exact name. */
export function canvasNode(page: Page, name: string): Locator {
	return page.locator('[data-test-id="canvas-node"]').filter({ has: page.getByText(name, { exact: true }) }).first();
}

/** Opens a node's panel (NDV): double-click the node, or, where the canvas shows only its label, just above the label. */
export async function openNode(page: Page, name: string): Promise<void> {
	const node = canvasNode(page, name);
	if ((await node.count()) > 0) {
		await node.dblclick();
		return;
	}
	const label = await page.getByText(name, { exact: true }).first().boundingBox();
	if (!label) throw new Error(`no node "${name}" on the canvas`);
	await page.mouse.dblclick(label.x + label.width / 2, label.y - 60);
}

/**
 * What the page asks of n8n's REST API: the requests still waiting for an answer (the push connection aside, which
 * stays open) and every request that saves a workflow (PATCH or PUT of /rest/workflows/<id>: the editor's Save and
 * 2.x's autosave).
 */
export class EditorTraffic {
	private readonly waiting = new Set<unknown>();
	readonly saves: string[] = [];

	constructor(page: Page) {
		page.on('request', (request) => {
			const path = new URL(request.url()).pathname;
			if (!path.startsWith('/rest/') || path.startsWith('/rest/push')) return;
			this.waiting.add(request);
			if (/^\/rest\/workflows\/[^/]+$/.test(path) && ['PATCH', 'PUT'].includes(request.method())) this.saves.push(`${request.method()} ${path}`);
		});
		page.on('requestfinished', (request) => this.waiting.delete(request));
		page.on('requestfailed', (request) => this.waiting.delete(request));
	}

	/** Waits until no REST request has been waiting for `quietMs` (the editor has loaded what it asked for). */
	async settle(quietMs = 400, timeoutMs = 30_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		let quietSince = Date.now();
		while (Date.now() - quietSince < quietMs) {
			if (this.waiting.size > 0) quietSince = Date.now();
			if (Date.now() > deadline) throw new Error(`the editor still had ${this.waiting.size} REST requests waiting after ${timeoutMs} ms`);
			await sleep(50);
		}
	}
}
