import type { IExecuteFunctions, NodeError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { createHash } from 'crypto';

import type { Recipient } from '../addresses';

/**
 * A mail run of more rows than "Letters per Print Job" is sent as several print jobs. Under "Skip
 * Items Already Sent" each part's key names the input items it holds and what they said,
 * `<run key>#<first>-<last>/<count>/<digest of their addresses>` (item numbers from 1), not its
 * position: a rerun with another "Letters per Print Job" still sees which rows went out, and sends
 * only the others.
 */
export interface Part {
	/** Input item indexes of the part's letters, in order. */
	rows: number[];
	/** Its sent key, when the run has one. */
	sentKey?: string;
	/** The print job that already holds these rows (a rerun). */
	sentAs?: string;
	/** The postage service of its letters: one per print job. */
	service?: string;
}

export interface SentPart {
	from: number;
	to: number;
	count: number;
	digest: string;
	printJobId: string;
}

const PART_KEY = /#(\d+)-(\d+)\/(\d+)\/([\w-]+)$/;

/** The parts of a run already on Intelliprint, from the sent keys found: key → print job ID. */
export function sentPartsOf(runKey: string, found: Map<string, string>): SentPart[] {
	const parts: SentPart[] = [];
	for (const [key, printJobId] of found) {
		if (!key.startsWith(`${runKey}#`)) continue;
		const match = PART_KEY.exec(key);
		if (match && key.length === runKey.length + match[0].length) {
			parts.push({ from: Number(match[1]) - 1, to: Number(match[2]) - 1, count: Number(match[3]), digest: match[4], printJobId });
		}
	}
	return parts;
}

/**
 * Splits the rows (input item indexes, ascending) into parts of at most `perJob` letters. Rows that
 * an earlier run sent are given as that run's parts; a part never spans rows sent before. A sent
 * part whose item range now holds a different number of rows stops the run: the input changed, and
 * guessing could post a letter twice or never.
 */
export function planParts(
	ctx: IExecuteFunctions,
	rows: number[],
	perJob: number,
	runKey: string | undefined,
	sent: SentPart[],
	digestOf: (rows: number[]) => string,
): Part[] {
	const parts: Part[] = [];
	const coveredBy = new Map<number, SentPart>();
	for (const part of [...sent].sort((a, b) => a.from - b.from)) {
		const inside = rows.filter((row) => row >= part.from && row <= part.to);
		if (inside.length === 0) continue;
		if (inside.length !== part.count || digestOf(inside) !== part.digest) {
			throw new NodeOperationError(ctx.getNode(), `Items ${part.from + 1} to ${part.to + 1} changed since print job ${part.printJobId} was made from them`, {
				itemIndex: inside[0],
				description: `That print job holds ${part.count} letters from those items; they now give ${inside.length}${inside.length === part.count ? ' with other addresses' : ''}. Nothing was sent. Run the same items as before, or give this run a new "Skip Items Already Sent" key.`,
			});
		}
		for (const row of inside) coveredBy.set(row, part);
		// Its own key goes with it: should its job be gone (deleted or cancelled since), the part is sent again under it.
		parts.push({ rows: inside, sentAs: part.printJobId, sentKey: `${runKey}#${part.from + 1}-${part.to + 1}/${part.count}/${part.digest}` });
	}
	let segment: number[] = [];
	const flush = () => {
		for (let from = 0; from < segment.length; from += perJob) {
			const chunk = segment.slice(from, from + perJob);
			const key = runKey ? `${runKey}#${chunk[0] + 1}-${chunk[chunk.length - 1] + 1}/${chunk.length}/${digestOf(chunk)}` : undefined;
			parts.push({ rows: chunk, sentKey: key });
		}
		segment = [];
	};
	for (const row of rows) {
		if (coveredBy.has(row)) flush();
		else segment.push(row);
	}
	flush();
	return parts.sort((a, b) => a.rows[0] - b.rows[0]);
}

/**
 * A mail run's parts per postage service (addresses/postage.ts): rows in the UK and abroad go by different services,
 * and a print job has one, so each service's rows are planned as a run of their own. The rows of the service the
 * user chose keep the run's key; another service's carry it with the service named (`<run key>@international`), so a
 * rerun finds each service's parts apart.
 */
export function planPartsByService(
	rows: number[],
	serviceOfRow: (row: number) => string,
	chosen: string,
	plan: (rows: number[], runKey: string | undefined) => Part[],
	runKey: string | undefined,
): Part[] {
	const byService = new Map<string, number[]>();
	for (const row of rows) {
		const service = serviceOfRow(row);
		if (!byService.has(service)) byService.set(service, []);
		byService.get(service)!.push(row);
	}
	const parts = [...byService].flatMap(([service, own]) =>
		plan(own, runKey && service !== chosen ? `${runKey}@${service}` : runKey).map((part) => ({ ...part, service })),
	);
	return parts.sort((a, b) => a.rows[0] - b.rows[0]);
}

/** A short digest of the rows' addresses, in order: the same rows give the same digest on a rerun. */
export function addressDigest(recipientOfRow: Map<number, Recipient>): (rows: number[]) => string {
	return (rows) => {
		const hash = createHash('sha256');
		for (const row of rows) hash.update(JSON.stringify(recipientOfRow.get(row)?.address ?? null));
		return hash.digest('base64url').slice(0, 10);
	};
}

/** A mail run of more rows than "Letters per Print Job" is sent as several print jobs, one part each. */
export interface MailRunPart {
	number: number;
	of: number;
	letters: number;
	sentKey?: string;
	service?: string;
}

/** "Too large" for a mail run names the setting that makes the requests smaller. */
export function explainTooLarge(error: NodeError, part: MailRunPart, bytes: number): NodeError {
	if (error.context.code !== 'body_too_large') return error;
	const megabytes = (bytes / 1024 / 1024).toFixed(1);
	const fewer = Math.max(1, Math.floor(part.letters / 2));
	error.description = [
		`Print job ${part.number} of ${part.of} of this mail run had ${part.letters} letters in a ${megabytes} MB request, more than Intelliprint accepts.`,
		`Set Options → "Letters per Print Job" lower (e.g. ${fewer}), or send fewer fields as variables ("Variables" → "Chosen Fields").`,
		part.number === 1 ? '' : part.sentKey ? 'The print jobs before it were created under their keys: run it again and Skip Items Already Sent sends only the rows they do not hold.' : 'The print jobs before it were created without Skip Items Already Sent, which cannot find them later: run again only the rows they do not hold, or delete them first.',
		error.description ?? '',
	]
		.filter(Boolean)
		.join(' ');
	return error;
}
