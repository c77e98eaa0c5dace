import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { backgroundById, createBackground } from '../../../../helpers/printJobs';

const api = useFakeApi();

describe('Background → Get', () => {
	it('gets a background by ID or from the list', async () => {
		const id = await createBackground(api, 'Invoices letterhead');
		for (const mode of ['id', 'list']) {
			const { items } = await api.run({ parameters: { resource: 'background', operation: 'get', background: { __rl: true, mode, value: id } } });
			expect(items[0].json).toMatchObject({ id, name: 'Invoices letterhead' });
		}
	});

	it('says plainly when the background does not exist', async () => {
		const { error } = await api.run({ parameters: { resource: 'background', operation: 'get', background: backgroundById('bg_unknown1') } });
		expect(error?.message).toBe('Intelliprint has nothing with that ID');
		expect(error?.description).toContain('backgrounds start with "bg_"');
	});
});
