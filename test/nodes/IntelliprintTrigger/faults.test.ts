import type { IWebhookFunctions } from 'n8n-workflow';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

import { IntelliprintTrigger } from '../../../nodes/IntelliprintTrigger/IntelliprintTrigger.node';

let counter = 0;
const secret = `whsec_${Buffer.from('intelliprint-faults-signing-key!!').toString('base64')}`;

/**
 * A webhook context whose n8n side fails where told to: the paths a real n8n seldom takes, but
 * which must still end in an answer rather than an exception.
 */
function context(fail: { credentials?: boolean; parameter?: string; staticData?: boolean; rawBody?: boolean } = {}) {
	const body = '{"type":"mail.failed","id":"ltr_fault"}';
	const now = new Date();
	const id = `msg_fault_${++counter}`;
	const answered: { status?: number; body?: unknown } = {};
	const response = {
		headersSent: false,
		writableEnded: false,
		socket: { destroyed: false },
		once: () => response,
		status(code: number) {
			answered.status = code;
			return this;
		},
		json(value: unknown) {
			answered.body = value;
			this.headersSent = true;
			return this;
		},
	};
	const parameters: Record<string, unknown> = { verifySignatures: true, event: '*', letterStatuses: [] };
	const fake = {
		getRequestObject: () =>
			fail.rawBody
				? {
						readRawBody: async () => {
							throw new Error('aborted');
						},
					}
				: { rawBody: Buffer.from(body) },
		getResponseObject: () => response,
		getHeaderData: () => ({
			'webhook-id': id,
			'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
			'webhook-signature': new Webhook(secret).sign(id, now, body),
		}),
		getNodeParameter: (name: string) => {
			if (fail.parameter === name) throw new Error(`parameter ${name} cannot be resolved`);
			return parameters[name];
		},
		getCredentials: async () => {
			if (fail.credentials) throw new Error('credential cannot be decrypted');
			return { signingSecret: secret };
		},
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: 'wf-faults' }),
		getNode: () => ({ id: 'node-faults' }),
		getWorkflowStaticData: () => {
			if (fail.staticData) throw new Error('static data unavailable');
			return {};
		},
		logger: { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} },
	};
	return { fake: fake as unknown as IWebhookFunctions, answered };
}

const run = async (fake: IWebhookFunctions) => await new IntelliprintTrigger().webhook.call(fake);

describe('Intelliprint Trigger when n8n fails it', () => {
	it('answers 500 (retry later) when the credential cannot be read, without throwing', async () => {
		const { fake, answered } = context({ credentials: true });
		expect(await run(fake)).toEqual({ noWebhookResponse: true });
		expect(answered).toEqual({ status: 500, body: { error: expect.stringContaining('signing secret') } });
	});

	it('answers 500 without throwing when a parameter cannot be resolved', async () => {
		const { fake, answered } = context({ parameter: 'event' });
		expect(await run(fake)).toEqual({ noWebhookResponse: true });
		expect(answered).toEqual({ status: 500, body: { error: expect.any(String) } });
	});

	it('still starts the run when the duplicate record cannot be used', async () => {
		const { fake, answered } = context({ staticData: true });
		// The run answers the delivery (responseNode), not webhook().
		expect(await run(fake)).toEqual({ workflowData: [[{ json: { type: 'mail.failed', id: 'ltr_fault' } }]] });
		expect(answered).toEqual({});
	});

	it('answers 400 when the body cannot be read', async () => {
		const { fake, answered } = context({ rawBody: true });
		expect(await run(fake)).toEqual({ noWebhookResponse: true });
		expect(answered).toEqual({ status: 400, body: { error: 'The request body could not be read' } });
	});
});
