import { COUNTRY_ROWS, NAME_LANGUAGES } from './countryData';
import { POSTED_AS } from './countryIndex';
import { NATIONAL_RULES } from './nationalRules';

/**
 * The per-country rules, read from the generated data (countryData.ts, `npm run countries`): what address checks need
 * of every country and territory. Each row's fields are separated by ";" (the data's header says what each holds);
 * examples by ",", languages by " ", names by "|". Where a national post writes its postcodes otherwise, or assigns
 * fewer than Google's pattern allows (nationalRules.ts), the row's examples are the post's.
 */

export type PostcodeUse = 'required' | 'optional' | 'none';

export interface CountryRow {
	/** ISO 3166-1 alpha-2 code. */
	readonly code: string;
	/** ISO 3166-1 alpha-3 code. */
	readonly alpha3: string;
	readonly postcode: PostcodeUse;
	/** The postcode pattern as published, or '' when none is. */
	readonly patternSource: string;
	/** The pattern anchored at both ends, for the upper-cased postcode; undefined when none is published. */
	readonly pattern: RegExp | undefined;
	/** Published examples, written as the country's post writes them: none that its national rule refuses. */
	readonly examples: readonly string[];
	/** Written before the postcode on the envelope (CH-, L-, SE-), not part of it; '' for most. */
	readonly prefix: string;
	/** The country's official languages (BCP 47). */
	readonly languages: readonly string[];
	/** Keys (nameKey.ts) of its names that Intl does not give: alternatives, variants, native and former names. */
	readonly names: readonly string[];
}

const USE: Record<string, PostcodeUse> = { R: 'required', O: 'optional', N: 'none' };
const list = (text: string, mark: string) => (text ? text.split(mark) : []);

let table: Map<string, CountryRow> | undefined;

/** Every country and territory of the data by its alpha-2 code, parsed at first use. */
export function countryTable(): ReadonlyMap<string, CountryRow> {
	if (table) return table;
	table = new Map();
	for (const row of COUNTRY_ROWS) {
		const [head, languages, patternSource, examples, prefix, names] = row.split(';');
		const code = head.slice(0, 2);
		const national = NATIONAL_RULES[code];
		table.set(code, {
			code,
			alpha3: head.slice(2, 5),
			postcode: USE[head[5]],
			patternSource,
			pattern: patternSource ? new RegExp(`^(?:${patternSource})$`) : undefined,
			examples: national?.examples ?? list(examples, ',').filter((example) => !national?.refuse?.(example.replace(/[\s-]/g, ''))),
			prefix,
			languages: list(languages, ' '),
			names: list(names, '|'),
		});
	}
	// Ascension's and Tristan da Cunha's postcodes are St Helena's too: the three are one territory, SH.
	for (const [part, whole] of Object.entries(POSTED_AS)) {
		const [from, to] = [table.get(part)!, table.get(whole)!];
		const patternSource = `${to.patternSource}|${from.patternSource}`;
		table.set(whole, { ...to, patternSource, pattern: new RegExp(`^(?:${patternSource})$`), examples: [...to.examples, ...from.examples] });
	}
	return table;
}

/** The languages whose names of every country Intl gives: English, every country's official ones, and more. */
export const nameLanguages = (): string[] => [...new Set(['en', ...[...countryTable().values()].flatMap((row) => row.languages), ...NAME_LANGUAGES.split(' ')])];

/** The row of one alpha-2 code (upper case), or undefined for a code the table does not hold. */
export function countryRow(code: string): CountryRow | undefined {
	return countryTable().get(code);
}
