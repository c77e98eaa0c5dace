#!/usr/bin/env node
// `npm run screenshots`: retakes the pictures of the README and docs/ of the nodes in the real n8n editor, with
// Debian's Chromium (apt-get install chromium) driven by playwright-core. Nothing downloads a browser.
//
// JavaScript, run through tsx, for the reasons given in scripts/dev.mjs.
import fs from 'fs-extra';

import sandboxModule from '../test/fake-api/sandbox.ts';
import runnerModule from '../test/e2e/n8n.ts';
import editorModule from '../test/e2e/editor.ts';
import sixRowsModule from '../test/helpers/sixRows.ts';

const { SANDBOX, startSandbox } = sandboxModule;
const { installN8n, N8nInstance, ROOT } = runnerModule;
// The browser, the owner's first visit and opening a node: shared with the editor test (test/e2e/editorExamples.test.ts).
const { findChromium, launchBrowser, openNode: openNodeOf, setUpOwnerInEditor } = editorModule;
const { SIX_ROWS } = sixRowsModule;
const PORT = 5679;
const OUT = `${ROOT}/docs/screenshots`;
const say = (text) => process.stdout.write(`${text}\n`);
const CHROMIUM = findChromium(process.env.CHROMIUM_PATH);

if (!CHROMIUM) {
	say(`No Chromium${process.env.CHROMIUM_PATH ? ` at ${process.env.CHROMIUM_PATH}` : ''}. Install Debian's: bash test/e2e/install-chromium.sh (apt-get install chromium), or set CHROMIUM_PATH.`);
	process.exit(1);
}
await installN8n();
const sandbox = await startSandbox();
const n8n = await N8nInstance.create('screenshots');
await n8n.importCredentials([
	{ id: 'ipSandboxCred001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: SANDBOX.apiKey, baseUrl: SANDBOX.apiUrl } },
	{ id: 'ipWebhookCred001', name: 'Intelliprint webhook (sandbox)', type: 'intelliprintWebhookApi', data: { signingSecret: `whsec_${Buffer.from('sandbox-webhook-signing-secret-32').toString('base64')}` } },
]);
// Two workflows made for the pictures of hints: a live Create with Confirm on, and six rows of which two are refused.
const sheet = `return ${JSON.stringify(SIX_ROWS)}.map((json) => ({ json }));`;
const screenNode = (name, type, typeVersion, position, parameters, extra = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
// The resource mapper as the editor saves it (with its schema, as rows-to-letters has it): without the schema the editor
// fills it in on opening and marks the node's output stale (⚠ "Node parameters have changed").
const savedMapping = (await fs.readJson(`${ROOT}/examples/rows-to-letters.json`)).nodes.find((node) => node.parameters.recipientFields).parameters.recipientFields;
const letter = (name, parameters) => screenNode(name, 'n8n-nodes-intelliprint.intelliprint', 1.2, [440, 0], {
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', recipientFields: savedMapping, ...parameters,
}, { credentials: { intelliprintApi: { id: 'ipSandboxCred001', name: 'Intelliprint sandbox' } }, onError: 'continueErrorOutput' });
const screenWorkflow = (id, name, last) => ({
	id, name, settings: { executionOrder: 'v1' }, active: false, pinData: {},
	nodes: [screenNode('Run now', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}), screenNode('Six rows', 'n8n-nodes-base.code', 2, [220, 0], { jsCode: sheet }), last],
	connections: { 'Run now': { main: [[{ node: 'Six rows', type: 'main', index: 0 }]] }, 'Six rows': { main: [[{ node: last.name, type: 'main', index: 0 }]] } },
});
const screens = [
	screenWorkflow('ipScreenLive0001', 'Live letters, confirmed', letter('Post live letters', { testmode: false, confirmed: true })),
	screenWorkflow('ipScreenRows0001', 'Six rows, two refused', letter('One print job for the rows', { testmode: true, confirmed: false })),
];
for (const workflow of screens) await fs.outputJson(`${n8n.userFolder}/screens/${workflow.id}.json`, workflow);
await n8n.importWorkflows(screens.map((workflow) => `${n8n.userFolder}/screens/${workflow.id}.json`));
await n8n.importWorkflows(['rows-to-letters', 'scheduled-mail-run', 'failure-alert', 'merge-then-send', 'pdf-to-mailing-list', 'template-to-rows', 'approve-before-posting', 'ai-agent-letters'].map((name) => `${ROOT}/examples/${name}.json`));
await n8n.start(PORT);

const browser = await launchBrowser(CHROMIUM);
const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
const base = `http://127.0.0.1:${PORT}`;
const openNode = (name) => openNodeOf(page, name);
/** Opens a parameter's dropdown, waits for an option to show, takes the picture and closes it again. */
async function shotOfDropdown(label, option, name) {
	await page.getByText(label, { exact: true }).first().locator('xpath=ancestor::*[contains(@class,"parameter")][1]').locator('input').first().click();
	await page.getByText(option).first().waitFor();
	await shot(name);
	await page.keyboard.press('Escape');
	await page.keyboard.press('Escape');
}

const shot = async (name) => {
	await page.waitForTimeout(800);
	await page.screenshot({ path: `${OUT}/${name}.png` });
	say(`saved docs/screenshots/${name}.png`);
};

try {
	// First start: create the local owner account through the setup form.
	await setUpOwnerInEditor(page, base, { email: 'owner@example.com', firstName: 'Sam', lastName: 'Sender', password: 'Intelliprint-Screens-1' });

	// The Print Job Create panel.
	await page.goto(`${base}/workflow/ipExamplePdfList`);
	await openNode('Send to everyone on the list');
	await page.getByText('Input Binary Field').first().waitFor();
	await shot('print-job-create');

	// The operations list, as the node's Operation dropdown shows it.
	await shotOfDropdown('Operation', 'Cancel or Delete', 'operations');

	// Letters from rows: Create from content, and the resources (mailing lists among them).
	await page.goto(`${base}/workflow/ipExampleRowsLet`);
	await openNode('One print job for all rows');
	// Create 1.2 maps the rows' columns automatically: the mapping mode, not a Recipient Name field, shows it is ready.
	await page.getByText('Mapping Column Mode').first().waitFor();
	await shot('print-job-from-content');
	await shotOfDropdown('Resource', 'Mailing List Recipient', 'resources');
	// The same workflow on the canvas: the node's error output leads the rows not sent to a branch of their own.
	// By way of another page: the editor keeps a node's panel open when the same workflow is opened again.
	await page.goto(`${base}/home/workflows`);
	await page.goto(`${base}/workflow/ipExampleRowsLet`);
	await page.getByText('Rows not sent').first().waitFor();
	await shot('error-output');
	// Hints: before a run, Confirm on for a live job; after one, the rows not sent and the rerun a mail run without a key risks.
	await page.goto(`${base}/workflow/ipScreenLive0001`);
	await openNode('Post live letters');
	await page.getByText('Confirm is on for a live job').first().waitFor();
	await shot('hint-live-confirm');
	await page.keyboard.press('Escape');
	await page.goto(`${base}/workflow/ipScreenRows0001`);
	await page.getByText('One print job for the rows').first().waitFor();
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	await page.waitForTimeout(4000);
	await shot('error-output-run');
	await openNode('One print job for the rows');
	await page.getByText('2 of 6 rows were not sent').first().waitFor();
	await shot('hints-after-run');
	// The trigger panel with its webhook URLs and setup notice.
	await page.goto(`${base}/workflow/ipExampleAlerts1`);
	await openNode('When mail fails or comes back');
	await page.getByText('Verify Signatures').first().waitFor();
	await page.getByText('Webhook URLs').first().click();
	await shot('trigger');
	// An agent with the node as its tools, and the panel of the tool that posts letters.
	await page.keyboard.press('Escape');
	await page.goto(`${base}/workflow/ipExampleAgent01`);
	await page.getByText('Post a letter').first().waitFor();
	await shot('ai-agent-workflow');
	await openNode('Post a letter');
	await page.getByText('Allow Live Letters').first().waitFor();
	await shot('ai-agent-tool');
	// Approve before posting, run from the editor up to the wait for a decision: the picture shows which steps
	// ran. Then its Approve link is followed, as the approver would, so the run does not stay waiting.
	await page.keyboard.press('Escape');
	await page.goto(`${base}/workflow/ipExampleApprove`);
	await page.getByText('Wait for the decision').first().waitFor();
	const sent = sandbox.notifications.length;
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	for (let waited = 0; sandbox.notifications.length === sent; waited++) {
		if (waited > 60) throw new Error('the approval message was not sent within 60 s');
		await page.waitForTimeout(1000);
	}
	await shot('approval');
	const approve = /^Approve: (\S+)$/m.exec(sandbox.notifications[sent].text)?.[1];
	const answer = await fetch(approve);
	say(`approved from the editor's run: ${answer.status} ${(await answer.text()).slice(0, 120)}`);
} catch (error) {
	await page.screenshot({ path: `${ROOT}/.e2e/screenshot-failure.png` });
	say(`Stopped: ${error.message}\nWhat the browser showed is in .e2e/screenshot-failure.png`);
	process.exitCode = 1;
} finally {
	await browser.close();
	await n8n.stop();
	await sandbox.stop();
}
