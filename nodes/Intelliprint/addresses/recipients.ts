import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkAddress, countryOf, postcodeNeeded, type AddressField } from './addressRules';
import { errorItem } from '../results';
import { itemReader, textValue } from '../values';
import { recipientMapping } from './recipientMapping';
import { usedAsTool } from '../agent';
import { INLAND, postageOf } from './postage';

export interface Recipient extends IDataObject {
	address: { name: string; line: string; postcode: string; country: string };
	variables: Record<string, string>;
}

/**
 * The address lines as one text, one line each. Lines given as a list (from separate fields) are
 * joined, empty later ones dropped. The first line must be there whenever any line is: a letter to
 * "Douglas, IM1 1AD" would not arrive, so a blank first line is refused rather than skipped.
 */
function addressLine(ctx: IExecuteFunctions, itemIndex: number, value: unknown): string | undefined {
	const given = Array.isArray(value) ? value : [value];
	const lines = given.flatMap((line) => (textValue(ctx, itemIndex, line, 'Address Lines') ?? '').split('\n')).map((line) => line.trim());
	if (lines.length === 0 || lines.every((line) => !line)) return undefined;
	if (!lines[0]) {
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1}'s first address line is blank`, {
			itemIndex,
			description: `Its later lines are "${lines.filter(Boolean).join(', ')}": a postable address starts with its first line (house or company and street). Fill in the first line, or move the lines up by one.`,
		});
	}
	return lines.filter(Boolean).join('\n');
}

/** What the address is for, in the words of the operation that reads it: only a print job makes a letter. */
const PURPOSE: Record<string, string> = { printJob: ' for its letter', mailingList: ' for the mailing list', mailingListRecipient: ' for the mailing list' };

/** The labels of the recipient fields, as the panel and the tool's arguments name them. */
const FIELD_LABELS: Record<AddressField, string> = { name: 'Recipient Name', address: 'Address Lines', postcode: 'Postcode', country: 'Country' };

function variablesOf(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const mode = itemReader(ctx, 'variables', 'all')(itemIndex) as string;
	const json = ctx.getInputData()[itemIndex]?.json ?? {};
	const variables: Record<string, string> = {};
	if (mode === 'none') return variables;
	if (mode === 'all') {
		for (const [key, value] of Object.entries(json)) {
			// Placeholders hold text: nested objects and lists have no single value to print.
			const type = typeof value;
			if (type === 'string' || type === 'number' || type === 'boolean') variables[key] = String(value);
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
 * its variables (none for a letter without placeholders). A missing name, address or postcode is refused on that item before anything is sent.
 */
export function recipientOf(ctx: IExecuteFunctions, itemIndex: number, withVariables = true): Recipient {
	const mapping = recipientMapping(ctx);
	const raw = mapping.read(itemIndex);
	const name = textValue(ctx, itemIndex, raw.name, 'Recipient Name')?.trim();
	const line = addressLine(ctx, itemIndex, raw.address);
	const postcode = textValue(ctx, itemIndex, raw.postcode, 'Postcode')?.trim();
	const country = textValue(ctx, itemIndex, raw.country, 'Country') ?? '';
	// A postcode is missing only where the country uses them: Hong Kong, Ireland's rural addresses and many more have none.
	// Abroad, the country's own rule says it, with the form of its postcodes ("A letter to France (FR) needs a postcode").
	const place = countryOf(country);
	const abroad = !('problem' in place) && !INLAND.has(place.code) && !usedAsTool(ctx);
	const fields = [[name, 'name', 'Recipient Name', 'name'], [line, 'address lines', 'Address Lines', 'address'], [postcode || abroad || !postcodeNeeded(country) ? 'given' : '', 'postcode', 'Postcode', 'postcode']] as const;
	const missing = fields.filter(([value]) => !value);
	if (missing.length) {
		const error = new NodeOperationError(ctx.getNode(), `Item ${itemIndex + 1} has no ${missing.map(([, what]) => what).join(', no ')}${PURPOSE[String(ctx.getNodeParameter('resource', itemIndex, ''))] ?? ''}`, { itemIndex });
		error.context.addressField = missing[0][3];
		// A field the row holds but left empty is a value to fill in, not a mapping to change.
		// (Lines read by their column names come as a list whether or not the column is there: not told apart.)
		const blank = missing.filter(([, , , field]) => raw[field] !== undefined && raw[field] !== null && !Array.isArray(raw[field]));
		if (usedAsTool(ctx)) {
			// In the labels of the tool's arguments, which errorForModel turns into their names. (The
			// item holds the call's own bookkeeping, toolCallId and such: no use to the model.)
			error.description = `Ask the user for the ${missing.map(([, what]) => what).join(' and ')} rather than guessing, then call the tool again with ${missing.map(([, , label]) => `"${label}"`).join(' and ')} filled in.`;
			error.context.adviceForModel = true;
		} else if (blank.length === missing.length) {
			const which = blank.map(([, what]) => what).join(' and ');
			error.description = `The row has ${which} but ${blank.length === 1 ? 'it is' : 'they are'} empty: fill in the ${which} in the source, or leave the row out.`;
		} else {
			const keys = Object.keys(ctx.getInputData()[itemIndex]?.json ?? {});
			error.description = `${mapping.hint}${keys.length ? ` (it has: ${keys.slice(0, 20).join(', ')})` : ''}, or fill in the missing values.`;
		}
		throw error;
	}
	// Checked before anything is sent: a letter to an address that cannot arrive is still paid for.
	const verdict = checkAddress(name!, line!, postcode ?? '', country);
	if (!verdict.ok) {
		const error = new NodeOperationError(ctx.getNode(), `${verdict.reason} (row ${itemIndex + 1})`, { itemIndex, description: verdict.fix });
		error.context.addressField = verdict.field;
		// A model is told which of its arguments (errorForModel turns the label into the argument's name).
		if (usedAsTool(ctx)) error.message = `"${FIELD_LABELS[verdict.field]}" was refused: ${verdict.reason}`;
		throw error;
	}
	// A letter goes by a service that can carry it there (postage.ts): refused here, with the address, before anything is sent.
	if (itemReader(ctx, 'resource', '')(itemIndex) === 'printJob') postageOf(ctx, itemIndex, verdict.address.country);
	return { address: verdict.address, variables: withVariables ? variablesOf(ctx, itemIndex) : {} };
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
 * be a recipient are set aside as error items and the others still go; without it nothing is sent,
 * and one error names every refused row (see refusedRows).
 */
export function recipientsOfAllItems(ctx: IExecuteFunctions, withVariables = true): RunRecipients {
	const run: RunRecipients = { recipients: [], itemIndexes: [], errorItems: [] };
	const refused: NodeOperationError[] = [];
	ctx.getInputData().forEach((_, itemIndex) => {
		try {
			run.recipients.push(recipientOf(ctx, itemIndex, withVariables));
			run.itemIndexes.push(itemIndex);
		} catch (error) {
			refused.push(error as NodeOperationError);
			run.errorItems.push(errorItem(ctx, error as NodeOperationError, itemIndex));
		}
	});
	if (refused.length && !ctx.continueOnFail()) throw refusedRows(ctx, refused);
	return run;
}

/** Every item's address checked before any is sent (On Error: Stop Workflow): the refused rows in one error. */
export function refuseUnpostableRows(ctx: IExecuteFunctions): void {
	const refused: NodeOperationError[] = [];
	ctx.getInputData().forEach((_, itemIndex) => {
		try {
			recipientOf(ctx, itemIndex, false);
		} catch (error) {
			refused.push(error as NodeOperationError);
		}
	});
	if (refused.length) throw refusedRows(ctx, refused);
}

/** One error for the rows that cannot be posted: the first ten by their reasons, and how many more. */
function refusedRows(ctx: IExecuteFunctions, refused: NodeOperationError[]): NodeOperationError {
	if (refused.length === 1) return refused[0];
	const rows = ctx.getInputData().length;
	const listed = refused.slice(0, 10).map((error) => error.message);
	return new NodeOperationError(ctx.getNode(), `${refused.length} of ${rows} rows cannot be posted, so nothing was sent`, {
		itemIndex: refused[0].context.itemIndex as number,
		description: `${listed.join('; ')}${refused.length > 10 ? `; and ${refused.length - 10} more` : ''}. Correct them and run again, or set On Error to "Continue" (or "Continue (using error output)") to send the other rows and get each refused one on its own item.`,
	});
}
