import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { countryLabel } from './countryNames';
import { itemReader } from '../values';

/**
 * Which postage service a letter goes by, from where it goes: the rule docs/letters-abroad.md gives with its sources.
 * Intelliprint's services are UK services (Royal Mail's inland classes, signed for, special delivery, tracked) and one
 * `international`, "mail sent to addresses outside the UK" (Intelliprint's glossary). What the API does with a UK
 * service to an address abroad is not published, so the node never sends that pair: it never guesses.
 * The API's side of the rule (each letter goes by its job's service) is the contract's `postage-abroad`.
 */

/**
 * Posted as inland mail: the UK (BFPO included: its mail goes through the UK network to the forces' hub) and the Crown
 * dependencies, which Royal Mail serves at inland prices under the UK postal scheme.
 */
export const INLAND = new Set(['GB', 'JE', 'GG', 'IM']);
export const INTERNATIONAL = 'international';
export const DEFAULT_SERVICE = 'uk_second_class';

export type PostageAbroad = 'international' | 'refuse';
export interface PostageChoice {
	type: 'letter' | 'postcard';
	/** The service chosen for letters in the UK. */
	service: string;
	abroad: PostageAbroad;
}
export type PostageVerdict = { service: string } | { problem: string; fix: string };

/** The service a letter to `country` (a checked two-letter code) goes by under the user's choice, or why it cannot go. */
export function postageFor(country: string, choice: PostageChoice): PostageVerdict {
	if (INLAND.has(country)) {
		if (choice.service !== INTERNATIONAL) return { service: choice.service };
		return {
			problem: `The address is in ${countryLabel(country)}, and the service chosen is International, which is for letters abroad`,
			fix: 'Choose a UK service under Options → Postage → Service (UK Second Class, UK First Class…): rows abroad go International by Postage Abroad.',
		};
	}
	if (choice.type === 'postcard') {
		return {
			problem: `A postcard to ${countryLabel(country)} cannot be sent: Intelliprint's postcards go by UK services only`,
			fix: 'Send it as a letter (Type: Letter), which goes International, or leave the row out.',
		};
	}
	if (choice.abroad === 'refuse') {
		return {
			problem: `The address is in ${countryLabel(country)}, and Postage Abroad is set to refuse letters abroad`,
			fix: 'Set Options → Postage → Postage Abroad to International to post it abroad, or leave the row out.',
		};
	}
	return { service: INTERNATIONAL };
}

/** The item's choice as its parameters give it: Type, and Options → Postage's Service and Postage Abroad. */
export function postageChoiceOf(ctx: IExecuteFunctions, itemIndex: number): PostageChoice {
	// Read through itemReader: a fixed value once per run, not through n8n for every row (two reads a row in a mail run).
	const read = (name: string, fallback: string) => String(itemReader(ctx, name, fallback)(itemIndex) ?? fallback) || fallback;
	const abroad = read('options.postage.values.postageAbroad', INTERNATIONAL);
	if (abroad !== INTERNATIONAL && abroad !== 'refuse') {
		throw new NodeOperationError(ctx.getNode(), `"${abroad.slice(0, 40)}" is not a choice of Postage Abroad`, {
			itemIndex,
			description: 'Nothing was sent. Choose International or Refuse the Row, or give "international" or "refuse" from an expression.',
		});
	}
	return { type: read('type', 'letter') === 'postcard' ? 'postcard' : 'letter', service: read('options.postage.values.service', DEFAULT_SERVICE), abroad };
}

/** The service of one row's letter, or its refusal on that row (the country field is the one to change). */
export function postageOf(ctx: IExecuteFunctions, itemIndex: number, country: string): string {
	const verdict = postageFor(country, postageChoiceOf(ctx, itemIndex));
	if ('service' in verdict) return verdict.service;
	const error = new NodeOperationError(ctx.getNode(), `${verdict.problem} (row ${itemIndex + 1})`, { itemIndex, description: verdict.fix });
	error.context.addressField = 'country';
	throw error;
}

/** Whether a letter to `country` fits a job going by `service`: the check on every job's answer. */
export function fitsService(country: string | null | undefined, service: string): boolean {
	// A letter without a country is the API's default, GB.
	if (!country) return service !== INTERNATIONAL;
	return INLAND.has(country.toUpperCase()) ? service !== INTERNATIONAL : service === INTERNATIONAL;
}

