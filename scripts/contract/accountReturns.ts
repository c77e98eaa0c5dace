import type { IDataObject } from 'n8n-workflow';

import type { CheckContext } from './accountJobs';

/**
 * `returned-date` on the account: the Status Trigger reads returned letters newest return first, down to the newest
 * return date it read before (nodes/IntelliprintStatusTrigger/watch.ts). The account's returned letters, live and test,
 * are read as it reads them (a page of 100): each job no later in return date than the one before it, and every
 * returned letter dated in Unix seconds, none past tomorrow. An account with no returned letter cannot show it.
 */
const FIELDS = ['id', 'letters.id', 'letters.status', 'letters.returned'];

const newestReturn = (job: IDataObject): number | undefined =>
	((job.letters as IDataObject[] | undefined) ?? []).reduce<number | undefined>((newest, letter) => {
		const date = (letter.returned as IDataObject | null | undefined)?.date;
		return typeof date === 'number' && (newest === undefined || date > newest) ? date : newest;
	}, undefined);

export async function returnedDates(ctx: CheckContext): Promise<void> {
	const tomorrow = Math.floor(Date.now() / 1000) + 86_400;
	let read = 0;
	for (const testmode of [false, true]) {
		const qs = { testmode, 'letters.status': 'returned', sort_field: 'letters.returned.date', sort_order: 'desc', fields: FIELDS, limit: 100 };
		const page = await ctx.client.list('/prints', qs);
		ctx.findings.judge('/prints', qs, page);
		let before: { id: string; date: number } | undefined;
		for (const job of page.data) {
			read++;
			const undated = ((job.letters as IDataObject[] | undefined) ?? []).find((letter) => letter.status === 'returned' && typeof (letter.returned as IDataObject | null | undefined)?.date !== 'number');
			if (undated) return ctx.findings.breach('returned-date', `letter ${String(undated.id)} of print job ${String(job.id)} is returned without a return date (returned: ${JSON.stringify(undated.returned ?? null)})`);
			const date = newestReturn(job);
			if (date === undefined) continue;
			if (date > tomorrow) return ctx.findings.breach('returned-date', `print job ${String(job.id)} has a return date of ${date}, past tomorrow (${tomorrow}): not Unix seconds`);
			if (before && date > before.date) return ctx.findings.breach('returned-date', `sorted on letters.returned.date, newest first, print job ${String(job.id)} (${date}) came after ${before.id} (${before.date})`);
			before = { id: String(job.id), date };
		}
	}
	if (!read) return ctx.findings.notChecked('returned-date', 'the account has no returned letter to read (live or test), so their dates and their order cannot be shown');
	ctx.findings.held('returned-date', `${read} print jobs with returned letters (live and test, newest 100 of each) in the order of their newest return date, every return dated in Unix seconds`);
}
