import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem } from './errorItem';
import { itemReader } from './itemFields';
import { recipientMapping } from './recipientMapping';
import { textValue } from './values';

export interface Recipient extends IDataObject {
	address: { name: string; line: string; postcode: string; country: string };
	variables: Record<string, string>;
}

/** Lines given as a list (from separate fields) become one text, one line each, empty ones dropped. */
function addressLine(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string | undefined {
	if (!Array.isArray(value)) return textValue(ctx, itemIndex, value, 'Address Lines')?.trim();
	const lines = value.map((line) => textValue(ctx, itemIndex, line, 'Address Lines')?.trim()).filter(Boolean);
	return lines.length ? lines.join('\n') : undefined;
}

function countryCode(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string {
	const text = textValue(ctx, itemIndex, value, 'Country')?.trim().toUpperCase();
	if (!text) return 'GB';
	// "UK" is what most spreadsheets say; ISO 3166-1 says GB.
	if (text === 'UK') return 'GB';
	if (!/^[A-Z]{2}$/.test(text)) {
		throw new NodeOperationError(ctx.getNode(), `"${text}" is not a two-letter country code`, {
			itemIndex,
			description: 'Give the country as its ISO 3166-1 code, e.g. GB, IE or FR, or leave it empty for GB.',
		});
	}
	return text;
}

function variablesOf(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const mode = itemReader(ctx, 'variables', 'all')(itemIndex) as string;
	const json = ctx.getInputData()[itemIndex]?.json ?? {};
	const variables: Record<string, string> = {};
	if (mode === 'none') return variables;
	if (mode === 'all') {
		for (const [key, value] of Object.entries(json)) {
			// Placeholders hold text: nested objects and lists have no single value to print.
			if (['string', 'number', 'boolean'].includes(typeof value)) variables[key] = String(value);
		}
		return variables;
	}
	const names = String(itemReader(ctx, 'variableFields', '')(itemIndex)).split(',').map((name) => name.trim()).filter(Boolean);
	for (const name of names) {
		const value = json[name];
		if (value === undefined || value === null) continue;
		variables[name] = typeof value === 'boolean' ? String(value) : (textValue(ctx, itemIndex, value, `Variable "${name}"`) ?? '');
	}
	return variables;
}

/**
 * The recipient an item stands for: its address as the node maps it (see recipientMapping.ts), and
 * its variables. A missing name, address or postcode is refused on that item before anything is sent.
 */
export function recipientOf(ctx: IExecuteFunctions, itemIndex: number): Recipient {
	const mapping = recipientMapping(ctx);
	const raw = mapping.read(itemIndex);
	const name = textValue(ctx, itemIndex, raw.name, 'Recipient Name')?.trim();
	const line = addressLine(ctx, itemIndex, raw.address);
	const postcode = textValue(ctx, itemIndex, raw.postcode, 'Postcode')?.trim();
	const missing = [!name && 'name', !line && 'address lines', !postcode && 'postcode'].filter(Boolean);
	if (missing.length) {
		const fields = Object.keys(ctx.getInputData()[itemIndex]?.json ?? {});
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1} has no ${missing.join(', no ')} for its letter`, {
			itemIndex,
			description: `${mapping.hint}${fields.length ? ` (it has: ${fields.slice(0, 20).join(', ')})` : ''}, or fill in the missing values.`,
		});
	}
	return {
		address: { name: name!, line: line!, postcode: postcode!, country: countryCode(ctx, itemIndex, raw.country) },
		variables: variablesOf(ctx, itemIndex),
	};
}

export interface RunRecipients {
	recipients: Recipient[];
	/** The item each recipient came from. */
	itemIndexes: number[];
	/** Items that could not be a recipient, as error items (Continue On Fail only). */
	errorItems: INodeExecutionData[];
}

/**
 * The recipients of all input items, for one request. With Continue On Fail the items that cannot
 * be a recipient are set aside as error items and the others still go; without it the first one
 * stops the run before anything is sent.
 */
export function recipientsOfAllItems(ctx: IExecuteFunctions): RunRecipients {
	const run: RunRecipients = { recipients: [], itemIndexes: [], errorItems: [] };
	const add = (itemIndex: number) => {
		run.recipients.push(recipientOf(ctx, itemIndex));
		run.itemIndexes.push(itemIndex);
	};
	const keepGoing = ctx.continueOnFail();
	ctx.getInputData().forEach((_, itemIndex) => {
		if (!keepGoing) return add(itemIndex);
		try {
			add(itemIndex);
		} catch (error) {
			run.errorItems.push(errorItem(ctx, error as NodeOperationError, itemIndex));
		}
	});
	return run;
}

/** All items' recipients when the operation takes them from the items, else none for this item. */
export function recipientsForRun(ctx: IExecuteFunctions, fromItems: boolean, itemIndex: number): RunRecipients {
	return fromItems ? recipientsOfAllItems(ctx) : { recipients: [], itemIndexes: [itemIndex], errorItems: [] };
}
