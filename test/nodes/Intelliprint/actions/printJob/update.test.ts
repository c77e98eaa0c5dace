import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../../helpers/context';
import { byId as locator, createFourLetterJob } from '../../../../helpers/printJobs';

const api = useFakeApi();
const draft = (extra: Record<string, unknown> = {}) => createFourLetterJob(api, extra);

describe('Print Job → Update', () => {
	it('changes a draft and sends only the fields given', async () => {
		const id = await draft();
		const { items } = await api.run({
			parameters: { resource: 'printJob', operation: 'update', printJob: locator(id), simplify: false, updateFields: { reference: 'Renamed', postageService: 'uk_first_class' } },
		});
		expect(items[0].json).toMatchObject({ reference: 'Renamed', postage: { service: 'uk_first_class', ideal_envelope: 'c5' } });
		// A new service and a new reference each cost a read of the job first: the service must carry the draft's
		// letters where they go (building/postageByDestination.ts), and a keyed job's reference may not change (reruns/alreadySent.ts).
		const [forService, forReference, call] = api.apiCalls();
		for (const read of [forService, forReference]) expect(read).toMatchObject({ method: 'GET', path: `/v1/prints/${id}` });
		expect(call).toMatchObject({ method: 'POST', path: `/v1/prints/${id}` });
		expect(call.body).toEqual({ reference: 'Renamed', postage: { service: 'uk_first_class' } });
	});

	it.each([
		['only Mail Date: a first-class draft stays first class', { postageMailDate: '2030-01-15' }, { postage: { mail_date: '1894665600' } }],
		['only Premium Quality: double sided is left alone', { printingPremiumQuality: true }, { printing: { premium_quality: 'true' } }],
		['only Nudge X: Y is left alone', { nudgeX: 2.5 }, { nudge: { x: '2.5' } }],
		['only the splitting phrase of a job already split on a phrase', { splittingPhrase: 'Dear' }, { splitting: { phrase: 'Dear' } }],
	])('sends nothing the user did not set: %s', async (_, updateFields, sent) => {
		const id = await draft({ options: { postage: { values: { service: 'uk_first_class', idealEnvelope: 'c4' } }, printing: { values: { doubleSided: 'yes' } }, nudge: { values: { x: 0, y: 3 } }, splitting: { values: { method: 'split_on_phrase', phrase: 'Dear' } } } });
		api.fake.resetRecording();
		const { items, error } = await api.run({ parameters: { resource: 'printJob', operation: 'update', printJob: locator(id), simplify: false, updateFields } });
		expect(error).toBeUndefined();
		expect(api.apiCalls()[0].body).toEqual(sent);
		expect(items[0].json).toMatchObject({ postage: { service: 'uk_first_class', ideal_envelope: 'c4' }, printing: { double_sided: 'yes' }, nudge: { y: 3 } });
	});

	const fromItem = '={{ $json.value }}';
	it.each([
		['a list as Reference', { reference: fromItem }, 'fine', ['a', 'b'], '"Reference" must be text, but got a list'],
		['NaN as Nudge X', { nudgeX: fromItem }, 1, Number.NaN, '"Nudge X" must be a number, but got NaN'],
		['an object as a metadata value', { metadata: { entry: [{ key: 'batch', value: fromItem }] } }, '7', { a: 1 }, '"Metadata → batch" must be text, but got an object'],
		['text as Pages per Letter', { splittingPages: fromItem }, 2, 'two', '"Pages per Letter" must be a whole number of at least 1'],
	])('refuses %s on the right item before anything is sent', async (_, updateFields, good, bad, message) => {
		const id = await draft();
		api.fake.resetRecording();
		const { items } = await api.run({
			parameters: { resource: 'printJob', operation: 'update', printJob: locator(id), updateFields },
			items: [{ json: { value: good } }, { json: { value: bad } }],
			continueOnFail: true,
		});
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[0].json.id).toBe(id);
		expect(String(items[1].json.error)).toContain(message);
		// The good item's update (and, for a new reference, the read before it); nothing for the bad one.
		expect(api.apiCalls().filter((call) => call.method === 'POST')).toHaveLength(1);
		expect(api.apiCalls()).toHaveLength('reference' in updateFields ? 2 : 1);
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
