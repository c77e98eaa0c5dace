import { mailMergePdf, recipients, simplePdf } from '../helpers/pdfs';
import { FakeIntelliprint } from './server';

/**
 * The sandbox: the fake Intelliprint API on fixed local ports, with the real API's rate limit and
 * sample PDFs published on its file host. The example workflows point at these addresses.
 */
export const SANDBOX = {
	apiPort: 5680,
	filesPort: 5681,
	apiKey: 'sandbox_key_not_secret',
	get apiUrl() {
		return `http://127.0.0.1:${this.apiPort}/v1`;
	},
	get filesUrl() {
		return `http://127.0.0.1:${this.filesPort}`;
	},
};

export async function startSandbox(rateLimit = { requests: 100, windowMs: 60_000 }): Promise<FakeIntelliprint> {
	// Address validation finishes by itself shortly after it is asked for, as a person trying the node would expect.
	const fake = await new FakeIntelliprint({ apiKey: SANDBOX.apiKey, rateLimit, validationDelayMs: 200 }).start(SANDBOX.apiPort, '127.0.0.1', SANDBOX.filesPort);
	// The vendor's demo has 100 letters when split on "Dear"; ours marks every 10th EMAIL ONLY.
	fake.publish('mail-merge-100.pdf', await mailMergePdf(recipients(100)));
	fake.publish('letterhead.pdf', await simplePdf(1, 'Example Utilities Ltd letterhead'));
	fake.publish('cover-letter.pdf', await mailMergePdf(recipients(1, 0)));
	fake.publish('terms.pdf', await simplePdf(2, 'Terms and conditions page'));
	fake.publish('leaflet.pdf', await simplePdf(1, 'Winter offers leaflet'));
	return fake;
}
