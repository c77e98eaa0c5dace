import { describe, expect, it } from 'vitest';

import { useFakeApi } from '../../../helpers/context';
import { byId } from '../../../helpers/printJobs';

const api = useFakeApi();
const get = { resource: 'printJob', operation: 'get', printJob: byId('print_abc123') };
const quick = { timeoutSeconds: 1, maxWaitSeconds: 6 };

describe('wire faults each get their own message', () => {
	it('an unknown host name (DNS)', async () => {
		const { error } = await api.run({ parameters: get, credentials: { baseUrl: 'http://intelliprint-no-such-host.invalid/v1', ...quick } });
		expect(error?.message).toBe('The host name intelliprint-no-such-host.invalid could not be found');
		expect(error?.context?.wireFault).toBe('dns');
		expect(error?.description).toContain('spelling of the Base URL');
	});

	it('a read that hangs: a timeout, repeated within the budget, and never "check the Base URL"', async () => {
		api.fake.faults.push({ method: 'GET', hang: true, times: Number.POSITIVE_INFINITY });
		const { error } = await api.run({ parameters: get, credentials: quick });
		expect(error?.message).toBe(`Intelliprint at ${api.fake.url} did not answer within 1 second`);
		expect(error?.context?.wireFault).toBe('timeout');
		expect(error?.description).not.toContain('Base URL');
		expect(api.apiCalls().length).toBeGreaterThan(1);
		expect(api.apiCalls().length).toBeLessThanOrEqual(4);
	});

	it('a reset read is repeated, and its message does not claim the API may have acted', async () => {
		api.fake.faults.push({ method: 'GET', reset: 'afterActing', times: Number.POSITIVE_INFINITY });
		// The waits between tries are jittered (up to about 7 s for three): the budget must hold them all.
		const read = await api.run({ parameters: get, credentials: { ...quick, maxWaitSeconds: 30 } });
		expect(read.error?.message).toBe(`The connection to Intelliprint at ${api.fake.url} was cut before the answer arrived`);
		expect(read.error?.description).toContain('It was tried 4 times');
		expect(read.error?.description).not.toContain('may already have acted');
	});
});
