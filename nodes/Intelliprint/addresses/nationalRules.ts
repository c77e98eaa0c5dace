/**
 * Where a national post publishes a stricter rule than Google's address metadata (countryData.ts), or writes its
 * postcodes otherwise than Google's examples: a postcode Google's pattern allows but the post never assigns would
 * still be paid for and come back. Each rule and its source is listed in docs/addresses.md.
 */

export interface NationalRule {
	/** Examples as the national post writes them, in place of Google's (which also set how postcodes are sent). */
	readonly examples?: readonly string[];
	/**
	 * Why the post would not take a postcode that fits Google's pattern (given compact and upper case, without
	 * spaces or hyphens), in a few words for the message; undefined when it would.
	 */
	readonly refuse?: (compact: string) => string | undefined;
	/** A place typed where the postcode goes (Ireland's "Dublin 2"): what it is, and how to write it on the last line. */
	readonly place?: (typed: string) => { is: string; line: string } | undefined;
}

/** An Post's 139 routing keys: an Eircode's first three characters, each the area of a principal post town. */
const ROUTING_KEYS = new Set(
	`A41 A42 A45 A63 A67 A75 A81 A82 A83 A84 A85 A86 A91 A92 A94 A96 A98 C15 D01 D02 D03 D04 D05 D06 D6W D07 D08 D09
	D10 D11 D12 D13 D14 D15 D16 D17 D18 D20 D22 D24 E21 E25 E32 E34 E41 E45 E53 E91 F12 F23 F26 F28 F31 F35 F42 F45 F52
	F56 F91 F92 F93 F94 H12 H14 H16 H18 H23 H53 H54 H62 H65 H71 H91 K32 K34 K36 K45 K56 K67 K78 N37 N39 N41 N91 P12 P14
	P17 P24 P25 P31 P32 P36 P43 P47 P51 P56 P61 P67 P72 P75 P81 P85 R14 R21 R32 R35 R42 R45 R51 R56 R93 R95 T12 T23 T34
	T45 T56 V14 V15 V23 V31 V35 V42 V92 V93 V94 V95 W12 W23 W34 W91 X35 X42 X91 Y14 Y21 Y25 Y34 Y35`.split(/\s+/),
);
/** The letters of an Eircode's unique identifier: none that reads as a digit or as another letter. */
const IDENTIFIER_LETTERS = 'ACDEFHKNPRTVWXY';

function eircode(compact: string): string | undefined {
	const key = compact.slice(0, 3);
	if (!ROUTING_KEYS.has(key)) return `no Eircode starts with ${key} (not one of An Post's 139 routing keys)`;
	const wrong = [...new Set(compact.slice(3).replace(/[0-9]/g, ''))].filter((letter) => !IDENTIFIER_LETTERS.includes(letter));
	if (wrong.length) return `an Eircode's last four characters are digits and the letters ${IDENTIFIER_LETTERS.split('').join(' ')}, never ${wrong.join(' or ')}`;
	return undefined;
}

/** The numbered Dublin postal districts, kept as the routing keys D01 to D24 and D6W. */
const DUBLIN_DISTRICTS = new Set([...ROUTING_KEYS].filter((key) => key.startsWith('D')).map((key) => key.slice(1).replace(/^0/, '')));

function irishPlace(typed: string): { is: string; line: string } | undefined {
	const district = /^(?:DUBLIN|D)[\s.-]*0?(\d{1,2}W?)$/.exec(typed)?.[1];
	if (district && DUBLIN_DISTRICTS.has(district)) return { is: 'a Dublin postal district, not an Eircode', line: `Dublin ${district}` };
	const county = /^(?:CO\.\s*|CO\s+|COUNTY\s+)([A-Z]+)$/.exec(typed)?.[1];
	const place = county ? `Co. ${county}` : typed === 'DUBLIN' ? typed : undefined;
	return place === undefined ? undefined : { is: 'a place, not an Eircode', line: place.replace(/\B[A-Z]+/g, (rest) => rest.toLowerCase()) };
}

/** The national rules by alpha-2 code. */
export const NATIONAL_RULES: Readonly<Record<string, NationalRule>> = {
	// PostNord writes a space after the third digit (Google's examples leave it out): Google's own, so written.
	SE: { examples: ['114 55', '123 45', '105 00'] },
	// Google's one example, A65 F4E2, is Eircode's illustration: A65 is no routing key.
	IE: { examples: ['D02 X285', 'D6W PV38'], refuse: eircode, place: irishPlace },
	IN: { refuse: (compact) => (compact.startsWith('0') ? "no PIN starts with 0 (India Post's first digit is the region, 1 to 9)" : undefined) },
	ES: {
		refuse: (compact) => {
			const province = Number(compact.slice(0, 2));
			return province >= 1 && province <= 52 ? undefined : `its first two digits, ${compact.slice(0, 2)}, are no province (Correos numbers them 01 to 52)`;
		},
	},
	MT: {
		refuse: (compact) =>
			/^[A-Z]{3}\d{4}$/.test(compact) ? undefined : "it has fewer than four digits (MaltaPost's postcodes have been three letters and four digits since 2007)",
	},
};
