import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FakeIntelliprint } from '../../fake-api/server';
import { QUEUE_PORTS, QueueCluster } from './cluster';
import { API_CREDENTIAL, VOLUME, volumeWorkflow } from './workflows';

const API_KEY = 'queue_key_not_secret';
let fake: FakeIntelliprint;
let cluster: QueueCluster;
beforeAll(async () => {
	// Each call takes a while at the API, so two calls made together are both running at once.
	fake = await new FakeIntelliprint({ apiKey: API_KEY, rateLimit: { requests: 100, windowMs: 60_000 }, latencyMs: 1500 }).start(
		QUEUE_PORTS.fakeApi,
		'127.0.0.1',
		QUEUE_PORTS.fakeFiles,
	);
	cluster = await QueueCluster.create();
	await cluster.importCredentials([{ ...API_CREDENTIAL, type: 'intelliprintApi', data: { apiKey: API_KEY, baseUrl: fake.url } }]);
	// Webhook (answers on receipt) → the posted people as items → a test-mode letter for each.
	const file = `${cluster.dir}/workflows/queue-smoke.json`;
	await fs.outputJson(file, volumeWorkflow(VOLUME));
	await cluster.importWorkflows([file]);
	await cluster.publish(VOLUME.id);
	await cluster.start();
});
afterAll(async () => {
	await cluster?.stop();
	await fake?.stop();
});

describe('n8n queue mode: main, 2 workers, 2 webhook processors on PostgreSQL and Redis', () => {
	it('runs a webhook call through each processor on the workers, one letter each, on different workers', async ({ annotate }) => {
		const people = [
			{ reference: 'smoke-1', name: 'Ada Lovelace', address: '12 St James Square\nLondon', postcode: 'SW1Y 4JH' },
			{ reference: 'smoke-2', name: 'Alan Turing', address: '2 Bletchley Park\nMilton Keynes', postcode: 'MK3 6EB' },
		];
		const responses = await Promise.all(
			people.map(
				async (person, index) =>
					await cluster.callWebhook(index, VOLUME.path, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ people: [person] }),
					}),
			),
		);
		expect(responses.map((response) => response.status)).toEqual([200, 200]);

		const executions = await cluster.waitForExecutions(VOLUME.id, 2);
		expect(executions.map((execution) => [execution.mode, execution.status])).toEqual([
			['webhook', 'success'],
			['webhook', 'success'],
		]);
		expect(
			fake.prints.created
				.map((job) => job.letters.map((letter) => letter.address.name))
				.flat()
				.sort(),
		).toEqual(people.map((person) => person.name));
		expect(fake.prints.created.every((job) => job.testmode)).toBe(true);

		const workers = await Promise.all(executions.map(async (execution) => await cluster.workerOf(execution.id)));
		await annotate(
			`executions ${executions.map((execution, i) => `${execution.id} on worker ${(workers[i] ?? -1) + 1}`).join(', ')}; logs in ${cluster.dir}/logs`,
		);
		expect(workers.every((worker) => worker !== undefined)).toBe(true);
		expect(await cluster.main.log()).not.toContain('Worker started execution');
		expect(new Set(workers).size, 'two executions at once land on different workers').toBe(2);
	});
});
