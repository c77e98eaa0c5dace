import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { backgroundById, createBackground } from '../../../../helpers/printJobs';

const api = useFakeApi();

describe('Background → Delete', () => {
	it('returns the deletion result, and the background is gone', async () => {
		const id = await createBackground(api);
		const { items } = await api.run({ parameters: { resource: 'background', operation: 'delete', background: backgroundById(id) } });
		expect(items).toEqual([{ json: { id, object: 'background', deleted: true }, pairedItem: { item: 0 } }]);
		const again = await api.run({ parameters: { resource: 'background', operation: 'delete', background: backgroundById(id) } });
		expect(again.error?.httpCode).toBe('404');
	});
});
