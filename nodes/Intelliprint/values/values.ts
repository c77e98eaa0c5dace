import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { strictBoolean } from './strictValues';

/**
 * Checks on values that may come from expressions, before anything goes on the wire: an array, an
 * object or NaN would otherwise be sent as `reference[0]=…`, `metadata[k][a]=…` or `nudge[x]=NaN`.
 */

function describe(value: unknown): string {
	if (Array.isArray(value)) return `a list (${JSON.stringify(value).slice(0, 60)})`;
	if (value === null) return 'null';
	if (typeof value === 'number') return String(value);
	if (typeof value === 'object') return `an object (${JSON.stringify(value)?.slice(0, 60) ?? '?'})`;
	return `${typeof value} ${JSON.stringify(value)?.slice(0, 60)}`;
}

function wrongType(ctx: IExecuteFunctions, itemIndex: number, label: string, wanted: string, value: unknown, hint: string) {
	return new NodeOperationError(ctx.getNode(), `"${label}" must be ${wanted}, but got ${describe(value)}`, {
		itemIndex,
		description: hint,
	});
}

/** Text (numbers are taken as their digits); undefined when empty. */
export function textValue(ctx: IExecuteFunctions, itemIndex: number, value: unknown, label: string): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw wrongType(ctx, itemIndex, label, 'text', value, 'Change the expression so that it gives one piece of text, e.g. {{ $json.name }}; join a list first with .join(", ").');
}

/** A finite number (numeric text is accepted); undefined when empty. */
export function numberValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	label: string,
	rules: { integer?: boolean; min?: number } = {},
): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
	const wanted = rules.integer ? `a whole number${rules.min !== undefined ? ` of at least ${rules.min}` : ''}` : 'a number';
	const fits = Number.isFinite(number) && (!rules.integer || Number.isInteger(number)) && (rules.min === undefined || number >= rules.min);
	if (!fits) throw wrongType(ctx, itemIndex, label, wanted, value, `Give ${wanted} here, e.g. 2, or an expression that gives one.`);
	return number;
}

/** A boolean read as n8n reads one (see strictValues.ts); undefined when empty. */
export function booleanValue(ctx: IExecuteFunctions, itemIndex: number, value: unknown, label: string): boolean | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const read = strictBoolean(value);
	if ('value' in read) return read.value;
	throw wrongType(ctx, itemIndex, label, 'true or false', value, 'Switch it on or off, or use an expression that gives true or false.');
}

/**
 * A calendar date as YYYY-MM-DD (UTC day), from the date picker's text, a JavaScript Date or a
 * Luxon DateTime such as {{ $now.plus({ days: 2 }) }}.
 */
export function dateValue(ctx: IExecuteFunctions, itemIndex: number, value: unknown, label: string): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
	const luxon = value as { toUTC?: () => { toISO?: () => string | null } };
	if (typeof luxon?.toUTC === 'function') {
		const iso = luxon.toUTC().toISO?.();
		if (iso) return iso;
	}
	if (typeof value === 'string') return value;
	throw wrongType(ctx, itemIndex, label, 'a date', value, 'Pick a date, or give one as YYYY-MM-DD, e.g. {{ $now.plus({ days: 2 }).toISODate() }}.');
}
