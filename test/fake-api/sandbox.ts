import { suitePort } from '../e2e/line';
import { mailMergePdf, recipients, simplePdf } from '../helpers/pdfs';
import { FakeIntelliprint } from './server';

/**
 * The sandbox: the fake Intelliprint API on fixed local ports, with the real API's rate limit, sample PDFs
 * published on its file host, two templates and a mailing list. The example workflows point at these (the 1.x
 * end-to-end suite's sandbox is 100 ports up: it runs beside the 2.x one).
 */
export const SANDBOX = {
	apiPort: suitePort(5680),
	filesPort: suitePort(5681),
	apiKey: 'sandbox_key_not_secret',
	get apiUrl() {
		return `http://127.0.0.1:${this.apiPort}/v1`;
	},
	get filesUrl() {
		return `http://127.0.0.1:${this.filesPort}`;
	},
	/** Templates as if designed in the dashboard (the API has no endpoint to list them). */
	templates: { reminder: 'tmpl_reminder01', welcome: 'tmpl_welcome01' },
	/** A mailing list of 25 members, for sending a PDF or a letter to a list. */
	mailingList: 'mal_sandbox25',
};

const FIRST_NAMES = ['Ann', 'Bob', 'Cat', 'Dan', 'Eve'];
const TOWNS: Array<[string, string]> = [['Leeds', 'LS1 4AP'], ['York', 'YO1 7HH'], ['Bath', 'BA1 1AA'], ['Derby', 'DE1 2FS'], ['Hull', 'HU1 1AA']];
const SURNAMES = ['Ahmed', 'Baker', 'Clarke', 'Davies', 'Evans', 'Fisher', 'Green', 'Hughes', 'Iqbal', 'Jones', 'Khan', 'Lewis', 'Morgan', 'Norris', 'Owen', 'Patel', 'Quinn', 'Roberts', 'Smith', 'Taylor', 'Usher', 'Walker', 'Young', 'Zhang'];

/** One row of the sandbox's sheet of overdue invoices, as a sheet exported to JSON gives it. */
export interface OverdueInvoice {
	invoice: string;
	name: string;
	address: string;
	postcode: string;
	amount_due: string;
}

/** Where the sandbox publishes its sheet: `${SANDBOX.filesUrl}/demo/overdue-invoices.json`, read by the scheduled mail run. */
export const OVERDUE_SHEET = 'overdue-invoices.json';

/**
 * The overdue invoice numbered `number` (INV-<number>), the same every time: its customer's name and address are
 * their own (no two rows of 3001..3120 share one). Numbered from 3001, clear of the invoices other examples key on.
 */
export function overdueInvoice(number: number): OverdueInvoice {
	const at = Math.max(0, number - 3001);
	const [town, postcode] = TOWNS[at % TOWNS.length];
	return {
		invoice: `INV-${number}`,
		name: `${FIRST_NAMES[at % FIRST_NAMES.length]} ${SURNAMES[Math.floor(at / FIRST_NAMES.length) % SURNAMES.length]}`,
		address: `${at + 1} High Street\n${town}`,
		postcode,
		amount_due: (40 + (number % 9) * 17.5).toFixed(2),
	};
}

/** The sheet as the sandbox starts with it: 100 overdue invoices, INV-3001 to INV-3100. */
export const overdueInvoices = (from = 3001, count = 100): OverdueInvoice[] => Array.from({ length: count }, (_, i) => overdueInvoice(from + i));

/** Publishes (or replaces) the sheet of overdue invoices on the file host, as JSON rows. */
export function publishSheet(fake: FakeIntelliprint, rows: OverdueInvoice[]): string {
	return fake.publish(OVERDUE_SHEET, Buffer.from(JSON.stringify(rows, null, 2)), 'application/json');
}

/**
 * Starts the sandbox. Test files that share one running n8n give their sandbox an API key of their own: n8n
 * keeps each key's rate budget for as long as it runs, as it should, and a sandbox started afresh for the next
 * file would otherwise inherit the last file's spent budget as if it were the same account.
 */
export async function startSandbox(rateLimit = { requests: 100, windowMs: 60_000 }, apiKey = SANDBOX.apiKey): Promise<FakeIntelliprint> {
	// Address validation finishes by itself shortly after it is asked for, as a person trying the node would expect.
	const fake = await new FakeIntelliprint({ apiKey, rateLimit, validationDelayMs: 200 }).start(SANDBOX.apiPort, '127.0.0.1', SANDBOX.filesPort);
	await seedSandbox(fake);
	return fake;
}

/** What the sandbox holds from the start: sample PDFs and a sheet on its file host, two templates, a mailing list. */
export async function seedSandbox(fake: FakeIntelliprint): Promise<void> {
	// The vendor's demo has 100 letters when split on "Dear"; ours marks every 10th EMAIL ONLY.
	fake.publish('mail-merge-100.pdf', await mailMergePdf(recipients(100)));
	fake.publish('letterhead.pdf', await simplePdf(1, 'Example Utilities Ltd letterhead'));
	fake.publish('cover-letter.pdf', await mailMergePdf(recipients(1, 0)));
	fake.publish('terms.pdf', await simplePdf(2, 'Terms and conditions page'));
	fake.publish('leaflet.pdf', await simplePdf(1, 'Winter offers leaflet'));
	// A sheet of overdue invoices, read as JSON rows by the scheduled mail run (which a test grows between runs).
	publishSheet(fake, overdueInvoices());
	fake.templates.add({
		id: SANDBOX.templates.reminder,
		name: 'Payment reminder',
		content: '<h1>Payment reminder</h1><p>Dear {{first_name}},</p><p>Our records show £{{amount_due}} still due. Please pay within 14 days.</p><p>Thank you,<br>Example Utilities Ltd</p>',
	});
	fake.templates.add({ id: SANDBOX.templates.welcome, name: 'Welcome', content: '<p>Dear {{first_name}},</p><p>Welcome to Example Utilities. Your first bill arrives next month.</p>' });
	const members = Array.from({ length: 25 }, (_, i) => {
		const [town, postcode] = TOWNS[i % TOWNS.length];
		const first = FIRST_NAMES[i % FIRST_NAMES.length];
		return { address: { name: `${first} Member ${i + 1}`, line: `${i + 1} Park Road\n${town}`, postcode, country: 'GB' }, variables: { first_name: first } };
	});
	fake.mailingLists.create({ name: 'Sandbox members', recipients: members }, SANDBOX.mailingList);
}
