import { Webhook } from 'standardwebhooks';
import { sleep } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { useFakeApi } from '../../helpers/context';
import { TriggerServer } from '../../helpers/webhookServer';

/**
 * Add Letter Details (nodes/IntelliprintTrigger/letterDetails.ts): a signed failure event for a letter of a mail run
 * made by Print Job → Create reaches the workflow with its recipient and its row; one read per print job; a job that
 * cannot be read still starts the workflow with the event, saying why.
 */
const api = useFakeApi({ rateLimit: false });
const secret = `whsec_${Buffer.from('intelliprint-test-signing-key-32b').toString('base64')}`;
const signer = new Webhook(secret);
let counter = 0;
let server: TriggerServer;
beforeAll(async () => {
	server = await new TriggerServer({ event: '*', verifySignatures: true, letterDetails: true }, secret).start();
	server.apiCredentials = api.credentials();
});
afterAll(async () => server.stop());

/** Delivers a signed event; the answer goes out before the run reads the job, so this waits for the run to end. */
async function deliver(event: object): Promise<number> {
	const runs = server.started.length;
	const body = JSON.stringify(event);
	const id = `msg_details_${++counter}`;
	const at = new Date();
	const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signer.sign(id, at, body) };
	const { status } = await fetch(server.url, { method: 'POST', body, headers });
	while (status === 200 && server.started.length === runs) await sleep(10);
	return status;
}

const mailRun = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', variables: 'none', testmode: true, options: { rowId: '={{ $json.invoiceId }}' } };
const rows = ['INV-7', 'INV-8', 'INV-9'].map((invoiceId, i) => ({ json: { invoiceId, name: `Customer ${i + 1}`, address: `${i + 1} Mill Lane\nYork`, postcode: 'YO1 7HH' } }));

describe('Intelliprint Trigger → Add Letter Details', () => {
	it("a letter of a mail run: the event as sent, with the letter's recipient, its job's reference and metadata, and its row", async () => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: mailRun, items: rows });
		const job = api.fake.prints.get(String(items[0].json.id));
		const reads = () => api.apiCalls().filter((call) => call.method === 'GET' && call.path.endsWith(`/prints/${job.id}`)).length;
		const before = reads();
		const event = { type: 'mail.failed', id: job.letters[1].id, print_id: job.id, reference: job.reference, status: 'failed_wrong_address', testmode: true };
		expect(await deliver(event)).toBe(200);
		const [item] = server.started.at(-1)!;
		expect(item.json).toMatchObject({
			...event,
			recipient: { name: 'Customer 2', line: '2 Mill Lane\nYork', postcode: 'YO1 7HH', country: 'GB' },
			print_reference: job.reference,
			print_metadata: { n8n_rows: '1-3', n8n_ids: '["INV-7","INV-8","INV-9"]' },
			row: 2,
			row_id: 'INV-8',
		});
		// Another letter of the same job a moment later: its own row, and no second read of the job.
		expect(await deliver({ ...event, id: job.letters[2].id })).toBe(200);
		expect(server.started.at(-1)![0].json).toMatchObject({ recipient: { name: 'Customer 3' }, row: 3, row_id: 'INV-9' });
		expect(reads() - before).toBe(1);
	});

	it("a mailing list's letter: the list recipient with its address, and its variables (the row's own fields)", async () => {
		const members = ['INV-21', 'INV-22'].map((invoiceId, i) => ({ address: { name: `Member ${i + 1}`, line: `${i + 1} Park Road\nBath`, postcode: 'BA1 1AA', country: 'GB' }, variables: { invoiceId } }));
		const list = api.fake.mailingLists.create({ name: 'Members', recipients: members });
		const toList = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear member</p>', recipientsFrom: 'mailingList', mailingList: { __rl: true, mode: 'id', value: list.id }, testmode: true };
		const { items } = await api.run({ typeVersion: 1.2, parameters: toList, items: [{ json: {} }] });
		const job = api.fake.prints.get(String(items[0].json.id));
		expect(job.metadata).toMatchObject({ n8n_mailing_list: list.id });
		const letter = job.letters.find((one) => one.address.name === 'Member 2')!;
		expect(await deliver({ type: 'mail.failed', id: letter.id, print_id: job.id })).toBe(200);
		const listed = [...api.fake.mailingLists.lists.get(list.id)!.recipients.values()].find((recipient) => recipient.address.name === 'Member 2')!;
		expect(server.started.at(-1)![0].json).toMatchObject({
			recipient: { name: 'Member 2' }, mailing_list_id: list.id, mailing_list_recipient_id: listed.id, recipient_variables: { invoiceId: 'INV-22' }, row: null,
		});
	});

	it('a print job that cannot be read: the workflow still starts with the event, and says why the rest is missing', async () => {
		const event = { type: 'letter.updated', id: 'ltr_gone', print_id: 'print_doesnotexist', status: 'returned', returned: { date: 1795300000, reason: 'Gone away' } };
		expect(await deliver(event)).toBe(200);
		const [item] = server.started.at(-1)!;
		expect(item.json).toMatchObject({ ...event, details_note: expect.stringMatching(/^Print job print_doesnotexist could not be read, so only the event is here: .*The next event of this job reads it again\.$/) });
		// The same fields as a readable job's, null: an alert's expressions still work.
		expect(item.json).toMatchObject({ recipient: null, print_reference: null, row: null, row_id: null, sent_key: null, rows: [], row_ids: [] });
	});

	it('a print job that could not be read is read again for its next event, which then names its row', async () => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: mailRun, items: rows });
		const job = api.fake.prints.get(String(items[0].json.id));
		// Four answers of 500: the read and its three repeats.
		api.fake.faults.push({ method: 'GET', path: new RegExp(`/prints/${job.id}$`), status: 500, times: 4, error: { type: 'internal_error', code: 'internal_error', message: 'Down.' } });
		const event = { type: 'mail.failed', id: job.letters[0].id, print_id: job.id, status: 'failed_wrong_address', testmode: true };
		expect(await deliver(event)).toBe(200);
		expect(server.started.at(-1)![0].json).toMatchObject({ row: null, details_note: expect.stringContaining('could not be read') });
		expect(await deliver({ ...event, id: job.letters[1].id })).toBe(200);
		expect(server.started.at(-1)![0].json).toMatchObject({ row: 2, row_id: 'INV-8', recipient: { name: 'Customer 2' } });
		expect(server.started.at(-1)![0].json.details_note).toBeUndefined();
	});
});
