/**
 * Whether an address can arrive, before a letter is paid for: recipients read from rows (the resource mapper or
 * field names), blank and invisible characters, the country (names in every language, codes, former names) and its
 * postcode rules (generated from maintained data into countryData.ts by `npm run countries`, read by countryTable.ts), the envelope window, and
 * repeated recipients. Called by Print Job → Create, the Mailing List operations and Address → Check.
 */

export * from './addressRules';
export * from './countryTable';
export * from './duplicates';
export * from './recipientMapping';
export * from './recipients';
export * from './visibleText';
export * from './postage';
