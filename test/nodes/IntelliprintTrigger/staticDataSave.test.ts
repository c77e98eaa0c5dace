import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { SAVE_LIMIT_MS } from '../../../nodes/IntelliprintTrigger/staticDataSave';
import { signedDelivery } from '../../e2e/signedDelivery';
import { TriggerServer } from '../../helpers/webhookServer';

const secret = `whsec_${Buffer.from('intelliprint-save-order-signing-k').toString('base64')}`;
const EVENT = { type: 'mail.failed', id: 'ltr_saved' };
const PARAMETERS = { event: '*', verifySignatures: true };

const key = (id: string) => createHash('sha256').update(id).digest('base64url').slice(0, 12);

let server: TriggerServer;
let workflows = 0;
beforeAll(async () => {
	server = await new TriggerServer(PARAMETERS, secret).start();
});
afterEach(() => Object.assign(server, { saveDelayMs: 0, failSaves: false, hideChangeMark: false }));
afterAll(async () => server.stop());

/** What n8n's database holds for the workflow's trigger at this moment. */
function savedIds(workflowId: string): string[] {
	const record = (server.savedStaticData(workflowId)['node:Node'] as { deliveries?: Record<string, string> } | undefined)?.deliveries ?? {};
	return Object.values(record).flatMap((ids) => ids.match(/.{12}/g) ?? []);
}

/**
 * Sends a delivery and reads the saved record the moment its answer has arrived: what a retry sent
 * right then to another webhook processor (which knows only the database) would find.
 */
async function deliverAndLook(workflowId: string, id: string) {
	const started = Date.now();
	const response = await fetch(server.urlOf(workflowId), { method: 'POST', ...signedDelivery(secret, id, EVENT) });
	const answer = `${response.status} ${await response.text()}`;
	const savedWhenAnswered = savedIds(workflowId).includes(key(id));
	const waitedMs = Date.now() - started;
	await server.idle();
	return { answer, savedWhenAnswered, waitedMs };
}

/** A workflow of its own, on a database and an n8n that behave as `settings` say. */
function newWorkflow(settings: Partial<Pick<TriggerServer, 'saveDelayMs' | 'failSaves' | 'hideChangeMark'>>): string {
	const workflowId = `wf-save-${++workflows}`;
	server.host(workflowId, PARAMETERS, secret);
	Object.assign(server, settings);
	return workflowId;
}

const runsOf = (workflowId: string) => server.answers.filter((a) => a.workflowId === workflowId && a.started).length;

describe('Intelliprint Trigger: the 2xx leaves only once the delivery is saved', () => {
	// n8n writes the answer, then saves: a database that takes a while must not let the 2xx out first.
	it.each([0, 40, 300])('a save that takes %i ms: the id is in the database when the 2xx arrives, and a retry to another processor is a duplicate', async (delay) => {
		const workflowId = newWorkflow({ saveDelayMs: delay });

		const first = await deliverAndLook(workflowId, `msg_saved_${delay}`);
		expect(first.answer).toBe('200 {"received":true}');
		expect(first.savedWhenAnswered).toBe(true);

		// Another webhook processor knows only what the database holds: a process with nothing in memory.
		await server.restart();
		const retry = await deliverAndLook(workflowId, `msg_saved_${delay}`);
		expect(retry.answer).toBe('200 {"received":true,"ignored":"duplicate delivery"}');
		expect(runsOf(workflowId)).toBe(1);
	});

	it('a save that fails (n8n logs it) still answers 200 for the run that exists, once the wait gives up', async () => {
		const workflowId = newWorkflow({ failSaves: true });

		const first = await deliverAndLook(workflowId, 'msg_save_fails');
		expect(first.answer).toBe('200 {"received":true}');
		expect(first.savedWhenAnswered).toBe(false);
		// It waited for the save all along, not a fixed moment: nothing releases it earlier.
		expect(first.waitedMs).toBeGreaterThanOrEqual(SAVE_LIMIT_MS - 5);
		expect(runsOf(workflowId)).toBe(1);
	});

	it("where n8n's changed mark cannot be read, it answers after a short fixed wait, and the id is still saved", async () => {
		const workflowId = newWorkflow({ hideChangeMark: true });

		const first = await deliverAndLook(workflowId, 'msg_no_mark');
		expect(first.answer).toBe('200 {"received":true}');
		expect(savedIds(workflowId)).toContain(key('msg_no_mark'));
		const again = await deliverAndLook(workflowId, 'msg_no_mark');
		expect(again.answer).toBe('200 {"received":true,"ignored":"duplicate delivery"}');
		expect(runsOf(workflowId)).toBe(1);
	});
});
