import { LoadOptionsContext } from 'n8n-core';
import { describe, expect, it } from 'vitest';

import { searchBackgrounds, searchPrintJobs } from '../../../../nodes/Intelliprint/methods/listSearch';
import { useFakeApi } from '../../../helpers/context';
import { singleNodeWorkflow, testAdditionalData } from '../../../helpers/n8n';
import { createBackground } from '../../../helpers/printJobs';

const api = useFakeApi();

function context() {
	const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprint', { resource: 'printJob', operation: 'get' });
	return new LoadOptionsContext(workflow, node, testAdditionalData(api.credentials()), 'parameters.printJob');
}

describe('print job list search', () => {
	it('pages through live jobs, then test jobs, and matches reference or ID', async () => {
		api.fake.prints.seed(150, { reference: 'Invoices' });
		const [testJob] = api.fake.prints.seed(1, { testmode: true, reference: 'Sandbox run' });
		const ctx = context();
		const first = await searchPrintJobs.call(ctx);
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toMatchObject({ name: expect.stringMatching(/^Invoices \(draft\) · \d{4}-\d\d-\d\d \d\d:\d\d · 1 letter$/), value: expect.stringMatching(/^print_/) });
		const second = await searchPrintJobs.call(ctx, undefined, first.paginationToken);
		expect(second.results).toHaveLength(50);
		const third = await searchPrintJobs.call(ctx, undefined, second.paginationToken);
		expect(third.results).toEqual([{ name: expect.stringMatching(/^Sandbox run \(test\) \(draft\) · /), value: testJob.id, description: testJob.id }]);
		expect(third.paginationToken).toBeUndefined();

		const filtered = await searchPrintJobs.call(ctx, testJob.id.slice(0, 12), 'test:0');
		expect(filtered.results.map((r) => r.value)).toEqual([testJob.id]);

		// Typed text that only a test job matches is found from the first page, without scrolling.
		const found = await searchPrintJobs.call(ctx, 'sandbox run');
		expect(found.results.map((r) => r.value)).toEqual([testJob.id]);
	});

	it('pages through backgrounds and matches the name', async () => {
		for (let i = 1; i <= 3; i++) await createBackground(api, `Letterhead ${i}`);
		const ctx = context();
		const all = await searchBackgrounds.call(ctx);
		expect(all.results.map((r) => r.name)).toEqual(['Letterhead 3', 'Letterhead 2', 'Letterhead 1']);
		expect(all.paginationToken).toBeUndefined();
		const filtered = await searchBackgrounds.call(ctx, 'head 2');
		expect(filtered.results.map((r) => r.name)).toEqual(['Letterhead 2']);
	});
});
