import type { IDataObject } from 'n8n-workflow';

import { CONTRACT, listBreach, type AssumptionId, type ListAnswer } from '../../nodes/Intelliprint/transport';
import { listRequest } from './accountClient';
import { DETAILS } from './details';

export type Verdict = 'held' | 'broken' | 'not checked';

/** One row of the contract as the check saw it on the account. */
export interface CheckRow {
	assumption: AssumptionId;
	verdict: Verdict;
	detail: string;
}

/**
 * What the steps of the check saw, per assumption: the first breach, what was seen to hold, or why it was not
 * checked. The verdicts come from here alone, so every step only reports what it saw.
 */
export class Findings {
	/** List answers judged by the contract's own checks (listBreach), and how many were asked with `fields[]`. */
	listsJudged = 0;
	projectedJudged = 0;
	private readonly breaches = new Map<AssumptionId, string>();
	private readonly notes = new Map<AssumptionId, string[]>();
	private readonly skipped = new Map<AssumptionId, string>();
	private readonly settled = new Set<AssumptionId>();

	breach(id: AssumptionId, detail: string): void {
		if (!this.breaches.has(id)) this.breaches.set(id, detail);
	}

	broken(id: AssumptionId): boolean {
		return this.breaches.has(id);
	}

	/** What was seen to hold; a `lead` note (the sum of every list read) goes before the steps' own. */
	held(id: AssumptionId, note: string, lead = false): void {
		const notes = this.notes.get(id) ?? [];
		this.notes.set(id, lead ? [note, ...notes] : [...notes, note]);
	}

	notChecked(id: AssumptionId, why: string): void {
		if (!this.skipped.has(id)) this.skipped.set(id, why);
	}

	/** The assumptions whose steps are all done: their verdicts stand even when a later step stops the check. */
	settle(...ids: AssumptionId[]): void {
		for (const id of ids) this.settled.add(id);
	}

	/** A list answer judged by the node's own rules (contractChecks.ts): its first breach is kept, named by its query. */
	judge(path: string, qs: IDataObject, page: ListAnswer, previous?: ListAnswer): void {
		this.listsJudged++;
		if (qs.fields !== undefined) this.projectedJudged++;
		const breach = listBreach(path, qs, page, previous);
		if (breach) this.breach(breach.assumption, `${listRequest(path, qs)}: ${breach.detail}`);
	}

	/** One row per assumption, in the contract's order. `stopped` says why the check ended early, if it did. */
	rows(stopped?: string): CheckRow[] {
		return (Object.keys(CONTRACT) as AssumptionId[]).map((assumption): CheckRow => {
			const breach = this.breaches.get(assumption);
			if (breach) return { assumption, verdict: 'broken', detail: breach };
			const why = this.skipped.get(assumption);
			if (why) return { assumption, verdict: 'not checked', detail: why };
			const seen = (this.notes.get(assumption) ?? []).join('; ');
			if (stopped && !this.settled.has(assumption)) {
				return { assumption, verdict: 'not checked', detail: `the check stopped before it was done (${stopped})${seen ? `; seen so far: ${seen}` : ''}` };
			}
			if (!seen) return { assumption, verdict: 'not checked', detail: 'no step of the check saw it' };
			return { assumption, verdict: 'held', detail: seen };
		});
	}
}

/** Breaks `text` into lines of at most `width` characters, at spaces where it can. */
function wrap(text: string, width: number): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(/\s+/).filter(Boolean)) {
		for (let rest = word; rest; ) {
			const room = line ? width - line.length - 1 : width;
			if (rest.length <= room) {
				line = line ? `${line} ${rest}` : rest;
				rest = '';
			} else if (line) {
				lines.push(line);
				line = '';
			} else {
				lines.push(rest.slice(0, width));
				rest = rest.slice(width);
			}
		}
	}
	return line ? [...lines, line] : lines.length ? lines : [''];
}

/** What the node does when the assumption is broken (details.ts), with the row it refers to ("as for list-order") spelt out. */
function onBreach(id: AssumptionId): string {
	const text = DETAILS[id].onBreach;
	const other = /as for ([a-z-]+)\.$/.exec(text)?.[1] as AssumptionId | undefined;
	return other && other in DETAILS ? `${text.slice(0, -1)}: ${DETAILS[other].onBreach}` : text;
}

/**
 * The rows as a plain-text table for a terminal (about 110 columns): assumption, verdict, detail wrapped; under each
 * broken row, what the node does when it meets that answer (the contract's onBreach). A count of each verdict last.
 */
export function formatTable(rows: CheckRow[], detailWidth = 76): string {
	const idWidth = Math.max('assumption'.length, ...rows.map((row) => row.assumption.length));
	const verdictWidth = 'not checked'.length;
	const pad = (text: string, width: number) => text.padEnd(width);
	const out = [
		`${pad('assumption', idWidth)}  ${pad('verdict', verdictWidth)}  detail`,
		`${'-'.repeat(idWidth)}  ${'-'.repeat(verdictWidth)}  ${'-'.repeat(detailWidth)}`,
	];
	const indent = ' '.repeat(idWidth + verdictWidth + 4);
	for (const row of rows) {
		const detail = wrap(row.detail, detailWidth);
		out.push(`${pad(row.assumption, idWidth)}  ${pad(row.verdict === 'broken' ? 'BROKEN' : row.verdict, verdictWidth)}  ${detail[0]}`);
		for (const line of detail.slice(1)) out.push(`${indent}${line}`);
		if (row.verdict === 'broken') for (const line of wrap(`what the node does: ${onBreach(row.assumption)}`, detailWidth)) out.push(`${indent}${line}`);
	}
	const count = (verdict: Verdict) => rows.filter((row) => row.verdict === verdict).length;
	out.push('', `${rows.length} assumptions: ${count('held')} held, ${count('broken')} broken, ${count('not checked')} not checked.`);
	return out.join('\n');
}
