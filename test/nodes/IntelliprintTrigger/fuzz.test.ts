import { describe, expect, it } from 'vitest';

import { type Answer, TriggerServer } from '../../helpers/webhookServer';
import { type FuzzCase, generateCases, headersFor, type Outcome, sameJson, STATUS_OF, tally, TARGETS, type Target } from './fuzzCases';

const SEED = 20261122;
const COUNT = 3200;
/** n8n restarts before these cases: nothing kept in memory, the saved static data stays. */
const RESTART_EVERY = 1000;
const secret = `whsec_${Buffer.from('intelliprint-fuzz-signing-key-32b').toString('base64')}`;

// Generated at collection time: the expected counts are known before anything is sent, so they can
// stand in the test's name (the report) and be compared with what was answered.
const cases = generateCases(SEED, COUNT);
const expectedCounts = tally(cases.map((fuzzCase) => fuzzCase.expected));

/** What the answer says happened. */
function outcomeOf(answer: Answer): Outcome | `answered ${number}` {
	const body = answer.body as { ignored?: unknown };
	if (answer.status === 401) return 'refused signature';
	if (answer.status === 400) return 'refused body';
	if (answer.status === 200 && answer.started) return 'run';
	if (answer.status === 200 && body.ignored === 'duplicate delivery') return 'duplicate';
	if (answer.status === 200 && typeof body.ignored === 'string') return 'filtered';
	return `answered ${answer.status}`;
}

/** Everything wrong with one answer, or undefined. */
function problemWith(fuzzCase: FuzzCase, answer: Answer): string | undefined {
	if (answer.threw !== undefined) return `webhook() threw: ${String(answer.threw)}`;
	if (answer.status >= 500) return `answered ${answer.status}: ${JSON.stringify(answer.body)}`;
	const outcome = outcomeOf(answer);
	if (outcome !== fuzzCase.expected) return `${outcome} (${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}), expected ${fuzzCase.expected}`;
	if (answer.status !== STATUS_OF[fuzzCase.expected]) return `status ${answer.status}`;
	if (JSON.stringify(answer.body).length > 200) return 'a long answer';
	if (outcome === 'refused body' || outcome === 'refused signature') {
		if (typeof (answer.body as { error?: unknown }).error !== 'string') return `no error text: ${JSON.stringify(answer.body)}`;
	}
	if (outcome !== 'run') return answer.started ? 'started a run' : undefined;
	if (JSON.stringify(answer.body) !== '{"received":true}') return `answered ${JSON.stringify(answer.body)}`;
	const items = answer.started ?? [];
	// n8n's run adds pairedItem to what the trigger passes on.
	if (items.length !== 1 || Object.keys(items[0]).filter((k) => k !== 'pairedItem').join() !== 'json') return `started ${items.length} items, or not plain {json} items`;
	const sent: unknown = JSON.parse(fuzzCase.body.bytes.toString('utf8'));
	return sameJson(items[0].json, sent) ? undefined : "the run's item is not the body as sent";
}

describe(`Intelliprint Trigger fuzz (seed ${SEED}, ${COUNT} deliveries, restarts every ${RESTART_EVERY})`, () => {
	it(`answers every delivery as expected: ${expectedCounts}`, async () => {
		const server = await new TriggerServer(TARGETS.any, secret).start();
		for (const target of Object.keys(TARGETS) as Target[]) server.host(`fuzz-${target}`, { ...TARGETS[target] }, secret);
		const problems: string[] = [];
		const outcomes: Outcome[] = [];
		try {
			for (const fuzzCase of cases) {
				if (fuzzCase.index > 0 && fuzzCase.index % RESTART_EVERY === 0) await server.restart();
				const answer = await server.deliver({ body: fuzzCase.body.bytes, headers: headersFor(fuzzCase, secret) }, `fuzz-${fuzzCase.target}`);
				const problem = problemWith(fuzzCase, answer);
				if (problem) {
					const what = `${fuzzCase.target} ${fuzzCase.body.kind}${fuzzCase.redeliveryOf === undefined ? '' : ` redelivery of #${fuzzCase.redeliveryOf}`}`;
					problems.push(`#${fuzzCase.index} (${what}, headers ${JSON.stringify(fuzzCase.headers)}): ${problem}`);
				}
				outcomes.push(outcomeOf(answer) as Outcome);
			}
		} finally {
			await server.stop();
		}
		expect(problems.slice(0, 15), `${problems.length} of ${COUNT} deliveries answered wrong`).toEqual([]);
		expect(tally(outcomes)).toBe(expectedCounts);
		// Every kind of outcome is exercised, and by more than a handful of cases.
		for (const count of expectedCounts.matchAll(/\) (\d+)/g)) expect(Number(count[1])).toBeGreaterThan(50);
		expect(server.started).toHaveLength(cases.filter((fuzzCase) => fuzzCase.expected === 'run').length);
	});
});
