import fs from 'fs-extra';
import { sleep } from 'n8n-workflow';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { SANDBOX, startSandbox } from '../fake-api/sandbox';
import type { FakeIntelliprint } from '../fake-api/server';
import { canvasNode, EditorTraffic, findChromium, launchBrowser, openNode, useSession } from './editor';
import { LINE, ROOT } from './n8n';
import { parseRunData, suiteN8n, type N8nServer } from './server';

/**
 * Every example in the real n8n editor, in a real browser (Chromium, test/e2e/install-chromium.sh): opened, run once
 * as a person trying it would (Execute workflow, where a manual trigger can start it; the ones a trigger starts are
 * saved instead), then each Intelliprint node's panel opened; then the workflow opened again in a new tab and every
 * panel opened again. Nowhere may the editor say a node's parameters have changed ("Node parameters have changed.
 * Test node again", the ⚠ on the node), and opening may not leave the workflow unsaved (n8n 1.x's Save button) or
 * save it (n8n 2.x saves by itself): an example saved without what the editor fills in on opening (the resource
 * mapper's schema) shows all three. test/package/examples.test.ts checks the saved form without a browser.
 *
 * EXAMPLES_DIR reads the examples from another folder: a copy with a schema removed shows this test failing.
 */

/** This file's own sandbox account on the suite's shared n8n (see startSandbox). */
const KEY = 'sandbox_key_editor';
const EXAMPLES = `${ROOT}/examples`;
const FOLDER = (import.meta.env.EXAMPLES_DIR as string | undefined) ?? EXAMPLES;
const SESSION = inject('n8nServer');
const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';

interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
}
interface Example {
	file: string;
	id: string;
	nodes: ExampleNode[];
}

const examples: Example[] = (fs.readdirSync(FOLDER) as string[])
	.filter((name) => name.endsWith('.json'))
	.sort()
	.map((file) => ({ file, ...(fs.readJsonSync(`${FOLDER}/${file}`) as Omit<Example, 'file'>) }));
const intelliprintNodes = (example: Example) => example.nodes.filter((node) => node.type.startsWith('n8n-nodes-intelliprint.')).map((node) => node.name);

/** Where no browser is found: on a machine with apt-get (CI, .ci/run) a failure, since install-chromium.sh fixes it; elsewhere the test is skipped. */
const chromium = findChromium(import.meta.env.CHROMIUM_PATH as string | undefined);
const canInstall = fs.pathExistsSync('/usr/bin/apt-get');

let fake: FakeIntelliprint;
let n8n: N8nServer;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
beforeAll(async () => {
	if (!chromium) return;
	fake = await startSandbox(undefined, KEY);
	n8n = suiteN8n('editor');
	await n8n.importCredentials([
		{ id: 'ipSandboxCred001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: KEY, baseUrl: SANDBOX.apiUrl } },
		{ id: 'ipWebhookCred001', name: 'Intelliprint webhook (sandbox)', type: 'intelliprintWebhookApi', data: { signingSecret: `whsec_${Buffer.from('sandbox-webhook-signing-secret-32').toString('base64')}` } },
	]);
	await n8n.importWorkflows(examples.map(({ file }) => `${FOLDER}/${file}`));
	browser = await launchBrowser(chromium);
	// One context for every tab: the editor's files load once, and the session is the suite's owner's.
	context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
	await useSession(context, SESSION);
});
afterAll(async () => {
	await browser?.close();
	await fake?.stop();
});

/** A new tab signed in as the suite's owner, with the workflow open and its REST traffic watched. */
async function openWorkflow(example: Example): Promise<{ page: Page; traffic: EditorTraffic }> {
	const page = await context!.newPage();
	const traffic = new EditorTraffic(page);
	await page.goto(`${SESSION.url}/workflow/${n8n.idOf(example.id)}`, { waitUntil: 'commit' });
	// Two minutes: on a busy host the editor's first drawing of a canvas has taken over one.
	await canvasNode(page, intelliprintNodes(example)[0]).waitFor({ timeout: 120_000 });
	await traffic.settle();
	return { page, traffic };
}

async function rest<T>(path: string): Promise<T> {
	const response = await fetch(`${SESSION.url}/rest${path}`, { headers: { cookie: SESSION.cookie, 'browser-id': SESSION.browserId } });
	if (!response.ok) throw new Error(`n8n GET /rest${path}: HTTP ${response.status}`);
	return ((await response.json()) as { data: T }).data;
}

/** Waits for an execution to reach one of `statuses`; returns the names of the nodes that ran. */
async function executionReaches(executionId: string, statuses: string[], seconds = 120): Promise<string[]> {
	for (let waited = 0; ; waited += 0.25) {
		const execution = await rest<{ status: string; data?: string }>(`/executions/${executionId}`);
		// n8n 1.x may answer a run's new status before its run data is written: read again until both are there.
		const runData = execution.data ? parseRunData(execution.data)?.resultData?.runData : undefined;
		if (statuses.includes(execution.status) && runData) return Object.keys(runData);
		if (['error', 'crashed', 'canceled'].includes(execution.status)) throw new Error(`the editor's run ${executionId} ended ${execution.status}`);
		if (waited > seconds) throw new Error(`the editor's run ${executionId} is still ${execution.status} after ${seconds} s`);
		await sleep(250);
	}
}

/**
 * Runs the workflow as a person would: Execute workflow, and for "approve before posting" the Approve link of the
 * message its run sends (the run waits for it). Returns when the canvas shows every node that ran as done.
 */
async function runInEditor(page: Page, example: Example): Promise<void> {
	const before = fake.notifications.length;
	const started = page.waitForResponse((response) => response.request().method() === 'POST' && /\/rest\/workflows\/[^/]+\/run$/.test(new URL(response.url()).pathname));
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	const { data } = (await (await started).json()) as { data: { executionId: string } };
	const waits = example.nodes.some((node) => node.type === 'n8n-nodes-base.wait');
	let ran = await executionReaches(data.executionId, waits ? ['waiting'] : ['success']);
	if (waits) {
		for (let waited = 0; fake.notifications.length === before; waited++) {
			if (waited > 60) throw new Error(`${example.file}: no message to the approver within 60 s`);
			await sleep(1000);
		}
		const approve = /^Approve: (\S+)$/m.exec(String((fake.notifications[before] as { text?: unknown }).text))?.[1];
		expect(approve, `${example.file}: the approver's message has an Approve link`).toBeDefined();
		expect((await fetch(approve!)).ok).toBe(true);
		ran = await executionReaches(data.executionId, ['success']);
	}
	for (const name of ran) await canvasNode(page, name).locator('[data-test-id="canvas-node-status-success"]').waitFor({ timeout: 60_000 });
}

/**
 * Whether the editor holds changes not saved: its UI store's stateIsDirty, what n8n 1.x's Save button shows and what
 * n8n 2.x saves by itself 1.5 s later. Read at once, so the test need not wait for 2.x's autosave (which the REST
 * traffic would show).
 */
async function unsaved(page: Page): Promise<boolean> {
	const dirty = await page.evaluate(`(() => {
		const pinia = document.querySelector('#app')?.__vue_app__?.config.globalProperties.$pinia;
		return pinia?._s.get('ui')?.stateIsDirty;
	})()`);
	if (typeof dirty !== 'boolean') throw new Error(`the editor's unsaved state could not be read (ui store stateIsDirty: ${String(dirty)})`);
	return dirty;
}

/**
 * Opens each Intelliprint node's panel and lists what the editor shows that it should not: the stale-output warning
 * (its tooltip is "Node parameters have changed. Test node again to refresh output."), that text anywhere, issues in
 * the panel, and on the canvas the node's ⚠ (changed parameters) or issues icon. Then: no save, and not unsaved.
 */
async function panelProblems(page: Page, traffic: EditorTraffic, example: Example, when: string): Promise<string[]> {
	const problems: string[] = [];
	const ndv = page.locator('[data-test-id="ndv"]');
	for (const name of intelliprintNodes(example)) {
		const at = `${example.file}, ${when}, "${name}"`;
		await openNode(page, name);
		await ndv.waitFor();
		// The resource mapper loads its fields when its panel opens (and again after a run): wait for the answers.
		await traffic.settle();
		const stale = ndv.locator('[data-test-id="node-run-info-stale"]');
		if ((await stale.count()) > 0) {
			await stale.first().hover();
			await sleep(800);
			problems.push(`${at}: the stale-output warning (${(await page.getByText(/parameters have changed/i).first().textContent().catch(() => '')) ?? ''})`);
		}
		if (/parameters have changed/i.test(await page.locator('body').innerText())) problems.push(`${at}: "parameters have changed" on the page`);
		if ((await ndv.locator('[data-test-id="parameter-issues"]').count()) > 0) problems.push(`${at}: parameter issues in the panel`);
		await page.keyboard.press('Escape');
		await ndv.waitFor({ state: 'hidden' });
		const node = canvasNode(page, name);
		if ((await node.locator('[data-test-id="canvas-node-status-warning"]').count()) > 0) problems.push(`${at}: ⚠ on the node (its parameters changed)`);
		if ((await node.locator('[data-test-id="node-issues"]').count()) > 0) problems.push(`${at}: the issues icon on the node`);
	}
	await traffic.settle();
	if (traffic.saves.length > 0) problems.push(`${example.file}, ${when}: the editor saved the workflow (${traffic.saves.join(', ')})`);
	if (await unsaved(page)) problems.push(`${example.file}, ${when}: the workflow is marked unsaved`);
	const save = page.locator('[data-test-id="workflow-save-button"]');
	if ((await save.count()) > 0 && (await save.innerText()).trim() !== 'Saved') problems.push(`${example.file}, ${when}: the Save button reads "${(await save.innerText()).trim()}", not "Saved"`);
	return problems;
}

describe.skipIf(!chromium)(`the examples in the real n8n ${LINE}.x editor (Chromium)`, () => {
	it.skipIf(FOLDER !== EXAMPLES)('every example is here, and the ones that map rows with the resource mapper among them', () => {
		expect(examples.length).toBeGreaterThanOrEqual(8);
		expect(examples.filter((example) => example.nodes.some((node) => 'recipientFields' in node.parameters)).map(({ file }) => file)).toEqual(
			expect.arrayContaining(['approve-before-posting.json', 'rows-to-letters.json', 'template-to-rows.json']),
		);
	});

	it.each(examples.map((example) => [example.file, example] as const))('%s: run once, opened again, no node says its parameters changed', async (_, example) => {
		const pages: Page[] = [];
		let ended = false;
		try {
			const first = await openWorkflow(example);
			pages.push(first.page);
			if (example.nodes.some((node) => node.type === MANUAL_TRIGGER)) await runInEditor(first.page, example);
			else {
				// Started by a trigger (a webhook, a chat): nothing to run in the editor, so it is saved, as after editing.
				await first.page.keyboard.press('ControlOrMeta+s');
				await first.traffic.settle();
				first.traffic.saves.length = 0;
			}
			const problems = await panelProblems(first.page, first.traffic, example, 'after its run');
			const again = await openWorkflow(example);
			pages.push(again.page);
			problems.push(...(await panelProblems(again.page, again.traffic, example, 'opened again')));
			expect(problems).toEqual([]);
			ended = true;
		} finally {
			// What the browser showed when the test failed, to look at: .e2e/editor-<example>-n8n<line>.png
			if (!ended && pages.length > 0) await pages[pages.length - 1].screenshot({ path: `${ROOT}/.e2e/editor-${example.file.replace(/\.json$/, '')}-n8n${LINE}.png` }).catch(() => undefined);
			for (const page of pages) await page.close();
		}
	});
});

describe.skipIf(Boolean(chromium))('the editor test without a browser', () => {
	it(canInstall ? 'fails: no Chromium here; bash test/e2e/install-chromium.sh installs it (or set CHROMIUM_PATH)' : 'is skipped: no Chromium or Chrome here (set CHROMIUM_PATH to run it)', () => {
		expect(canInstall).toBe(false);
	});
});
