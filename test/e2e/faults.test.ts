import fs from 'fs-extra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX, startSandbox } from '../fake-api/sandbox';
import type { FakeIntelliprint, Fault } from '../fake-api/server';
import { N8nInstance, type ExecutionResult } from './n8n';
import { N8nServer, suiteN8n } from './server';

/** This file's own sandbox account on the suite's shared n8n (see startSandbox). */
const KEY = 'sandbox_key_faults';

/**
 * A few rows of the fault matrix (test/faults) again, in real n8n with the packed package: the
 * HTTP stack there (n8n's axios setup, proxies, redirects) is the one users get.
 */
const credential = { id: 'ipFaultsCred0001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: KEY, baseUrl: SANDBOX.apiUrl, timeoutSeconds: 2, maxWaitSeconds: 10 } };

const node = (name: string, type: string, typeVersion: number, position: [number, number], parameters: object, extra: object = {}) => ({ id: name, name, type, typeVersion, position, parameters, ...extra });
function workflow(id: string, continueOnFail: boolean) {
	const nodes = [
		node('Start', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node('Three letters', 'n8n-nodes-base.set', 3.4, [200, 0], { mode: 'raw', jsonOutput: JSON.stringify({ n: [1, 2, 3] }), options: {} }),
		node('One item each', 'n8n-nodes-base.splitOut', 1, [400, 0], { fieldToSplitOut: 'n', options: {} }),
		node('Download PDF', 'n8n-nodes-base.httpRequest', 4.2, [600, 0], { url: `${SANDBOX.filesUrl}/demo/cover-letter.pdf`, options: { response: { response: { responseFormat: 'file' } } } }),
		node('Create', 'n8n-nodes-intelliprint.intelliprint', 1, [800, 0], {
			resource: 'printJob', operation: 'create', binaryPropertyName: 'data', testmode: true, options: { reference: `={{ '${id}-' + $json.n }}` },
		}, { credentials: { intelliprintApi: { id: credential.id, name: credential.name } }, ...(continueOnFail ? { onError: 'continueRegularOutput' } : {}) }),
	];
	const connections = Object.fromEntries(nodes.slice(0, -1).map((n, i) => [n.name, { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] }]));
	return { id, name: id, nodes, connections, settings: { executionOrder: 'v1' }, active: false, pinData: {} };
}

const post: Fault = { method: 'POST', path: /^\/v1\/prints$/ };
let fake: FakeIntelliprint;
let n8n: N8nServer;
beforeAll(async () => {
	fake = await startSandbox(undefined, KEY);
	n8n = suiteN8n('faults');
	await n8n.importCredentials([credential]);
	const folder = `${n8n.files}`;
	await fs.ensureDir(folder);
	const files = [];
	for (const [id, continueOnFail] of [['ipFaultsCoF00001', true], ['ipFaultsStop0001', false]] as const) {
		files.push(`${folder}/${id}.json`);
		await fs.writeJson(files[files.length - 1], workflow(id, continueOnFail));
	}
	await n8n.importWorkflows(files);
});
afterAll(async () => fake?.stop());

async function runWith(faults: Fault[], workflowId = 'ipFaultsCoF00001') {
	fake.calm();
	fake.prints.jobs.clear();
	fake.resetRecording();
	fake.faults.push(...faults);
	const run = await n8n.execute(workflowId);
	fake.faults.length = 0;
	const items = N8nInstance.node(run.result, 'Create').items;
	return { ...run, items, jobs: [...fake.prints.jobs.values()], node: N8nInstance.node(run.result as ExecutionResult, 'Create') };
}

describe('faults in real n8n', () => {
	it('a create redirected (307) to another host is not followed: no key, no PDF, no job, an error per item', async () => {
		const { items, jobs, exitCode, output } = await runWith([{ ...post, redirect: { status: 307, to: 'elsewhere' }, times: Number.POSITIVE_INFINITY }]);
		expect(exitCode, output).toBe(0);
		expect(items.map((item) => item.json.error)).toEqual(Array(3).fill(expect.stringContaining('redirect (HTTP 307)')));
		expect(jobs).toHaveLength(0);
		expect(fake.elsewhere).toHaveLength(0);
		expect(fake.keyLeaks()).toBe(0);
	});

	it('an HTML page with 200 after the job was made is an error that says the job may exist, never a success', async () => {
		const { items, jobs } = await runWith([{ ...post, garbage: 'html', afterActing: true, times: Number.POSITIVE_INFINITY }]);
		expect(jobs).toHaveLength(3);
		expect(items).toHaveLength(3);
		for (const item of items) {
			expect(item.json.error).toBe("Intelliprint's answer could not be read as a print job");
			expect(String(item.json.description)).toContain('Intelliprint may have acted on the request');
		}
	});

	it('a 429 storm with HTTP-date Retry-After is waited out: every letter once', async () => {
		const { items, jobs, exitCode, output } = await runWith([{ ...post, status: 429, retryAfter: 'httpDate', retryAfterSeconds: 1, times: 4 }]);
		expect(exitCode, output).toBe(0);
		expect(items.map((item) => item.json.error ?? null)).toEqual([null, null, null]);
		expect(jobs.map((job) => job.reference).sort()).toEqual(['ipFaultsCoF00001-1', 'ipFaultsCoF00001-2', 'ipFaultsCoF00001-3']);
	});

	it('a run stopped by a reset after the API acted names every job already created', async () => {
		const { node: create, jobs, exitCode } = await runWith([{ ...post, reset: 'afterActing', times: 1 }], 'ipFaultsStop0001');
		expect(exitCode).toBe(1);
		expect(jobs).toHaveLength(3);
		expect(create.error?.message).toContain('was cut before the answer arrived');
		const named = jobs.filter((job) => String(create.error?.description).includes(job.id));
		// The item whose answer was lost cannot know its ID; the two others are named.
		expect(named).toHaveLength(2);
	});
});
