import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../helpers/context';

/**
 * The contract's `postage-abroad` broken (fake-api/brokenModes.ts, `noInternational`: the API refuses
 * `international`): rows abroad fail loudly, on their own items with the API's own message, and the UK rows still go.
 * The node never falls back to a UK service for a letter abroad, which would post it at the wrong price.
 */
const api = useFakeApi();
const noInternational = () => ({ baseUrl: api.fake.url.replace(/\/v1$/, '/broken/noInternational/v1') });
const REFUSAL = 'international is not available on this account';

const rows = [
	{ name: 'Ann Leeds', address: '1 High Street\nLeeds', postcode: 'LS1 4AP', country: 'GB' },
	{ name: 'Bea Paris', address: '5 Rue de la Paix\nParis', postcode: '75002', country: 'FR' },
].map((json) => ({ json }));
const create = (recipientsFrom: string) => ({
	resource: 'printJob', operation: 'create', source: 'content', content: '<p>Dear {{name}}</p>', recipientsFrom,
	recipientFields: { mappingMode: 'autoMapInputData', value: null }, variables: 'none', testmode: true, confirmed: true,
});
const made = () => api.fake.createdPrintJobs().map((job) => [job.postage?.service, job.letters.map((letter) => letter.address.country)]);

describe('an API that refuses international (postage-abroad broken)', () => {
	it.each(['allItems', 'eachItem'])('recipients from %s: the row abroad fails on its own item with the API\'s refusal; the UK row goes', async (recipientsFrom) => {
		const before = made().length;
		const { items, errorOutput } = await api.run({ typeVersion: 1.2, onError: 'continueErrorOutput', parameters: create(recipientsFrom), items: rows, credentials: noInternational() });
		expect(made().slice(before)).toEqual([['uk_second_class', ['GB']]]);
		expect(items.map((item) => item.json.confirmed)).toEqual([true]);
		expect(errorOutput).toHaveLength(1);
		expect(errorOutput[0].pairedItem).toEqual({ item: 1 });
		expect(errorOutput[0].json).toMatchObject({ name: 'Bea Paris', error: 'Intelliprint refused the value given for "postage.service"', message: expect.stringContaining(`Intelliprint said: Invalid value for postage.service: ${REFUSAL}.`) });
	});

	it('without an error output the run stops with the refusal, naming it', async () => {
		const { error } = await api.run({ typeVersion: 1.2, parameters: create('eachItem'), items: rows.slice(1), credentials: noInternational() });
		expect(`${error?.message} ${error?.description}`).toContain(REFUSAL);
		expect(api.fake.createdPrintJobs().filter((job) => job.postage?.service === 'international')).toEqual([]);
	});
});
