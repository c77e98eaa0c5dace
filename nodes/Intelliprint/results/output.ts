import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { downloadFile } from '../transport';

/** Amounts are integers with 8 implied decimals. */
const AMOUNT_SCALE = 100_000_000;

interface Cost {
	amount?: number;
	after_tax?: number;
	currency?: string;
}

export interface Letter extends IDataObject {
	id: string;
	status?: string;
	address?: { name?: string; line?: string; postcode?: string; country?: string };
	cost?: Cost;
	pdf?: string | null;
}

export interface PrintJob extends IDataObject {
	id: string;
	letters?: Letter[];
	cost?: Cost;
}

export function toGbp(amount: number | undefined): number | null {
	return typeof amount === 'number' ? Math.round(amount) / AMOUNT_SCALE : null;
}

/** Pence, whole where the API's amount is (letters are priced in whole pence), so sums add up exactly. */
function toPence(amount: number | undefined): number | null {
	return typeof amount === 'number' ? Math.round(amount / (AMOUNT_SCALE / 100) * 1e6) / 1e6 : null;
}

function costFields(cost: Cost | undefined): IDataObject {
	return {
		cost_gbp: toGbp(cost?.amount),
		cost_after_tax_gbp: toGbp(cost?.after_tax),
		// Summing GBP decimals over many letters shows float noise (97.19999999999997); pence do not.
		cost_pence: toPence(cost?.amount),
		cost_after_tax_pence: toPence(cost?.after_tax),
		currency: cost?.currency ?? 'GBP',
	};
}

function countByStatus(letters: Letter[]): IDataObject {
	const counts: IDataObject = {};
	for (const letter of letters) {
		const status = letter.status ?? 'unknown';
		counts[status] = ((counts[status] as number) ?? 0) + 1;
	}
	return counts;
}

export function simplifyPrintJob(job: PrintJob): IDataObject {
	const letters = job.letters ?? [];
	return {
		id: job.id,
		reference: job.reference,
		type: job.type,
		confirmed: job.confirmed,
		testmode: job.testmode,
		pages: job.pages,
		sheets: job.sheets,
		letter_count: letters.length,
		letter_statuses: countByStatus(letters),
		// A mixed UK and abroad mail run is one job per service: which one this is, without reading its letters.
		postage_service: (job.postage as IDataObject | undefined)?.service ?? null,
		...costFields(job.cost),
		created: job.created,
		confirmed_at: job.confirmed_at,
		metadata: job.metadata,
	};
}

export function simplifyLetter(letter: Letter, job: PrintJob): IDataObject {
	return {
		id: letter.id,
		print_id: job.id,
		reference: job.reference,
		status: letter.status,
		name: letter.address?.name,
		address: letter.address?.line,
		postcode: letter.address?.postcode,
		country: letter.address?.country,
		pages: letter.pages,
		sheets: letter.sheets,
		postage_service: letter.postage_service,
		envelope: letter.envelope,
		tracking_number: letter.tracking_number,
		shipped_date: letter.shipped_date,
		...costFields(letter.cost),
		testmode: job.testmode,
	};
}

/** One letter as an item's JSON: simplified, or as the API sent it plus its print job's ID and reference. */
export function letterJson(letter: Letter, job: PrintJob, simplify: boolean): IDataObject {
	return simplify ? simplifyLetter(letter, job) : { ...letter, print_id: job.id, print_reference: job.reference };
}

/**
 * Items for print jobs, shaped as the user asked on the node: each job, or one item per letter
 * (optionally with the letter's PDF downloaded), simplified or as the API sent it.
 */
export interface ItemShape {
	/** Added to every item's JSON, e.g. `already_sent`. */
	extra?: IDataObject;
	/** For a job made from several input items (a mail run): the job pairs with all of them. */
	fromItems?: number[];
	/** Added to the job's item only (not its letters'), e.g. which of its rows changed address. */
	jobExtra?: IDataObject;
	/**
	 * A mail run's letter: the input items it carried (found by its address, rowRecords/), and extra fields for it.
	 * A letter that carried none of this run's items is left out when `onlyOwnLetters` (a job an earlier run made).
	 */
	rowsOfLetter?: (letter: Letter) => { rows: number[]; extra?: IDataObject };
	onlyOwnLetters?: boolean;
}

export async function printJobItems(
	ctx: IExecuteFunctions,
	jobs: PrintJob[],
	itemIndex: number,
	{ extra = {}, fromItems, jobExtra, rowsOfLetter, onlyOwnLetters }: ItemShape = {},
): Promise<INodeExecutionData[]> {
	const output = ctx.getNodeParameter('output', itemIndex, 'printJob') as string;
	const simplify = ctx.getNodeParameter('simplify', itemIndex, true) as boolean;
	const pairedItem = fromItems ? fromItems.map((item) => ({ item })) : { item: itemIndex };

	const jobItem = (job: PrintJob) => ({ json: { ...(simplify ? simplifyPrintJob(job) : job), ...extra, ...jobExtra }, pairedItem });
	if (output !== 'letters') return jobs.map(jobItem);

	const download = ctx.getNodeParameter('downloadLetterPdfs', itemIndex, false) as boolean;
	const property = ctx.getNodeParameter('letterPdfBinaryProperty', itemIndex, 'data') as string;
	const items: INodeExecutionData[] = [];
	for (const job of jobs) {
		// A job without letters (all removed by a phrase, say) still comes out, as the job itself.
		if (!job.letters?.length) items.push(jobItem(job));
		for (const letter of job.letters ?? []) {
			const own = rowsOfLetter?.(letter);
			if (onlyOwnLetters && !own?.rows.length) continue;
			const pairs = own?.rows.length ? (own.rows.length === 1 ? { item: own.rows[0] } : own.rows.map((item) => ({ item }))) : pairedItem;
			const item: INodeExecutionData = { json: { ...letterJson(letter, job, simplify), ...extra, ...own?.extra }, pairedItem: pairs };
			if (download && letter.pdf) {
				const file = await downloadFile(ctx, letter.pdf, `the PDF of letter ${letter.id}`, itemIndex);
				item.binary = { [property]: await ctx.helpers.prepareBinaryData(file.data, `${letter.id}.pdf`, 'application/pdf') };
			}
			items.push(item);
		}
	}
	return items;
}
