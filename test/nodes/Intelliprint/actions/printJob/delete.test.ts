import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { byId as locator, createFourLetterJob } from '../../../../helpers/printJobs';

const api = useFakeApi();
const draft = (extra: Record<string, unknown> = {}) => createFourLetterJob(api, extra);

describe('Print Job → Cancel or Delete', () => {
	it('deletes a draft', async () => {
		const id = await draft();
		const { items } = await api.run({ parameters: { resource: 'printJob', operation: 'delete', printJob: locator(id) } });
		expect(items[0].json).toEqual({ id, object: 'print', deleted: true });
		const after = await api.run({ parameters: { resource: 'printJob', operation: 'get', printJob: locator(id) } });
		expect(after.error?.httpCode).toBe('404');
	});

	it('cancels the waiting letters of a confirmed job and returns the job', async () => {
		const id = await draft({ confirmed: true });
		const [first] = api.fake.prints.get(id).letters;
		api.fake.prints.setLetterStatus(first.id, 'printing');
		const { items } = await api.run({ parameters: { resource: 'printJob', operation: 'delete', printJob: locator(id), output: 'letters' } });
		expect(items.map((i) => i.json.status)).toEqual(['printing', 'cancelled', 'cancelled', 'cancelled']);
		expect(items[1].json.cost_gbp).toBe(0);
	});
});
