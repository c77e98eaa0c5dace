import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fitsService, INTERNATIONAL, countryLabel, postageChoiceOf, postageFor, postageOf } from '../addresses';
import type { PrintJob } from '../results';
import { apiRequest, apiRequestAllItems, EXPECT, type FormObject } from '../transport';

/**
 * The one door every print job's postage goes through (docs/letters-abroad.md): before it is made, the service that can
 * carry its letters where they go; after, the API's answer held to it, letter by letter. A draft with a letter on a
 * service that cannot carry it there is never confirmed, and a job confirmed with one (a PDF's own addresses show only
 * in the answer) is cancelled at once: the contract's `postage-abroad`, held to every answer here.
 */

/** What the node knows of a job's postage before it is made. */
export interface JobPostage {
	/** The service to send (undefined: the item's own Postage, or the API's default, for letters whose addresses the node cannot see). */
	service?: string;
	/** The addresses are the PDF's own: only the API's answer shows where the letters go (it is held to them, cancelMisfit). */
	unseen: boolean;
}

/** A print job's service from its recipients: a mail run's part has one already; an item's, or a mailing list's, read here. */
export async function postageOfJob(ctx: IExecuteFunctions, itemIndex: number, sourced: FormObject, partService?: string): Promise<JobPostage> {
	if (partService) return { service: partService, unseen: false };
	const recipients = sourced.recipients as Array<{ address: { country: string } }> | undefined;
	if (recipients?.length) return { service: postageOf(ctx, itemIndex, recipients[0].address.country), unseen: false };
	if (typeof sourced.mailing_list === 'string') return { service: await listService(ctx, itemIndex, sourced.mailing_list), unseen: false };
	return { unseen: true };
}

/** A mailing list's letters go by one service: read from its recipients' countries, or refused when they need two. */
async function listService(ctx: IExecuteFunctions, itemIndex: number, listId: string): Promise<string> {
	const recipients = await apiRequestAllItems<IDataObject>(ctx, `/mailing_lists/${listId}/recipients`, {}, { itemIndex });
	const choice = postageChoiceOf(ctx, itemIndex);
	const countries = new Map<string, number>();
	for (const recipient of recipients) {
		const country = String((recipient.address as IDataObject | undefined)?.country || 'GB').toUpperCase();
		countries.set(country, (countries.get(country) ?? 0) + 1);
	}
	const services = new Map<string, string[]>();
	for (const country of countries.keys()) {
		const verdict = postageFor(country, choice);
		if ('problem' in verdict) {
			throw new NodeOperationError(ctx.getNode(), `Mailing list ${listId} holds ${countries.get(country)} recipient(s) in ${countryLabel(country)}: ${verdict.problem.replace(/^The address is in [^,]+, and /, '')}`, { itemIndex, description: `Nothing was sent. ${verdict.fix}` });
		}
		services.set(verdict.service, [...(services.get(verdict.service) ?? []), country]);
	}
	if (services.size > 1) {
		const abroad = services.get(INTERNATIONAL)!;
		const count = abroad.reduce((sum, country) => sum + countries.get(country)!, 0);
		throw new NodeOperationError(ctx.getNode(), `Mailing list ${listId} holds recipients in the UK and ${count} abroad (${abroad.slice(0, 5).map(countryLabel).join(', ')}${abroad.length > 5 ? '…' : ''})`, {
			itemIndex,
			description:
				'Nothing was sent. A print job goes by one postage service, and a list\'s job takes the whole list. Send its rows instead (Recipients: All Input Items makes one print job per service), or keep UK and foreign recipients on separate lists.',
		});
	}
	return services.keys().next().value ?? choice.service;
}

/**
 * Every letter of the API's answer is on a service that carries it where it goes. A draft that fails stays a draft
 * (named, to delete or fix; its caller hands back a spending claim on it); a job already confirmed is named as such,
 * since nothing the node does can take it back.
 */
export function lettersFit(ctx: IExecuteFunctions, itemIndex: number, job: PrintJob): void {
	const jobService = String((job.postage as IDataObject | undefined)?.service ?? '');
	const misfits = (job.letters ?? []).filter((letter) => !fitsService((letter.address as IDataObject | undefined)?.country as string | undefined, String(letter.postage_service ?? jobService)));
	if (!misfits.length) return;
	const first = misfits[0];
	const country = String((first.address as IDataObject | undefined)?.country || 'GB').toUpperCase();
	const service = String(first.postage_service ?? jobService);
	throw new NodeOperationError(ctx.getNode(), `Print job ${job.id} has ${misfits.length} letter(s) on a service that cannot carry them: ${first.id ?? 'a letter'} to ${countryLabel(country)} goes by ${service}`, {
		itemIndex,
		description: job.confirmed
			? `It was confirmed by Intelliprint as it is: cancel it with Print Job → Cancel or Delete (letters still waiting to print are refunded) and send those letters again with the right service.`
			: `It was kept as a draft and not confirmed. ${service === INTERNATIONAL ? 'Choose a UK service for letters in the UK' : 'Letters abroad go International'}: delete the draft (Print Job → Cancel or Delete) and send again, with the addresses in the UK and abroad in separate jobs.`,
	});
}

/** Update's new service, held to the draft's letters before it is sent: a draft's addresses are fixed, its service is not. */
export async function serviceFitsDraft(ctx: IExecuteFunctions, itemIndex: number, id: string, service: string): Promise<void> {
	const draft = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex });
	const misfits = (draft.letters ?? []).filter((letter) => !fitsService((letter.address as IDataObject | undefined)?.country as string | undefined, service));
	if (!misfits.length) return;
	const countries = [...new Set(misfits.map((letter) => String((letter.address as IDataObject | undefined)?.country || 'GB').toUpperCase()))];
	throw new NodeOperationError(ctx.getNode(), `Service ${service} cannot carry ${misfits.length} of print job ${id}'s letters (to ${countries.slice(0, 5).map(countryLabel).join(', ')})`, {
		itemIndex,
		description: `Nothing was changed. ${service === INTERNATIONAL ? 'International is for letters abroad: choose a UK service for letters in the UK.' : 'Letters abroad go International.'} A job whose letters go both to the UK and abroad cannot have one service: delete it and send its rows again (a mail run makes one print job per service).`,
	});
}

/**
 * A job confirmed on create whose answer shows a letter its service cannot carry (lettersFit's `misfit`): cancelled
 * at once, so that nothing goes underpaid. Deleting a confirmed job cancels its letters still waiting to print and
 * refunds them (the API's lifecycle); one made seconds ago has no letter printing yet. This costs a request only when a
 * letter misfits, where holding every job as a draft until its answer is read would cost one more for every job.
 */
export async function cancelMisfit(ctx: IExecuteFunctions, itemIndex: number, job: PrintJob, misfit: NodeOperationError): Promise<NodeOperationError> {
	let left: string;
	try {
		const after = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'DELETE', path: `/prints/${job.id}`, itemIndex });
		const live = (after.letters ?? []).filter((letter) => letter.status !== 'cancelled');
		left = live.length
			? `Intelliprint cancelled it, but ${live.length} of its letters were no longer waiting to print (${live.map((letter) => `${letter.id}: ${letter.status}`).slice(0, 3).join(', ')}): they may go out as they are; ask Intelliprint's support to stop them.`
			: 'It was cancelled at once, and its letters refunded: none goes out.';
	} catch (error) {
		left = `Cancelling it failed (${(error as Error).message}): cancel it now with Print Job → Cancel or Delete, before its letters print.`;
	}
	misfit.description = `The job's addresses were the PDF's own, so only Intelliprint's answer showed where its letters go. ${left} Send it again with the service that carries them (letters abroad go International), with the addresses in the UK and abroad in separate PDFs.`;
	return misfit;
}
