import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Each line of the nodes' sources that matches (comments left out), as "file: line". */
function linesMatching(pattern: RegExp): string[] {
	const files = (fs.readdirSync(`${ROOT}nodes`, { recursive: true }) as string[]).filter((name) => name.endsWith('.ts')).sort();
	return files.flatMap((name) =>
		fs
			.readFileSync(`${ROOT}nodes/${name}`, 'utf8')
			.split('\n')
			.filter((line) => pattern.test(line) && !/^\s*(\/\/|\*|\/\*\*)/.test(line))
			.map((line) => `nodes/${name}: ${line.trim()}`),
	);
}

describe('every code path that can send confirmed=true goes through the spending gate', () => {
	/**
	 * Every code path that can send confirmed=true, as the source has them. A new one fails here until it is
	 * routed through the spending gate (spending/spending.ts planConfirm / confirmWithinLimits, confirmLine.ts confirmDraft) and listed.
	 */
	it('only the spending gate issues passes, and every pass handed to the transport comes from its plan', () => {
		expect(linesMatching(/issueConfirmPass\(/).filter((line) => !line.startsWith('nodes/Intelliprint/transport/confirmPass.ts'))).toEqual([
			"nodes/Intelliprint/spending/confirmLine.ts: return await updatePrintJob(ctx, draft.id, { confirmed: true, ...metadata }, itemIndex, 'confirmed again', issueConfirmPass(allowed)).catch((error: Error) => {",
			"nodes/Intelliprint/spending/spending.ts: if (ask.testmode === true || (perJob === undefined && daily === undefined)) return { kind: 'now', pass: issueConfirmPass('no limit applies') };",
			// A job made confirmed on create under its run's allowance (docs/spending-limits.md, rule 7).
			"nodes/Intelliprint/spending/spendingRoom.ts: return { metadata: { [UNDER_METADATA]: allowance.claim! }, pass: issueConfirmPass('within an allowance under the daily limit'), settle, release };",
		]);
		const handedOver = linesMatching(/\.pass\b|confirmPass\s*[,}:=]/).filter((line) => !line.startsWith('nodes/Intelliprint/transport/'));
		expect(handedOver).toEqual([
			"nodes/Intelliprint/actions/printJob/createJob.ts: const confirmPass = turn?.under ? turn.under.pass : plan.kind === 'now' && !confirmAfter ? plan.pass : undefined;",
			"nodes/Intelliprint/actions/printJob/createJob.ts: const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'POST', path: '/prints', ...sent, itemIndex, confirmPass }).catch((error: NodeError) => {",
			"nodes/Intelliprint/actions/printJob/update.operation.ts: const changed = Object.keys(body).length ? await updatePrintJob(this, id, body, itemIndex, 'updated', plan?.kind === 'now' ? plan.pass : undefined) : undefined;",
			'nodes/Intelliprint/building/printJobUpdate.ts: confirmPass,',
			"nodes/Intelliprint/spending/spending.ts: if (plan.kind === 'now') return await updatePrintJob(ctx, id, { confirmed: true }, itemIndex, 'confirmed again', plan.pass);",
		]);
		// Where a request body may say confirmed: each one takes its value from the gate's plan.
		expect(linesMatching(/(^\s*|[{,]\s*)confirmed: (?!job\.confirmed)/).filter((line) => !/description|dayRead\.ts/.test(line))).toEqual([
			"nodes/Intelliprint/actions/printJob/createJob.ts: const settings = await buildPrintJobBody(ctx, itemIndex, { ...options, confirmed: plan.kind === 'now' });",
			"nodes/Intelliprint/actions/printJob/update.operation.ts: const body = await buildPrintJobBody(this, itemIndex, { ...groupUpdateFields(fields), confirmed: plan?.kind === 'now' ? true : plan?.kind === 'draft' ? false : undefined }, true);",
			"nodes/Intelliprint/building/printJobBody.ts: confirmed: flag(settings.confirmed, 'Confirm'),",
			"nodes/Intelliprint/spending/confirmLine.ts: return await updatePrintJob(ctx, draft.id, { confirmed: true, ...metadata }, itemIndex, 'confirmed again', issueConfirmPass(allowed)).catch((error: Error) => {",
			"nodes/Intelliprint/spending/spending.ts: if (plan.kind === 'now') return await updatePrintJob(ctx, id, { confirmed: true }, itemIndex, 'confirmed again', plan.pass);",
		]);
	});
});
