#!/usr/bin/env node
// `npm run check:api`: checks a real Intelliprint account against every row of the node's API contract
// (nodes/Intelliprint/transport/contract.ts), in test mode only: nothing is printed, posted or charged. Run with tsx,
// which loads the TypeScript it imports. Exit code: 0 when no row is broken, 1 when one is (or the check stopped
// part way), 2 for a usage problem (no key, or the API could not be reached or refused the key).
//
//   INTELLIPRINT_API_KEY=<your key> npm run check:api
//   optional: INTELLIPRINT_BASE_URL (default https://api.intelliprint.net/v1), INTELLIPRINT_TEMPLATE_ID,
//             CHECK_API_SCAN_PAGES (pages of 1,000 of the last 30 days read, live and test each; default 10)
import checkModule from './contract/checkAccount.ts';

// The TypeScript is CommonJS, as the package is: its exports arrive as one default object (a named import fails).
const { checkAccount, formatTable } = checkModule;

const DEFAULT_BASE_URL = 'https://api.intelliprint.net/v1';

const apiKey = (process.env.INTELLIPRINT_API_KEY ?? '').trim();
const baseUrl = (process.env.INTELLIPRINT_BASE_URL ?? '').trim() || DEFAULT_BASE_URL;
const templateId = (process.env.INTELLIPRINT_TEMPLATE_ID ?? '').trim() || undefined;
const pagesText = (process.env.CHECK_API_SCAN_PAGES ?? '').trim();
const scanPages = pagesText ? Number(pagesText) : undefined;

// Nothing printed may carry the key, whatever an answer echoes back.
const redact = (text) => (apiKey ? String(text).split(apiKey).join('<your key>') : String(text));
const say = (line) => process.stdout.write(`${redact(line)}\n`);
const usage = (problem) => {
	process.stderr.write(`${redact(problem)}\n\nUsage: INTELLIPRINT_API_KEY=<your key> npm run check:api\n` +
		`Optional: INTELLIPRINT_BASE_URL (default ${DEFAULT_BASE_URL}), INTELLIPRINT_TEMPLATE_ID, CHECK_API_SCAN_PAGES (default 10)\n`);
	process.exit(2);
};
const notStarted = (problem) => {
	process.stderr.write(`${redact(problem)}\nCheck INTELLIPRINT_API_KEY and INTELLIPRINT_BASE_URL (now ${baseUrl}).\n`);
	process.exit(2);
};

if (!apiKey) usage('check:api needs an Intelliprint API key in INTELLIPRINT_API_KEY.');
if (scanPages !== undefined && !(Number.isInteger(scanPages) && scanPages >= 1)) usage(`CHECK_API_SCAN_PAGES must be a whole number of 1 or more, not "${pagesText}".`);
if (!/^https?:\/\//.test(baseUrl)) usage(`INTELLIPRINT_BASE_URL must start with https:// (or http:// for a local fake), not "${baseUrl}".`);

say(`Checking the Intelliprint account at ${baseUrl} against the node's API contract (docs/api-contract.md).`);
say('Test mode only: nothing is printed, posted or charged.');
say('');

let rows;
try {
	rows = await checkAccount({ baseUrl, apiKey, templateId, scanPages, log: say });
} catch (error) {
	if (error?.name === 'CheckNotStarted') notStarted(`check:api could not start: ${error.message}`);
	if (error?.name !== 'CheckStopped') throw error;
	say('');
	say(formatTable(error.rows));
	say('');
	say(`${error.message}. What it made was cleaned up (see above); the rows above are what it saw until then.`);
	process.exit(1);
}

say('');
say(formatTable(rows));
const broken = rows.filter((row) => row.verdict === 'broken');
say('');
say(broken.length
	? `${broken.length} assumption(s) broken: ${broken.map((row) => row.assumption).join(', ')}. docs/api-contract.md says what each means for your letters and limits.`
	: 'No assumption broken: the node can rely on this account\'s API as it is.');
process.exit(broken.length ? 1 : 0);
