import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { letterRow } from '../../nodes/Intelliprint/results/letterRow';
import type { PrintJob } from '../../nodes/Intelliprint/results/output';
import { overdueInvoice, overdueInvoices, publishSheet, SANDBOX, startSandbox, type OverdueInvoice } from '../fake-api/sandbox';
import type { FakeIntelliprint } from '../fake-api/server';
import { N8nInstance, ROOT, type ExecutionResult, type RunItem } from './n8n';
import { suiteN8n } from './server';

/** This file's own sandbox account on the suite's shared n8n (see startSandbox). */
const KEY = 'sandbox_key_action_node';

const credentials = [
	{ id: 'ipSandboxCred001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: KEY, baseUrl: SANDBOX.apiUrl, rateLimitRequests: 100, rateLimitWindowSeconds: 60 } },
	{ id: 'ipWrongKeyCred01', name: 'Intelliprint wrong key', type: 'intelliprintApi', data: { apiKey: 'wrong_key', baseUrl: SANDBOX.apiUrl } },
];
const workflows = ['lifecycle', 'background', 'mailing-list', 'sources-to-recipients', 'wrong-key', 'bad-parameter', 'continue-on-fail'].map((name) => `${ROOT}/test/e2e/workflows/${name}.json`);
const examples = ['rows-to-letters', 'scheduled-mail-run', 'merge-then-send', 'pdf-to-mailing-list', 'template-to-rows'].map((name) => `${ROOT}/examples/${name}.json`);

let fake: FakeIntelliprint;
const n8n = suiteN8n('action-node');
beforeAll(async () => {
	fake = await startSandbox(undefined, KEY);
	await n8n.importCredentials(credentials);
	await n8n.importWorkflows([...workflows, ...examples]);
});
afterAll(async () => fake?.stop());

const node = (result: ExecutionResult | undefined, name: string) => N8nInstance.node(result, name);

/** The scheduled mail run's Intelliprint node and its summary. */
const SEND = 'Send the rows not sent yet';
const SUMMARY = 'Letters sent now and already sent';

/** Each letter item is paired with the sheet's rows it carried, and each of those rows is its customer's. */
function expectPairedWithOwnRow(items: RunItem[], sheet: OverdueInvoice[]): void {
	for (const item of items) {
		const paired = (item as RunItem & { pairedItem?: { item: number } | Array<{ item: number }> }).pairedItem;
		const rows = (Array.isArray(paired) ? paired : [paired]).map((pair) => sheet[pair!.item]);
		expect(rows.map((row) => row?.name)).toEqual(rows.map(() => item.json.name));
	}
}

describe('the packed package inside real n8n (n8n execute)', () => {
	it('creates a job from a 100-letter PDF split on "Dear" without the EMAIL ONLY letters, confirms, lists and cancels it', async () => {
		const { result, exitCode, output } = await n8n.execute('ipE2eLifecycle01');
		expect(exitCode, output).toBe(0);
		const [created] = node(result, 'Create').items;
		expect(created.json).toMatchObject({ reference: 'E2E statements', testmode: true, confirmed: false, letter_count: 90 });
		expect(node(result, 'Confirm').items[0].json).toMatchObject({ id: created.json.id, confirmed: true, letter_statuses: { waiting_to_print: 90 } });
		expect(node(result, 'List').items.map((i) => i.json.id)).toEqual([created.json.id]);
		const cancelled = node(result, 'Cancel').items;
		expect(cancelled).toHaveLength(90);
		expect(new Set(cancelled.map((i) => i.json.status))).toEqual(new Set(['cancelled']));
		expect(fake.prints.get(String(created.json.id)).letters.every((l) => l.status === 'cancelled')).toBe(true);
	});

	it('uploads a background with its preview (files on disk) and prints a letter with it', async () => {
		const { result, exitCode, output } = await n8n.execute('ipE2eBackground1');
		expect(exitCode, output).toBe(0);
		const [background] = node(result, 'Create background').items;
		expect(background.json).toMatchObject({ object: 'background', name: 'E2E letterhead' });
		expect(background.binary?.preview).toMatchObject({ mimeType: 'image/png' });
		expect(node(result, 'Create with background').items[0].json.background).toEqual({ first_page: background.json.id, other_pages: null });
	});

	it('runs the "merge then send" example: three PDFs merged into one letter', async () => {
		const { result, exitCode, output } = await n8n.execute('ipExampleMerge01');
		expect(exitCode, output).toBe(0);
		const [merged] = node(result, 'Merge into one PDF').items;
		expect(merged.binary?.data).toMatchObject({ fileName: 'welcome-pack.pdf', mimeType: 'application/pdf' });
		const letters = node(result, 'Send as one letter').items;
		expect(letters).toHaveLength(1);
		expect(letters[0].json).toMatchObject({ pages: 4, sheets: 2, name: 'Customer 001' });
	});

	it('runs the "scheduled mail run" example on a growing sheet: 100 letters on day 1, on day 2 only the 20 new rows, each invoice one letter', async () => {
		const day1 = overdueInvoices();
		publishSheet(fake, day1);
		const first = await n8n.execute('ipExampleMailRun');
		expect(first.exitCode, first.output).toBe(0);
		const sent1 = node(first.result, SEND).items;
		expect(sent1).toHaveLength(100);
		expect(sent1.filter((item) => item.json.already_sent === true)).toEqual([]);
		expectPairedWithOwnRow(sent1, day1);
		const [summary1] = node(first.result, SUMMARY).items;
		expect(summary1.json).toMatchObject({ letters_sent_now: 100, already_sent: 0, address_changed: [] });
		expect(summary1.json.print_jobs).toHaveLength(1);
		// Summed in whole pence: no float noise over 100 letters.
		expect(Number(summary1.json.cost_after_tax_gbp)).toBeGreaterThan(50);
		expect(String(summary1.json.cost_after_tax_gbp)).toMatch(/^\d+(\.\d{1,2})?$/);

		// The next day the sheet has grown: 20 new invoices on top, 10 paid ones gone, 5 rows moved, one address corrected.
		const kept = day1.filter((_, at) => at % 10 !== 3);
		const moved = [...kept.slice(5, 10), ...kept.slice(0, 5), ...kept.slice(10)];
		const corrected = moved.map((row) => (row.invoice === 'INV-3050' ? { ...row, address: '50 High Street\nHeadingley' } : row));
		const added = overdueInvoices(3101, 20);
		const day2 = [...added, ...corrected];
		publishSheet(fake, day2);
		const second = await n8n.execute('ipExampleMailRun');
		expect(second.exitCode, second.output).toBe(0);
		const sent2 = node(second.result, SEND).items;
		expect(node(second.result, 'Rows not sent').items).toEqual([]);
		expectPairedWithOwnRow(sent2, day2);
		const sentNow = sent2.filter((item) => item.json.already_sent !== true);
		expect(sentNow.map((item) => item.json.name).sort()).toEqual(added.map((row) => row.name).sort());
		// Every other row of the sheet comes out once, already sent; the corrected one is not sent to its new address.
		const before = sent2.filter((item) => item.json.already_sent === true);
		expect(before.map((item) => item.json.name).sort()).toEqual(corrected.map((row) => row.name).sort());
		expect(before.filter((item) => item.json.address_changed === true).map((item) => item.json.name)).toEqual([overdueInvoice(3050).name]);
		expect(node(second.result, SUMMARY).items[0].json).toMatchObject({ letters_sent_now: 20, already_sent: 90, address_changed: [{ invoice: 'INV-3050', name: overdueInvoice(3050).name }] });

		// Across both days, in the fake: every invoice of the sheet has exactly one letter, to the address it had when sent.
		const letters = new Map<string, Array<{ name: string | null; line: string | null }>>();
		for (const job of fake.createdPrintJobs().filter((one) => one.reference === 'n8n mail run')) {
			for (const letter of job.letters) {
				const invoice = String(letterRow(job as unknown as PrintJob, letter.id).row_id);
				if (invoice.startsWith('INV-3')) letters.set(invoice, [...(letters.get(invoice) ?? []), letter.address]);
			}
		}
		expect([...letters.keys()].sort()).toEqual([...day1, ...added].map((row) => row.invoice).sort());
		expect([...letters].filter(([, sent]) => sent.length !== 1)).toEqual([]);
		expect(letters.get('INV-3050')?.[0]).toMatchObject({ name: overdueInvoice(3050).name, line: overdueInvoice(3050).address });
	});

	it('sends every source to every kind of recipient as node version 1.2 offers them, each on the wire as the SDK sends it', async () => {
		fake.resetRecording();
		const { result, exitCode, output } = await n8n.execute('ipE2eCombos0001');
		expect(exitCode, output).toBe(0);
		const names = (step: string) => node(result, step).items.map((item) => item.json.name);
		const rows = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'];
		expect(names('PDF to all rows')).toEqual(rows);
		expect(names('PDF to each row')).toEqual(rows);
		expect(names('Link to each row as postcards')).toEqual(rows);
		expect(names('Template to all rows')).toEqual(rows);
		expect(names('PDF to the list')).toHaveLength(25);
		expect(names('Text to the list as postcards')).toHaveLength(25);
		const creates = fake.requests.filter((call) => call.method === 'POST' && call.path === '/v1/prints').map((call) => call.body);
		// 1 + 3 + 3 + 1 + 1 + 1 print jobs, each with exactly one source and one kind of recipients.
		expect(creates).toHaveLength(10);
		for (const body of creates) {
			expect(['file', 'template', 'content'].filter((key) => key in body)).toHaveLength(1);
			expect(['recipients', 'mailing_list'].filter((key) => key in body)).toHaveLength(1);
		}
		expect(creates.filter((body) => body.template === SANDBOX.templates.reminder)).toHaveLength(1);
		expect(creates.filter((body) => body.type === 'postcard')).toHaveLength(4);
		expect(creates.filter((body) => body.mailing_list === SANDBOX.mailingList)).toHaveLength(2);
	});

	it('runs the "PDF to a mailing list" example: the same PDF to each of the 25 members, sent once a month', async () => {
		const { result, exitCode, output } = await n8n.execute('ipExamplePdfList');
		expect(exitCode, output).toBe(0);
		const [summary] = node(result, 'Summary of letters and cost').items;
		expect(summary.json).toMatchObject({ letters: 25, already_sent: false });
		const job = fake.prints.get(String(summary.json.print_job));
		const members = fake.mailingLists.recipients(SANDBOX.mailingList).map((member) => member.address.name);
		expect(job.letters.map((letter) => letter.address.name).sort()).toEqual(members.sort());
		expect(new Set(job.letters.map((letter) => letter.pages))).toEqual(new Set([1]));
		const again = await n8n.execute('ipExamplePdfList');
		expect(node(again.result, 'Summary of letters and cost').items[0].json).toMatchObject({ print_job: summary.json.print_job, already_sent: true });
	});

	it('runs the "template to rows" example: one print job of 20 reminders filled in from each row', async () => {
		fake.resetRecording();
		const { result, exitCode, output } = await n8n.execute('ipExampleTmplRow');
		expect(exitCode, output).toBe(0);
		const [summary] = node(result, 'Summary of letters and cost').items;
		expect(summary.json).toMatchObject({ letters: 20, already_sent: false });
		const request = fake.requests.find((call) => call.method === 'POST' && call.path === '/v1/prints' && call.body.template === SANDBOX.templates.reminder)!;
		expect(request.body.recipients).toHaveLength(20);
		expect((request.body.recipients as Array<{ variables: object }>)[6].variables).toEqual({ first_name: 'Customer 7', amount_due: '100.00' });
	});

	it('runs the "rows to letters" example: 100 rows become one test print job of 100 letters, no PDF needed', async () => {
		const { result, exitCode, output } = await n8n.execute('ipExampleRowsLet');
		expect(exitCode, output).toBe(0);
		const [summary] = node(result, 'Summary of letters and cost').items;
		expect(summary.json).toMatchObject({ letters: 100, already_sent: false });
		expect(Number(summary.json.cost_after_tax_gbp)).toBeGreaterThan(50);
		const job = fake.prints.get(String(summary.json.print_job));
		expect(job.letters.map((letter) => letter.address.name)).toContain('Customer 042');
		// Run again the same day: the sent key finds the job, and nothing is posted twice.
		const again = await n8n.execute('ipExampleRowsLet');
		expect(node(again.result, 'Summary of letters and cost').items[0].json).toMatchObject({ print_job: summary.json.print_job, already_sent: true });
	});

	it('makes a mailing list from rows, sends a letter to everyone on it, and lists its recipients', async () => {
		const { result, exitCode, output } = await n8n.execute('ipE2eMailList01');
		expect(exitCode, output).toBe(0);
		const [list] = node(result, 'Create list').items;
		expect(list.json).toMatchObject({ object: 'mailing_list', name: 'E2E members', recipients: 3 });
		const letters = node(result, 'Send to list').items;
		expect(letters.map((letter) => letter.json.name).sort()).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
		const recipients = node(result, 'Recipients').items;
		expect(recipients.map((recipient) => (recipient.json.address as { name: string }).name)).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
	});

	it('fails with the message for a wrong API key', async () => {
		const { result, exitCode } = await n8n.execute('ipE2eWrongKey001');
		expect(exitCode).toBe(1);
		expect(node(result, 'List').error?.message).toBe('Intelliprint refused the API key');
		expect(result?.data.resultData.error?.message).toBe('Intelliprint refused the API key');
	});

	it('fails with the message for a parameter the API refuses', async () => {
		const { result, exitCode } = await n8n.execute('ipE2eBadParam001');
		expect(exitCode).toBe(1);
		expect(node(result, 'Create').error?.message).toBe('Intelliprint refused the value given for "background.first_page"');
		expect(node(result, 'Create').error?.description).toContain('No such background: bg_doesnotexist1.');
	});

	it('turns failed items into error items with Continue On Fail', async () => {
		const { result, exitCode, output } = await n8n.execute('ipE2eContinue001');
		expect(exitCode, output).toBe(0);
		expect(node(result, 'Get').items.map((i) => i.json.error)).toEqual([
			'Intelliprint has nothing with that ID',
			'"not-a-print-id" is not a valid print job ID',
		]);
	});
});
