import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { IntelliprintContext } from './connection';
import { connectionSettings } from './connection';
import { CONTRACT, type AssumptionId } from './contract';
import { metadataBreach, type Breach } from './contractChecks';

/** The assumption of the API contract (contract.ts) an error says was broken, when it is such an error. */
export function brokenAssumption(error: unknown): AssumptionId | undefined {
	return (error as NodeApiError | undefined)?.context?.brokenAssumption as AssumptionId | undefined;
}

/** The message for an answer that broke the contract: what it did, what the node relies on, what was not done. */
export function contractError(ctx: IntelliprintContext, what: string, breach: Breach, itemIndex?: number, outcome = 'nothing that depends on it was sent or confirmed'): NodeApiError {
	const error = new NodeApiError(ctx.getNode(), {}, {
		message: `${what} is not as the node relies on ("${breach.assumption}"): ${breach.detail}`,
		description:
			`The node relies on this: ${CONTRACT[breach.assumption].replace(/`/g, '"')}. It checks that on every answer and stops rather than guess: ${outcome}. ` +
			`docs/api-contract.md in the package's repository explains each assumption, and its "npm run check:api" checks your account against all of them.`,
		itemIndex,
	});
	error.context.brokenAssumption = breach.assumption;
	return error;
}

/** Credentials (by fingerprint) whose API was seen to drop metadata: their keyed and limited creates are refused. */
const metadataDropped = new Map<string, Breach>();

/**
 * The door before a create whose guarantee lives in metadata (a sent key, a claim on the day): refused, with
 * nothing made, once this process saw the API drop metadata on this credential.
 */
export async function refuseWhereMetadataDropped(ctx: IntelliprintContext, itemIndex: number): Promise<void> {
	const breach = metadataDropped.get((await connectionSettings(ctx)).limitKey);
	if (breach) throw contractError(ctx, 'An earlier answer of Intelliprint', breach, itemIndex, 'nothing was created for this item');
}

/**
 * The door after such a create: the answer must hold the metadata sent. When it does not, the job is named (it
 * exists: a draft is not confirmed; one confirmed at once went out), and the credential's later creates are refused.
 */
export async function keptMetadataOrThrow(ctx: IntelliprintContext, sent: IDataObject | undefined, job: { id?: unknown; confirmed?: unknown; metadata?: unknown }, itemIndex: number): Promise<void> {
	const breach = metadataBreach(sent, job);
	if (!breach) return;
	metadataDropped.set((await connectionSettings(ctx)).limitKey, breach);
	const made = job.confirmed === true ? `print job ${String(job.id)} was made and confirmed (it goes out), but a rerun cannot find it` : `print job ${String(job.id)} stays a draft and was not confirmed`;
	throw contractError(ctx, "Intelliprint's answer to the create", breach, itemIndex, `${made}; the next items that need metadata are refused with nothing made`);
}
