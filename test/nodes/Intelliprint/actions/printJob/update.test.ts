import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { byId as locator, createFourLetterJob } from '../../../../helpers/printJobs';

const api = useFakeApi();
const draft = (extra: Record<string, unknown> = {}) => createFourLetterJob(api, extra);

describe('Print Job → Update', () => {
	it('changes a draft and sends only the fields given', async () => {
		const id = await draft();
		const { items } = await api.run({
			parameters: { resource: 'printJob', operation: 'update', printJob: locator(id), simplify: false, updateFields: { reference: 'Renamed', postage: { values: { service: 'uk_first_class', idealEnvelope: 'c5' } } } },
		});
		expect(items[0].json).toMatchObject({ reference: 'Renamed', postage: { service: 'uk_first_class' } });
		const [call] = api.apiCalls();
		expect(call).toMatchObject({ method: 'POST', path: `/v1/prints/${id}` });
		expect(call.body).toEqual({ reference: 'Renamed', postage: { service: 'uk_first_class', ideal_envelope: 'c5' } });
	});

	it('refuses to send an empty update', async () => {
		const id = await draft();
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'update', printJob: locator(id), updateFields: {} } });
		expect(error?.message).toBe('Nothing to update');
	});

	it('explains that a confirmed job cannot be updated', async () => {
		const id = await draft({ confirmed: true });
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: 'update', printJob: locator(id), updateFields: { reference: 'x' } } });
		expect(error?.message).toBe(`Print job ${id} is already confirmed, so it cannot be updated`);
		expect(error?.description).toContain('Cancel or Delete');
	});
});
