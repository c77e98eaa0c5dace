import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { backgroundById, createBackground } from '../../../../helpers/printJobs';

const api = useFakeApi();

describe('Background → Update', () => {
	it('sends name and team as JSON with PATCH', async () => {
		const id = await createBackground(api);
		const { items } = await api.run({ parameters: { resource: 'background', operation: 'update', background: backgroundById(id), updateFields: { name: 'Renamed', team: 'team_b' } } });
		expect(items[0].json).toMatchObject({ id, name: 'Renamed', team: 'team_b' });
		const [call] = api.apiCalls();
		expect(call).toMatchObject({ method: 'PATCH', path: `/v1/backgrounds/${id}`, contentType: 'application/json' });
		expect(JSON.parse(call.raw!)).toEqual({ name: 'Renamed', team: 'team_b' });
	});

	it('refuses an empty update', async () => {
		const id = await createBackground(api);
		const { error } = await api.run({ parameters: { resource: 'background', operation: 'update', background: backgroundById(id), updateFields: {} } });
		expect(error?.message).toBe('Nothing to update');
	});
});
