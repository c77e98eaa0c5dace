import { PollContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';
import { beforeEach, describe, expect, it } from 'vitest';

import { IntelliprintStatusTrigger } from '../../../nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node';
import { useFakeApi } from '../../helpers/context';
import { singleNodeWorkflow, testAdditionalData } from '../../helpers/n8n';
import { createFourLetterJob } from '../../helpers/printJobs';

const api = useFakeApi();
const trigger = new IntelliprintStatusTrigger();

/**
 * A poller as n8n runs one: each poll builds the workflow afresh from the static data n8n saved
 * after the previous poll (a JSON round trip, as through the database), so state survives restarts.
 */
function poller(parameters: INodeParameters) {
	let saved: IDataObject = {};
	return async (mode: WorkflowExecuteMode = 'trigger'): Promise<INodeExecutionData[]> => {
		const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprintStatusTrigger', parameters, JSON.parse(JSON.stringify(saved)));
		const context = new PollContext(workflow, node, testAdditionalData(api.credentials()), mode, 'activate');
		const result = await trigger.poll.call(context);
		if (mode !== 'manual') saved = workflow.staticData as IDataObject;
		return result?.[0] ?? [];
	};
}

let letters: string[];
beforeEach(async () => {
	api.fake.prints.jobs.clear();
	const id = await createFourLetterJob(api, { confirmed: true });
	letters = api.fake.prints.get(id).letters.map((l) => l.id);
	api.fake.prints.setLetterStatus(letters[0], 'returned');
});

describe('Intelliprint Status Trigger (polling)', () => {
	it('emits each letter once when it newly reaches a watched status, across restarts', async () => {
		const poll = poller({ statuses: ['returned', 'failed_wrong_address'] });
		expect(await poll()).toEqual([]); // first activation: the letter already returned is history

		api.fake.prints.setLetterStatus(letters[1], 'printing');
		api.fake.prints.setLetterStatus(letters[2], 'returned', { returned: { date: 1795300000, reason: 'Gone away', acknowledged: false } });
		const second = await poll();
		expect(second.map((i) => i.json.id)).toEqual([letters[2]]);
		expect(second[0].json).toMatchObject({ status: 'returned', print_id: expect.stringMatching(/^print_/), name: expect.any(String) });

		expect(await poll()).toEqual([]);

		api.fake.prints.setLetterStatus(letters[1], 'failed_wrong_address');
		api.fake.prints.setLetterStatus(letters[3], 'sent');
		expect((await poll()).map((i) => i.json.id)).toEqual([letters[1]]);
		expect(await poll()).toEqual([]);

		// Asked with the status filter on the API side, all pages.
		expect(api.apiCalls().at(-1)?.query).toMatchObject({ 'letters.status': 'returned,failed_wrong_address', testmode: 'false', limit: '1000' });
	});

	it('can emit the letters already in the statuses on the first poll', async () => {
		const poll = poller({ statuses: ['returned'], emitExisting: true });
		expect((await poll()).map((i) => i.json.id)).toEqual([letters[0]]);
		expect(await poll()).toEqual([]);
	});

	it('gives a sample in manual mode without touching the poll state', async () => {
		const poll = poller({ statuses: ['returned'] });
		expect((await poll('manual')).map((i) => i.json.id)).toEqual([letters[0]]);
		expect(await poll()).toEqual([]);
		api.fake.prints.setLetterStatus(letters[1], 'returned');
		expect((await poll()).map((i) => i.json.id)).toEqual([letters[1]]);
	});

	it('watches test jobs when asked', async () => {
		const poll = poller({ statuses: ['returned'], testmode: true, emitExisting: true });
		expect(await poll()).toEqual([]);
		expect(api.apiCalls().at(-1)?.query).toMatchObject({ testmode: 'true' });
	});
});

describe('the row a letter came from (Print Job → Create stores it on the job)', () => {
	const mailRun = (rowId: string) => ({
		resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom: 'allItems', variables: 'none', testmode: false, confirmed: true,
		options: { rowId },
	});
	const rows = ['INV-1', 'INV-2', 'INV-3'].map((invoiceId, i) => ({ json: { invoiceId, name: `Row ${i + 1}`, address: `${i + 1} High Street\nLeeds`, postcode: 'LS1 4AP' } }));

	it("a mail run's returned letter names its row's place and Row ID, with its recipient", async () => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: mailRun('={{ $json.invoiceId }}'), items: rows });
		const job = api.fake.prints.get(String(items[0].json.id));
		expect(job.metadata).toMatchObject({ n8n_rows: '1-3', n8n_ids: '["INV-1","INV-2","INV-3"]', n8n_addr: expect.stringMatching(/^[\w-]{18}$/) });
		const poll = poller({ statuses: ['returned'] });
		await poll();
		api.fake.prints.setLetterStatus(job.letters[1].id, 'returned', { returned: { date: 1795300000, reason: 'Gone away', acknowledged: false } });
		const [letter] = await poll();
		expect(letter.json).toMatchObject({ id: job.letters[1].id, name: 'Row 2', row: 2, row_id: 'INV-2', sent_key: null, rows: [{ row: 2, row_id: 'INV-2', sent_key: null }], returned: { reason: 'Gone away' }, print_metadata: { n8n_rows: '1-3' } });
	});

	it("without a Row ID the place alone; a PDF split into letters is its one row's; a job not made from rows names none", async () => {
		const { items } = await api.run({ typeVersion: 1.2, parameters: mailRun(''), items: rows });
		const job = api.fake.prints.get(String(items[0].json.id));
		const poll = poller({ statuses: ['returned'], emitExisting: true });
		api.fake.prints.setLetterStatus(job.letters[2].id, 'returned');
		const emitted = await poll();
		const fromRows = emitted.find((item) => item.json.id === job.letters[2].id)!;
		expect(fromRows.json).toMatchObject({ row: 3, row_id: null, rows: [{ row: 3, row_id: null }] });
		const fromPdf = emitted.find((item) => item.json.id === letters[0])!;
		expect(fromPdf.json).toMatchObject({ row: 1, row_id: null });
		const [elsewhere] = api.fake.prints.seed(1, { confirmed: true, testmode: false });
		api.fake.prints.setLetterStatus(elsewhere.letters[0].id, 'returned');
		const [other] = await poll();
		expect(other.json).toMatchObject({ id: elsewhere.letters[0].id, row: null, row_id: null, row_note: expect.stringContaining('names no row') });
	});
});
