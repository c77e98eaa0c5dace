import { isFile } from './body';
import { fail } from './http';

/** A postal address as the API shows it: `line` is everything but the name and the postcode, one line per "\n". */
export interface Address {
	name: string;
	line: string;
	postcode: string;
	country: string;
}

/** One letter's addressee and the values of its placeholders (always text, as the API stores them). */
export interface Recipient {
	address: Address;
	variables: Record<string, string>;
}

/** A recipient body after the schema has checked its types (recipients.ts checks the rest). */
export interface RecipientInput {
	address?: Partial<Address>;
	variables?: unknown;
}

/** Address lines a letter can show in its window below the name (ours: the window holds nine lines in all). */
const MAX_LINES = 6;
/** A UK postcode, whole (ours: the shape Royal Mail publishes, without checking the outward code exists). */
const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i;

/**
 * `line` as the API stores it. The SDK's examples separate lines with ", " ('123 Main Street, Anytown'), letters
 * with "\n"; both are read, and kept as "\n" so a letter's address looks the same whichever way it came.
 */
export function addressLines(line: string): string[] {
	return line.split(/\r?\n|,/).map((part) => part.trim()).filter(Boolean);
}

function required(value: string | undefined, param: string): string {
	const text = value?.trim() ?? '';
	if (!text) throw fail.invalid('parameter_missing', `Missing required param: ${param}.`, param);
	return text;
}

/** Checks an address whole (missing fields are refused) and stores it in the API's form. */
export function readAddress(input: Partial<Address> | undefined, param: string): Address {
	if (!input) throw fail.invalid('parameter_missing', `Missing required param: ${param}.`, param);
	const name = required(input.name, `${param}.name`);
	const lines = addressLines(required(input.line, `${param}.line`));
	if (lines.length === 0) throw fail.invalid('parameter_missing', `Missing required param: ${param}.line.`, `${param}.line`);
	if (lines.length > MAX_LINES) {
		throw fail.invalid('parameter_invalid', `Invalid value for ${param}.line: at most ${MAX_LINES} lines fit the envelope window, not ${lines.length}.`, `${param}.line`);
	}
	const country = input.country ?? 'GB';
	if (!/^[A-Z]{2}$/.test(country)) {
		throw fail.invalid('parameter_invalid', `Invalid value for ${param}.country: "${country}" is not a two-letter country code such as GB.`, `${param}.country`);
	}
	// Ours: the reference does not say; a UK address needs its postcode, and many countries have none (Hong Kong, the UAE).
	const postcode = ['GB', 'GG', 'JE', 'IM'].includes(country) ? required(input.postcode, `${param}.postcode`) : (input.postcode?.trim() ?? '');
	return { name, line: lines.join('\n'), postcode, country };
}

/** Placeholder values: text or numbers (kept as text); nothing nested. */
export function readVariables(input: unknown, param: string): Record<string, string> {
	if (input === undefined) return {};
	if (typeof input !== 'object' || input === null || Array.isArray(input) || isFile(input)) {
		throw fail.invalid('parameter_invalid', `Invalid value for ${param}: expected key/value pairs.`, param);
	}
	const variables: Record<string, string> = {};
	for (const [key, value] of Object.entries(input)) {
		if (typeof value !== 'string' && typeof value !== 'number') {
			throw fail.invalid('parameter_invalid', `Invalid value for ${param}.${key}: expected text or a number.`, `${param}.${key}`);
		}
		variables[key] = String(value);
	}
	return variables;
}

/** A whole recipient; `param` is where it sits in the body ('' for a body that is one recipient). */
export function readRecipient(input: RecipientInput, param = ''): Recipient {
	const prefix = param ? `${param}.` : '';
	return { address: readAddress(input.address, `${prefix}address`), variables: readVariables(input.variables, `${prefix}variables`) };
}

export function readRecipients(inputs: RecipientInput[], param = 'recipients'): Recipient[] {
	return inputs.map((input, index) => readRecipient(input, `${param}.${index}`));
}

/** A partial update: address fields sent replace those kept; variables sent replace the whole set (ours). */
export function updateRecipient(current: Recipient, input: RecipientInput): Recipient {
	const address = input.address ? readAddress({ ...current.address, ...definedOnly(input.address) }, 'address') : current.address;
	const variables = input.variables !== undefined ? readVariables(input.variables, 'variables') : current.variables;
	return { address, variables };
}

function definedOnly<T extends object>(value: T): Partial<T> {
	return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** The lines printed in the window: name, address lines, postcode, and the country when it is not the UK. */
export function windowLines(address: Address): string[] {
	return [address.name, ...address.line.split('\n'), address.postcode, ...(address.country === 'GB' ? [] : [address.country])];
}

/**
 * The fake's address validation, deterministic so tests can predict it (ours): an address passes when its
 * postcode looks like a whole UK postcode and it has at least one address line. Anything else fails, so
 * addresses outside the UK fail too.
 */
export function passesValidation(address: Address): boolean {
	// Ours: a postcode of the right shape ending in 9ZZ stands for one Royal Mail does not have (the node checks shapes).
	const postcode = address.postcode.trim();
	return UK_POSTCODE.test(postcode) && !/9ZZ$/i.test(postcode) && addressLines(address.line).length > 0;
}
