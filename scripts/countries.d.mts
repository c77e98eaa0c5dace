// Types of scripts/countries.mjs, for the test that regenerates the country table in memory.
export declare const OUTPUT: string;
export declare function generate(): {
	/** The text of nodes/Intelliprint/addresses/countryData.ts. */
	text: string;
	/** The alpha-2 codes by postcode use. */
	summary: Record<'required' | 'optional' | 'none', string[]>;
	count: number;
	rows: string[];
	/** The names (keys) the node reads, where they come from, and those that name more than one country. */
	names: { read: number; fromIntl: number; fromSheets: number; stored: number; languages: number; ambiguous: Array<[string, string]> };
};
