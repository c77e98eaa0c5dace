import { sleep } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SANDBOX, startSandbox } from '../fake-api/sandbox';
import type { FakeIntelliprint } from '../fake-api/server';
import { savedExecutions } from './executions';
import { N8nServer, suiteN8n } from './server';
import { APPROVAL_TWINS, EXAMPLE, writeApprovalTwins } from './workflows/approvalTwins';

const LETTERS = 10;
/** This file's own sandbox account on the suite's shared n8n (see startSandbox). */
const KEY = 'sandbox_key_approval';

let fake: FakeIntelliprint;
let n8n: N8nServer;
beforeAll(async () => {
	fake = await startSandbox(undefined, KEY);
	n8n = suiteN8n('approval');
	await n8n.importCredentials([{ id: 'ipSandboxCred001', name: 'Intelliprint sandbox', type: 'intelliprintApi', data: { apiKey: KEY, baseUrl: SANDBOX.apiUrl } }]);
	// The example itself is imported too: it must import as it is, though only its twins can be started here.
	await n8n.importWorkflows([EXAMPLE, ...(await writeApprovalTwins(`${n8n.files}/twins`))]);
	for (const twin of Object.values(APPROVAL_TWINS)) await n8n.publish(twin.id);
});
afterAll(async () => {
	await fake?.stop();
});

/** What the approver was told, as the "Send to the approver" step posted it to the sandbox's /notify. */
interface Message {
	text: string;
	printId: string;
	letters: number;
	cost: string;
	costWithVat: string;
	pdf: string;
	approve: string;
	reject: string;
}

function readMessage(text: string): Message {
	const match = (pattern: RegExp) => {
		const found = pattern.exec(text);
		if (!found) throw new Error(`The approval message has no ${pattern}:\n${text}`);
		return found[1];
	};
	return {
		text,
		printId: match(/draft print job (print_\w+)/),
		letters: Number(match(/(\d+) letters,/)),
		cost: match(/letters, £(\d+\.\d\d)/),
		costWithVat: match(/\(£(\d+\.\d\d) with VAT\)/),
		pdf: match(/^First letter: (\S+)$/m),
		approve: match(/^Approve: (\S+)$/m),
		reject: match(/^Reject: (\S+)$/m),
	};
}

/** Starts a twin through its production webhook and waits for the message its run sends the approver. */
async function startRun(path: string): Promise<Message> {
	const before = fake.notifications.length;
	// n8n may answer 404 for a moment after start while it registers production webhooks.
	for (let attempt = 0; ; attempt++) {
		const response = await fetch(`${n8n.url}/webhook/${path}`, { method: 'POST' });
		if (response.ok) break;
		if (response.status !== 404 || attempt >= 20) throw new Error(`starting the run: ${response.status} ${await response.text()}`);
		await sleep(500);
	}
	const text = await until(() => (fake.notifications[before] as { text?: string } | undefined)?.text, 60, 'the approval message');
	return readMessage(text);
}

/** Polls `check` once a second until it gives a value, or fails after `seconds`. */
async function until<T>(check: () => T | undefined | false | Promise<T | undefined>, seconds: number, what: string): Promise<T> {
	for (let waited = 0; waited <= seconds; waited++) {
		const value = await check();
		if (value !== undefined && value !== false) return value;
		await sleep(1000);
	}
	throw new Error(`${what}: not seen within ${seconds} s`);
}

/** What the sandbox holds now, and what it once had, for a job. */
const held = (id: string) => fake.prints.jobs.get(id);
const everCreated = (id: string) => fake.prints.created.find((job) => job.id === id);

/** The twin's runs, once none is left running or waiting. */
async function settledRuns(workflowId: string, count: number) {
	return await until(async () => {
		const runs = (await savedExecutions(n8n.userFolder)).filter((e) => e.workflowId === n8n.idOf(workflowId));
		return runs.length >= count && runs.every((e) => e.finished || e.status === 'error') ? runs : undefined;
	}, 30, `${count} settled runs of ${workflowId}`);
}

describe('approve before posting (the example, on a running n8n)', () => {
	let approved: Message;

	it('drafts the letters, live and unconfirmed, and tells the approver the cost, the count and where the first letter is', async () => {
		approved = await startRun(APPROVAL_TWINS.decided.path);
		const job = held(approved.printId)!;
		expect(job).toMatchObject({ confirmed: false, testmode: false });
		expect(job.letters).toHaveLength(LETTERS);
		expect(new Set(job.letters.map((l) => l.status))).toEqual(new Set(['draft']));
		expect(approved.letters).toBe(LETTERS);
		expect(approved.cost).toBe((job.cost.amount / 1e8).toFixed(2));
		expect(approved.costWithVat).toBe((job.cost.after_tax / 1e8).toFixed(2));
		expect(Number(approved.cost)).toBeGreaterThan(0);
		// The link is the first letter's own PDF, and it opens.
		expect(approved.pdf).toBe(job.letters[0].pdf);
		expect(approved.approve).toContain(`decision=approve&print=${approved.printId}`);
		const pdf = await fetch(approved.pdf);
		expect(pdf.status).toBe(200);
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
		// While nobody has answered, nothing is sent to print.
		await sleep(2000);
		expect(held(approved.printId)!.confirmed).toBe(false);
	});

	it('posts the letters when the approver follows the Approve link', async () => {
		const click = await fetch(approved.approve);
		// The approver's browser shows what came of it: the confirmed job.
		expect(click.status, await click.clone().text()).toBe(200);
		expect(await click.json()).toMatchObject({ id: approved.printId, confirmed: true, testmode: false, letter_count: LETTERS });
		const job = await until(() => held(approved.printId)?.confirmed && held(approved.printId), 30, 'the confirmed job');
		expect(job).toMatchObject({ confirmed: true, testmode: false });
		expect(job.letters).toHaveLength(LETTERS);
		expect(new Set(job.letters.map((l) => l.status))).toEqual(new Set(['waiting_to_print']));
		const [run] = await settledRuns(APPROVAL_TWINS.decided.id, 1);
		expect(run.status).toBe('success');
		// The Reject link of a decided run does nothing: n8n no longer waits for it.
		expect((await fetch(approved.reject)).ok).toBe(false);
		await sleep(1000);
		expect(held(approved.printId)?.confirmed).toBe(true);
	});

	it('deletes the draft when the approver follows the Reject link, and posts nothing', async () => {
		const rejected = await startRun(APPROVAL_TWINS.decided.path);
		expect(rejected.printId).not.toBe(approved.printId);
		expect(held(rejected.printId)).toMatchObject({ confirmed: false });
		const click = await fetch(rejected.reject);
		expect(click.status, await click.clone().text()).toBe(200);
		expect(await click.json()).toEqual({ id: rejected.printId, object: 'print', deleted: true });
		await until(() => held(rejected.printId) === undefined, 30, 'the draft deleted');
		expect(everCreated(rejected.printId)).toMatchObject({ confirmed: false, confirmed_at: null });
		const runs = await settledRuns(APPROVAL_TWINS.decided.id, 2);
		expect(runs.map((r) => r.status)).toEqual(['success', 'success']);
		// Approving after the rejection cannot bring the draft back or post it.
		expect((await fetch(rejected.approve)).ok).toBe(false);
		expect(fake.prints.created.filter((job) => job.confirmed).map((job) => job.id)).toEqual([approved.printId]);
	});

	it('an Approve link naming another draft does not post this one (n8n 1.x resume URLs are guessable): it is deleted', async () => {
		const forged = await startRun(APPROVAL_TWINS.decided.path);
		expect(forged.approve).toContain(`print=${forged.printId}`);
		const click = await fetch(forged.approve.replace(forged.printId, 'print_0000000000000000'));
		expect(click.status, await click.clone().text()).toBe(200);
		expect(await click.json()).toMatchObject({ id: forged.printId, deleted: true });
		expect(held(forged.printId)).toBeUndefined();
		expect(everCreated(forged.printId)).toMatchObject({ confirmed: false });
		expect((await settledRuns(APPROVAL_TWINS.decided.id, 3)).map((r) => r.status)).toEqual(['success', 'success', 'success']);
	});

	it('deletes a draft nobody answers once the wait runs out (the example waits 7 days; this twin 5 seconds)', async () => {
		const unanswered = await startRun(APPROVAL_TWINS.unanswered.path);
		expect(held(unanswered.printId)).toMatchObject({ confirmed: false });
		// n8n looks for runs whose wait is over once a minute.
		await until(() => held(unanswered.printId) === undefined, 150, 'the unanswered draft deleted');
		expect(everCreated(unanswered.printId)).toMatchObject({ confirmed: false });
		const [run] = await settledRuns(APPROVAL_TWINS.unanswered.id, 1);
		expect(run.status).toBe('success');
		expect(fake.prints.created.filter((job) => job.confirmed).map((job) => job.id)).toEqual([approved.printId]);
	});
});
