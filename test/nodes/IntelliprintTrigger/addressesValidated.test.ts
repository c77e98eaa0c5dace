import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { newSigningSecret } from '../../fake-api/events';
import { useFakeApi } from '../../helpers/context';
import { TriggerServer } from '../../helpers/webhookServer';

/**
 * The whole path of the Addresses Validated event: the node creates a mailing list asking for
 * validation, the (fake) API finishes it and signs the event, and the trigger starts its workflow
 * with the event whole.
 */
const api = useFakeApi();
const secret = newSigningSecret();
let server: TriggerServer;
beforeAll(async () => {
	server = await new TriggerServer({ event: 'mailing_list.addresses_validated', verifySignatures: true }, secret).start();
});
afterAll(async () => server.stop());

describe('Intelliprint Trigger: Addresses Validated', () => {
	it('starts the workflow with the validation event as sent', async () => {
		api.fake.addWebhook(server.url, secret);
		const { items, error } = await api.run({
			parameters: { resource: 'mailingList', operation: 'create', name: 'To check', validateAddresses: true },
			items: [
				{ json: { name: 'Ada', address: '12 St James Square, London', postcode: 'SW1Y 4JH' } },
				{ json: { name: 'Bob', address: 'Somewhere', postcode: 'SW1A 9ZZ' } },
			],
		});
		expect(error).toBeUndefined();
		const listId = items[0].json.id as string;
		await api.fake.completeValidation(listId);
		await server.idle();
		expect(server.started).toHaveLength(1);
		const event = server.started[0][0].json;
		expect(event).toMatchObject({ type: 'mailing_list.addresses_validated', id: listId, address_validation: { completed: true, recipients: { passed: 1, failed: 1 } } });
		const delivered = api.fake.deliveries.find((delivery) => delivery.type === 'mailing_list.addresses_validated');
		expect(event).toEqual(JSON.parse(delivered!.body));
		expect(delivered?.status).toBe(200);
	});
});
