import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { byId as locator, createFourLetterJob } from '../../../../helpers/printJobs';

const api = useFakeApi();
const draft = (extra: Record<string, unknown> = {}) => createFourLetterJob(api, extra);

describe('Print Job → Confirm', () => {
	it('confirms a draft: its letters wait to print', async () => {
		const id = await draft();
		const { items } = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: locator(id), output: 'letters' } });
		expect(items.map((i) => i.json.status)).toEqual(['waiting_to_print', 'waiting_to_print', 'waiting_to_print', 'waiting_to_print']);
		expect(api.apiCalls()[0].body).toEqual({ confirmed: 'true' });
	});

	it('refuses clearly when the job is already confirmed, and charges nothing twice', async () => {
		const id = await draft({ confirmed: true });
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'confirm', printJob: locator(id) } });
		expect(error?.message).toBe(`Print job ${id} is already confirmed, so it cannot be confirmed again`);
		expect(api.apiCalls().map((c) => c.method)).toEqual(['POST', 'GET']);
	});
});
