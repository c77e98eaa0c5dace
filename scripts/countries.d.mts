// Types of scripts/countries.mjs, for the test that regenerates the country table in memory.
export declare const OUTPUT: string;
export declare function generate(): {
	/** The text of nodes/Intelliprint/addresses/countryData.ts. */
	text: string;
	/** The alpha-2 codes by postcode use. */
	summary: Record<'required' | 'optional' | 'none', string[]>;
	count: number;
	rows: string[];
};
