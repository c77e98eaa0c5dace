import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, encodeMultipart, flattenFormFields, type FormObject, EXPECT } from '../transport';
import type { ConfirmPass } from '../transport/confirmPass';
import { recordConfirmed, noteJob } from '../results';
import type { PrintJob } from '../results';

/**
 * Sends changes to a draft print job. When the API refuses, looks the job up: a job that is already
 * confirmed gets a plain explanation rather than the API's generic refusal.
 */
export async function updatePrintJob(
	ctx: IExecuteFunctions,
	id: string,
	body: FormObject,
	itemIndex: number,
	action: string,
	/** The spending gate's pass, when the body confirms (see spending/spending.ts). */
	confirmPass?: ConfirmPass,
): Promise<PrintJob> {
	try {
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob,
			method: 'POST',
			path: `/prints/${id}`,
			multipart: encodeMultipart(flattenFormFields(body)),
			itemIndex,
			confirmPass,
		});
		// Every confirm of an existing job passes here (with the gate's pass): the run's account and ledger learn of it.
		if (confirmPass && job.confirmed) {
			recordConfirmed(ctx, job.id);
			noteJob(ctx, job);
		}
		return job;
	} catch (error) {
		// Only a refusal of the values (400) can mean "already confirmed"; after a 429, an auth or
		// payment refusal, a lookup would only spend another request.
		const refused = (error as NodeApiError).httpCode === '400';
		// Re-wrapping hands back the same NodeApiError instance.
		if (!refused) throw new NodeApiError(ctx.getNode(), error as JsonObject);
		const job = await apiRequest<PrintJob>(ctx, { expect: EXPECT.printJob, method: 'GET', path: `/prints/${id}`, itemIndex });
		if (!job.confirmed) throw new NodeApiError(ctx.getNode(), error as JsonObject);
		const when = typeof job.confirmed_at === 'number' ? ` on ${new Date(job.confirmed_at * 1000).toISOString()}` : '';
		throw new NodeOperationError(ctx.getNode(), `Print job ${id} is already confirmed, so it cannot be ${action}`, {
			itemIndex,
			description: `It was sent to print${when}. Nothing was changed. To stop letters that have not been printed yet, use the "Cancel or Delete" operation.`,
		});
	}
}
