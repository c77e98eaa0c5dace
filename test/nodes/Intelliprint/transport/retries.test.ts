import { beforeAll, describe, expect, it } from 'vitest';

import { CLOSED_API_URL } from '../../../fake-api/server';
import { useFakeApi } from '../../../helpers/context';
import { simplePdf } from '../../../helpers/pdfs';
import { byId, createFourLetterJob } from '../../../helpers/printJobs';

const api = useFakeApi();
let pdf: Buffer;
beforeAll(async () => {
	pdf = await simplePdf(1);
});
const create = () => api.run({ parameters: { resource: 'printJob', operation: 'create', binaryPropertyName: 'data' }, items: [{ files: { data: { data: pdf, fileName: 'a.pdf' } } }] });
const jobCount = () => api.fake.prints.jobs.size;

describe('retries: reads are repeated, a create never when the API may have acted', () => {
	it('repeats a read after server faults and dropped connections', async () => {
		const id = await createFourLetterJob(api);
		api.fake.faults.push({ method: 'GET', status: 502, times: 1 }, { method: 'GET', drop: true, times: 1 });
		const { items, error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: byId(id) } });
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(id);
		expect(api.apiCalls().map((c) => c.status)).toEqual([502, -1, 200]);
	});

	it('gives up on a read after three repeats', async () => {
		api.fake.faults.push({ method: 'GET', status: 503, times: 10 });
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: byId('print_x1') } });
		expect(error?.message).toBe('Intelliprint had an internal fault');
		expect(api.apiCalls()).toHaveLength(4);
	});

	it('does not repeat a create that failed with a server fault after the API acted', async () => {
		const before = jobCount();
		api.fake.faults.push({ method: 'POST', status: 500, afterActing: true, times: 1 });
		const { error } = await create();
		expect(api.apiCalls()).toHaveLength(1);
		expect(jobCount()).toBe(before + 1);
		expect(error?.description).toContain('Intelliprint may have acted on the request');
		expect(error?.description).toContain('Get Many with the Reference filter');
		expect(error?.context?.mayHaveActed).toBe(true);
	});

	it('does not repeat a create whose connection dropped before the answer', async () => {
		const before = jobCount();
		api.fake.faults.push({ method: 'POST', drop: true, afterActing: true, times: 1 });
		const { error } = await create();
		expect(api.apiCalls()).toHaveLength(1);
		expect(jobCount()).toBe(before + 1);
		expect(error?.message).toBe(`The connection to Intelliprint at ${api.fake.url} was cut before the answer arrived`);
		expect(error?.description).toContain('may already have acted on it');
	});

	it('repeats a create refused with 429, which the API did not act on', async () => {
		const before = jobCount();
		api.fake.faults.push({ method: 'POST', status: 429, headers: { 'retry-after': '0' }, times: 2 });
		const { items, error } = await create();
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(api.apiCalls().map((c) => c.status)).toEqual([429, 429, 200]);
		expect(jobCount()).toBe(before + 1);
	});

	it('says plainly when the host cannot be reached', async () => {
		const url = CLOSED_API_URL;
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: byId('print_x1') }, credentials: { baseUrl: url } });
		expect(error?.message).toBe(`Intelliprint at ${url} refused the connection`);
		expect(error?.context?.wireFault).toBe('refused');
		expect(error?.description).toContain('Base URL');
	});
});
