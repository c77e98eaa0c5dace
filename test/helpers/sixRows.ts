/**
 * Six rows as a typical sheet holds them, of which row 2 has no postcode and row 5 no name: the case of the error
 * output (a mail run or one letter each, the refused rows apart from the rest), in unit and end-to-end tests alike.
 */
export const SIX_ROWS = [
	{ name: 'Ada Lovelace', address: '1 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r1' },
	{ name: 'Alan Turing', address: '2 High Street\nLeeds', postcode: '', ref: 'r2' },
	{ name: 'Grace Hopper', address: '3 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r3' },
	{ name: 'Mary Somerville', address: '4 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r4' },
	{ name: '', address: '5 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r5' },
	{ name: 'Katherine Johnson', address: '6 High Street\nLeeds', postcode: 'LS1 4AP', ref: 'r6' },
];

/** Rows as the JavaScript of an n8n Code node that outputs them. */
export const codeNodeReturning = (rows: object[]) => `return ${JSON.stringify(rows)}.map((json) => ({ json }));`;
