import type { IDataObject } from 'n8n-workflow';

import { METADATA_BUDGET, NODE_ENTRIES } from '../../nodes/Intelliprint/rowRecords';
import { describeBody } from './accountClient';
import { postDraft, type CheckContext } from './accountJobs';

/**
 * `metadata-budget` on the account: a keyed mail run keeps every row's key, Row ID and address digest in its jobs'
 * metadata (rowRecords/), up to the budget the node assumes (50 entries, names of 40 characters, values of 500). One
 * test draft carries that much, with the check's own entry, and is read back alone: every entry must come back as
 * sent. It is deleted in the clean-up.
 */
export async function metadataBudget(ctx: CheckContext): Promise<void> {
	const reference = `n8n-check-${ctx.run}-budget`;
	const fields: Record<string, string> = {};
	// The check's own entry (n8n_check) makes the 50th.
	for (let entry = 0; entry < METADATA_BUDGET.entries - 1; entry++) {
		const name = `n8n_budget_${String(entry).padStart(2, '0')}_`.padEnd(METADATA_BUDGET.nameChars, 'x');
		fields[`metadata[${name}]`] = `${entry}:`.padEnd(METADATA_BUDGET.valueChars, String.fromCharCode(97 + (entry % 26)));
	}
	const what = `a test draft with ${METADATA_BUDGET.entries} metadata entries (names of ${METADATA_BUDGET.nameChars} characters, values of ${METADATA_BUDGET.valueChars})`;
	const answer = await postDraft(ctx, reference, { content: '<p>n8n check</p>', ...fields });
	const made = ctx.made.find((job) => job.reference === reference);
	if (!made) return ctx.findings.breach('metadata-budget', `${what} was refused: HTTP ${answer.status}: ${describeBody(answer.body)}`);
	const read = await ctx.client.send('GET', `/prints/${made.id}`);
	const kept = ((read.body as IDataObject | undefined)?.metadata ?? {}) as IDataObject;
	if (ctx.findings.broken('metadata-kept')) return ctx.findings.notChecked('metadata-budget', `${what}, ${made.id}, was made, but this API does not keep metadata at all (metadata-kept), so how much it keeps cannot be told`);
	const lost = Object.entries(fields).filter(([field, value]) => kept[field.slice('metadata['.length, -1)] !== value);
	if (lost.length) {
		const [field] = lost[0];
		const name = field.slice('metadata['.length, -1);
		const got = kept[name];
		return ctx.findings.breach('metadata-budget', `${what}, ${made.id}, was read back with ${lost.length} entries not as sent, e.g. ${name}: ${typeof got === 'string' ? `${got.length} characters` : JSON.stringify(got ?? null)}`);
	}
	ctx.findings.held('metadata-budget', `${what}, ${made.id}, was read back whole: a mail run's part may use ${METADATA_BUDGET.entries - NODE_ENTRIES} of them for its rows (deleted at the end)`);
}
