import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../helpers/context';
import { simplePdf } from '../../../helpers/pdfs';

/** Words fit the operation that says them: no advice it cannot follow, and a model's wording applied once. */
const api = useFakeApi();
const letter = { resource: 'printJob', operation: 'create', source: 'content', content: '<p>Hello</p>', recipientsFrom: 'eachItem', variables: 'none', testmode: true };

describe('what an operation advises', () => {
	it('Background → Create, stopped after an upload: no "Skip Items Already Sent", which it does not have', async () => {
		const pdf = await simplePdf(1);
		api.fake.faults.push({ method: 'POST', path: /\/backgrounds$/, status: 400, after: 1, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'No.' } });
		const { error } = await api.run({
			parameters: { resource: 'background', operation: 'create', binaryPropertyName: 'data', options: { parallelItems: 1 } },
			items: [1, 2].map((n) => ({ files: { data: { data: pdf, fileName: `lh${n}.pdf` } } })),
		});
		expect(error?.description).toMatch(/Running the same items again would create these again: run only the items not listed here\.$/);
		expect(error?.description).not.toContain('Skip Items Already Sent');
	});

	it('Print Job → Create, stopped after a job: it explains that "Skip Items Already Sent", turned on now, would not help', async () => {
		api.fake.faults.push({ method: 'POST', path: /\/prints$/, status: 400, after: 1, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'No.' } });
		const rows = [1, 2].map((n) => ({ json: { name: `N ${n}`, address: '1 High Street', postcode: 'LS1 4AP' } }));
		const { error } = await api.run({ typeVersion: 1.2, parameters: { ...letter, options: { parallelItems: 1 } }, items: rows });
		expect(error?.description).toContain('run only the items not listed here (turned on now, Skip Items Already Sent cannot find jobs made without it; set it before a run to make that run safe to repeat).');
	});

	it('a row without a postcode: "for its letter" on a print job, "for the mailing list" on a list, neither on a check', async () => {
		const row = [{ json: { name: 'Ada', address: '1 High Street', postcode: '' } }];
		const printJob = await api.run({ typeVersion: 1.2, parameters: letter, items: row });
		const list = await api.run({ parameters: { resource: 'mailingList', operation: 'create', name: 'L' }, items: row });
		const check = await api.run({ parameters: { resource: 'address', operation: 'check' }, items: row, continueOnFail: true });
		expect(printJob.error?.message).toBe('Item 1 has no postcode for its letter');
		expect(list.error?.message).toBe('Item 1 has no postcode for the mailing list');
		expect(JSON.stringify(check.items[0].json)).not.toMatch(/for its letter|for the mailing list/);
	});

	it('a runs-once operation that fails before telling its rows apart gives every row the error', async () => {
		const pdf = await simplePdf(1);
		api.fake.faults.push({ method: 'POST', path: /\/tools\/merge$/, status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid', message: 'No.' } });
		const { items } = await api.run({
			parameters: { resource: 'merge', operation: 'merge', options: { combineAllItems: true } },
			items: [1, 2, 3].map((n) => ({ files: { data: { data: pdf, fileName: `f${n}.pdf` } } })),
			continueOnFail: true,
		});
		expect(items.map((item) => [item.pairedItem, Boolean(item.json.error)])).toEqual([[{ item: 0 }, true], [{ item: 1 }, true], [{ item: 2 }, true]]);
	});
});

describe('what an AI agent reads', () => {
	it('a call without a postcode: the advice once, in the argument\'s name', async () => {
		const { error } = await api.run({
			typeVersion: 1.2, asTool: true, items: [{ json: {} }],
			parameters: { ...letter, recipientName: 'Ada', recipientAddress: '1 High Street', recipientPostcode: '={{ "" }}' },
		});
		expect(error?.message).toBe('The tool call has no postcode for its letter. Ask the user for the postcode rather than guessing, then call the tool again with the argument "recipient_postcode" filled in.');
		// n8n's execution view shows the description under the message: it must not say the same again in the panel's labels.
		expect(error?.description ?? undefined).toBeUndefined();
	});

	it('confirming a test job says no letter will arrive', async () => {
		const draft = await api.run({ typeVersion: 1.2, parameters: letter, items: [{ json: { name: 'Ada', address: '1 High Street', postcode: 'LS1 4AP' } }] });
		const { items } = await api.run({ asTool: true, parameters: { resource: 'printJob', operation: 'confirm', printJob: { __rl: true, mode: 'id', value: String(draft.items[0].json.id) } } });
		expect(items[0].json).toMatchObject({ confirmed: true, testmode: true });
		expect(String(items[0].json.summary)).toContain('confirming it printed and posted nothing, and no letter will arrive');
	});
});
