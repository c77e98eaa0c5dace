/**
 * What sheets write for a country besides the names in maintained data (countryData.ts, generated from CLDR,
 * i18n-iso-countries, countries-list and country-data; Intl at run time): the UK's own names for itself and its
 * parts, in English and in the UK's other languages; names of the World Bank's, the UN's and the IMF's country
 * lists, which exports of their data bring along; and a few common names the data does not carry. Written as keys
 * would be, then read through nameKey like every name. Codes separated by a space name more than one country, and
 * such a name is refused with them as candidates; a name here that the data gives another country is refused too.
 * Sources in docs/addresses.md.
 */
export const SHEET_NAMES: Record<string, string> = {
	// The UK and its parts: English, Welsh, Scottish Gaelic, Irish, Scots and Ulster Scots. Ulster is six counties
	// of Northern Ireland and three of Ireland.
	britain: 'GB', 'great britain': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB', 'great britain and northern ireland': 'GB',
	'england uk': 'GB', 'scotland uk': 'GB', 'wales uk': 'GB', 'northern ireland uk': 'GB',
	cymru: 'GB', lloegr: 'GB', 'yr alban': 'GB', 'gogledd iwerddon': 'GB', 'prydain fawr': 'GB',
	alba: 'GB', sasainn: 'GB', 'a chuimrigh': 'GB', 'eirinn a tuath': 'GB', 'breatainn mhor': 'GB',
	sasana: 'GB', albain: 'GB', 'an bhreatain bheag': 'GB', 'tuaisceart eireann': 'GB', 'an bhreatain mhor': 'GB',
	'norlin airlann': 'GB', 'norlan airlan': 'GB', ulster: 'GB IE',
	// Ireland, and the Channel Islands' parts.
	roi: 'IE', 'irish republic': 'IE', alderney: 'GG', sark: 'GG', herm: 'GG', 'channel islands': 'GG JE',
	// Common names.
	america: 'US', holland: 'NL', vatican: 'VA', macau: 'MO', 'macau sar': 'MO', 'macau china': 'MO', 'macao china': 'MO', 'china macao sar': 'MO',
	'china macao special administrative region': 'MO', hksar: 'HK', 'hong kong china': 'HK', 'china hong kong sar': 'HK',
	'china hong kong special administrative region': 'HK', 'republic of china': 'TW',
	// French Guiana's name in French since 2015 (Collectivité territoriale de Guyane).
	guyane: 'GF',
	// The World Bank's, the UN's and the IMF's lists.
	'korea rep': 'KR', 'korea dem rep': 'KP', 'korea dem peoples rep': 'KP', 'korea dpr': 'KP', 'dpr korea': 'KP', dprk: 'KP',
	'dr congo': 'CD', drc: 'CD', 'congo dr': 'CD', 'congo dem rep': 'CD', 'dem rep congo': 'CD', 'congo dem rep of the': 'CD', 'congo republic of': 'CG',
	'egypt arab rep': 'EG', 'venezuela rb': 'VE', 'micronesia fed sts': 'FM', 'lao pdr': 'LA',
	'kyrgyz republic': 'KG', 'slovak republic': 'SK', 'macedonia fyr': 'MK', 'west bank and gaza': 'PS',
};
