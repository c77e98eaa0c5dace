/**
 * The two kinds of value that decide whether money is spent, read one way everywhere: whether to
 * confirm, and an amount in pounds that bounds a confirm. Both may come from an expression, so both
 * are read strictly: a value that is not clearly one of the accepted forms is a problem to report,
 * never a guess (a guess of "on" confirms, a guess of "no limit" spends).
 */

/** API amounts carry 8 implied decimals of a pound. */
export const PER_POUND = 100_000_000;

/** An API amount as pounds and pence, e.g. £1.02. */
export const pounds = (amount: number) => `£${(amount / PER_POUND).toFixed(2)}`;

export type Strict<T> = { value: T } | { problem: string };

function shown(value: unknown): string {
	if (typeof value === 'string') return `"${value.slice(0, 60)}"`;
	if (value === null || value === undefined) return String(value);
	if (typeof value === 'object') return `${Array.isArray(value) ? 'a list' : 'an object'} (${JSON.stringify(value)?.slice(0, 60) ?? '?'})`;
	return String(value);
}

/**
 * A boolean as n8n's own boolean parameter reads one (n8n-workflow's type validation): true and
 * false, the words "true" and "false" in any case, and 1 and 0 (also as text). Anything else, an
 * empty value included, is a problem: "no", "yes" and "" are not read as either.
 */
export function strictBoolean(value: unknown): Strict<boolean> {
	if (typeof value === 'boolean') return { value };
	if (typeof value === 'string' && /^(true|false)$/i.test(value)) return { value: value.toLowerCase() === 'true' };
	if ((typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) && (Number(value) === 0 || Number(value) === 1)) {
		return { value: Number(value) === 1 };
	}
	return { problem: `must be true or false, but got ${value === '' ? 'nothing (an empty value)' : shown(value)}` };
}

/**
 * A non-negative amount in pounds: a number, or text of digits with an optional decimal point
 * ("100", "100.50"). Not set (undefined or null) is 0. A currency sign, a decimal comma, a negative
 * or an empty text are problems, so that a limit typed "£100" never reads as "no limit".
 */
export function strictPounds(value: unknown): Strict<number> {
	if (value === undefined || value === null) return { value: 0 };
	if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return { value };
	if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return { value: Number(value) };
	const why =
		typeof value === 'string' && /[£$€]/.test(value)
			? ' (write the amount without a currency sign, e.g. 100)'
			: typeof value === 'string' && /\d,\d/.test(value)
				? ' (write pence after a decimal point, e.g. 100.50)'
				: typeof value === 'number' && value < 0
					? ' (0 means no limit; a limit cannot be negative)'
					: '';
	return { problem: `must be an amount in pounds of 0 or more, such as 100 or 100.50, but got ${value === '' ? 'nothing (an empty value)' : shown(value)}${why}` };
}

/**
 * A print job's price after tax, in API amounts, only when the answer gives it as a whole amount of 0 or more:
 * anything else (left out, null, text) is unknown, never £0, so a gate that cannot read it does not confirm.
 */
export function priceAfterTax(job: { cost?: { after_tax?: unknown } | null }): number | undefined {
	const amount = job.cost?.after_tax;
	return typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? amount : undefined;
}
