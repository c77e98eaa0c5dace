import { describe, expect, it } from 'vitest';

import { IntelliprintApi } from '../../credentials/IntelliprintApi.credentials';
import { Intelliprint } from '../../nodes/Intelliprint/Intelliprint.node';
import { IntelliprintStatusTrigger } from '../../nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node';

const credentialType = new IntelliprintApi();

describe('Intelliprint API credential', () => {
	it('keeps the API key in a password field and defaults to the official host', () => {
		const apiKey = credentialType.properties.find((p) => p.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
		expect(credentialType.properties.find((p) => p.name === 'baseUrl')?.default).toBe('https://api.intelliprint.net/v1');
	});

	// n8n runs a credential's own `test` request in preference to any node's test function.
	it('is tested by the nodes that use it, not by a request of its own', () => {
		expect('test' in credentialType).toBe(false);
		for (const node of [new Intelliprint(), new IntelliprintStatusTrigger()]) {
			expect(node.description.credentials).toContainEqual({ name: 'intelliprintApi', required: true, testedBy: 'intelliprintApiTest' });
			expect(typeof node.methods.credentialTest.intelliprintApiTest).toBe('function');
		}
	});
});
