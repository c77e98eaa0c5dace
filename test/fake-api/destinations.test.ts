import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint } from './server';

/** The fake refuses a service that cannot carry a letter where it goes (destinations.ts; ours, as the API is silent). */
let fake: FakeIntelliprint;
beforeAll(async () => {
	fake = await startFakeIntelliprint({ rateLimit: false });
});
afterAll(async () => fake.stop());

const create = async (body: object) => {
	const response = await fetch(`${fake.url}/prints`, { method: 'POST', headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: response.status, body: (await response.json()) as { error?: { param?: string; message: string }; postage?: { service: string } } };
};
const to = (country: string, postcode: string) => ({ address: { name: 'A Person', line: '1 Street\nTown', postcode, country }, variables: {} });

describe('the fake checks service against country', () => {
	it('takes a UK service to the UK and Jersey, and International abroad', async () => {
		expect((await create({ content: 'Hi', testmode: true, recipients: [to('GB', 'LS1 4AP'), to('JE', 'JE2 3AB')] })).status).toBe(200);
		expect((await create({ content: 'Hi', testmode: true, postage: { service: 'international' }, recipients: [to('FR', '75002')] })).body.postage?.service).toBe('international');
	});

	it('refuses a UK service abroad, International in the UK, and a postcard abroad, naming the letter', async () => {
		const uk = await create({ content: 'Hi', testmode: true, recipients: [to('GB', 'LS1 4AP'), to('FR', '75002')] });
		expect(uk).toMatchObject({ status: 400, body: { error: { param: 'postage.service', message: expect.stringContaining('letter 2 is addressed to FR') } } });
		const abroad = await create({ content: 'Hi', testmode: true, postage: { service: 'international' }, recipients: [to('GB', 'LS1 4AP')] });
		expect(abroad.body.error?.message).toContain('international is for addresses outside the UK');
		const postcard = await create({ content: 'Hi', testmode: true, type: 'postcard', postage: { service: 'international' }, recipients: [to('US', '10001')] });
		expect(postcard.body.error).toMatchObject({ param: 'type' });
	});
});
