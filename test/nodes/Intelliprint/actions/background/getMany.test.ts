import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { createBackground } from '../../../../helpers/printJobs';

const api = useFakeApi();

describe('Background → Get Many', () => {
	it('lists all, up to a limit, or one team, with previews when asked', async () => {
		const sales = await createBackground(api, 'Sales', 'team_sales');
		await createBackground(api, 'Ops A', 'team_ops');
		await createBackground(api, 'Ops B', 'team_ops');

		const all = await api.run({ parameters: { resource: 'background', operation: 'getMany', returnAll: true } });
		expect(all.items.map((i) => i.json.name)).toEqual(['Ops B', 'Ops A', 'Sales']);
		// The API's UNIX seconds, and the same moment as a date a person can read.
		const { created, created_at } = all.items[0].json;
		expect(typeof created).toBe('number');
		expect(created_at).toBe(new Date(Number(created) * 1000).toISOString());

		const limited = await api.run({ parameters: { resource: 'background', operation: 'getMany', returnAll: false, limit: 2 } });
		expect(limited.items).toHaveLength(2);

		const team = await api.run({ parameters: { resource: 'background', operation: 'getMany', returnAll: true, filters: { team: 'team_sales' }, downloadPreview: true } });
		expect(team.items.map((i) => i.json.id)).toEqual([sales]);
		expect(team.items[0].binary?.preview.mimeType).toBe('image/png');
		expect(api.apiCalls().at(-1)?.query).toMatchObject({ team: 'team_sales' });
	});
});
