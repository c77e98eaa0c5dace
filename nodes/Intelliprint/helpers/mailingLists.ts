import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, EXPECT } from '../transport';
import type { Recipient } from './recipients';

/** Recipients per request: large lists go in few requests, each well inside the API's body limit. */
export const RECIPIENTS_PER_REQUEST = 1000;

export interface MailingList extends IDataObject {
	id: string;
	name?: string;
	recipients?: number;
}

function chunks<T>(entries: T[], size = RECIPIENTS_PER_REQUEST): T[][] {
	const parts: T[][] = [];
	for (let start = 0; start < entries.length; start += size) parts.push(entries.slice(start, start + size));
	return parts;
}

/**
 * Appends recipients to a list (the first request may also replace the old ones and change other
 * fields), in as few requests as the API allows. Returns the list as the last answer shows it.
 */
export async function sendRecipients(
	ctx: IExecuteFunctions,
	listId: string,
	recipients: Recipient[],
	itemIndex: number,
	first: IDataObject = {},
): Promise<MailingList> {
	let list: MailingList | undefined;
	const parts = recipients.length ? chunks(recipients) : [[]];
	for (const [index, part] of parts.entries()) {
		const json: IDataObject = { ...(index === 0 ? first : {}), ...(part.length ? { recipients: part } : {}) };
		list = await apiRequest<MailingList>(ctx, { expect: EXPECT.mailingList, method: 'POST', path: `/mailing_lists/${listId}`, json, itemIndex });
	}
	return list!;
}

/**
 * How a recipient is recognised when read back: the same address and variables, written the same
 * way (the API may store "1 Mill Lane, Bath" as two lines, or a postcode without its space).
 */
export function recipientKey(recipient: { address?: IDataObject; variables?: IDataObject }): string {
	const { name, line, postcode, country } = recipient.address ?? {};
	const lines = String(line ?? '').split(/\n|,/).map((part) => part.trim()).filter(Boolean);
	const variables = Object.entries(recipient.variables ?? {})
		.map(([key, value]) => [key, String(value)])
		.sort(([a], [b]) => a.localeCompare(b));
	return JSON.stringify([String(name ?? '').trim(), lines, String(postcode ?? '').replace(/\s+/g, '').toUpperCase(), country ?? 'GB', variables]);
}
