import { afterAll, beforeAll, beforeEach } from 'vitest';

import { startFakeIntelliprint, type FakeIntelliprint, type FakeOptions } from '../fake-api/server';
import { runIntelliprint, type RunOptions } from './n8n';

/**
 * Starts a fake Intelliprint API for the test file and gives a `run` that points the node's
 * credential at it. The node's own pacing is set generously unless a test asks otherwise, so that
 * tests not about rate limits run at full speed.
 */
export function useFakeApi(options: FakeOptions = { rateLimit: false }) {
	const state = { fake: undefined as unknown as FakeIntelliprint };
	beforeAll(async () => {
		state.fake = await startFakeIntelliprint(options);
	});
	afterAll(async () => state.fake.stop());
	beforeEach(() => {
		state.fake.resetRecording();
		state.fake.faults.length = 0;
	});
	return {
		get fake() {
			return state.fake;
		},
		credentials(extra: Record<string, unknown> = {}) {
			return { apiKey: state.fake.apiKey, baseUrl: state.fake.url, rateLimitRequests: 100_000, rateLimitWindowSeconds: 60, ...extra };
		},
		async run(run: Omit<RunOptions, 'credentials'> & { credentials?: Record<string, unknown> }) {
			return await runIntelliprint({ ...run, credentials: { ...this.credentials(), ...(run.credentials ?? {}) } as never });
		},
		/** The API requests the node made (file-host downloads left out). */
		apiCalls() {
			return state.fake.requests.filter((r) => !r.path.startsWith('files:'));
		},
	};
}
