import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { byId as locator, createFourLetterJob } from '../../../../helpers/printJobs';

const api = useFakeApi();
const draft = (extra: Record<string, unknown> = {}) => createFourLetterJob(api, extra);

describe('Print Job → Get', () => {
	it('gets a job by ID, as the job or one item per letter', async () => {
		const id = await draft();
		const job = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: locator(id), simplify: false } });
		expect(job.items[0].json).toMatchObject({ id, object: 'print', letters: expect.any(Array) });
		const letters = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: locator(id), output: 'letters', simplify: false } });
		expect(letters.items).toHaveLength(4);
		expect(letters.items[0].json).toMatchObject({ object: 'letter', print_id: id, print_reference: 'four.pdf' });
		expect(api.apiCalls().map((c) => `${c.method} ${c.path}`)).toEqual([`GET /v1/prints/${id}`, `GET /v1/prints/${id}`]);
	});

	it('accepts a job picked from the list', async () => {
		const id = await draft();
		const { items } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: { __rl: true, mode: 'list', value: id } } });
		expect(items[0].json.id).toBe(id);
	});

	it('refuses an ID that is not a print job ID before calling the API', async () => {
		// Typed in: n8n's own parameter check stops the workflow with the locator's message.
		await expect(api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: locator('bg_123') } })).rejects.toThrow(
			'A print job ID starts with "print_"',
		);
		// From an expression: the node checks the resolved value.
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: locator('={{ "bg_" + 123 }}') } });
		expect(error?.message).toBe('"bg_123" is not a valid print job ID');
		expect(api.apiCalls()).toHaveLength(0);
	});

	it('says when the job does not exist', async () => {
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: locator('print_doesnotexist') } });
		expect(error?.message).toBe('Intelliprint has nothing with that ID');
		expect(error?.description).toContain('Code: not_found');
		expect(error?.httpCode).toBe('404');
	});
});
