/**
 * Letters abroad, held out (issue 49): rows from every region of the world, each with what a careful mailroom posting
 * to 50 countries expects of it: the postcode as the country's post writes it, the country's ISO code, the postage
 * service (the UK's for Great Britain, BFPO and the Crown dependencies, International for everywhere else), or the
 * start of the reason the row is refused and the field refused.
 *
 * Written from the national posts' published rules (Royal Mail, An Post's Eircode routing keys, PostNord, PostNL,
 * Correos, India Post, MaltaPost, Korea Post, Canada Post, USPS, the CEPT country letters) and docs/addresses.md and
 * docs/letters-abroad.md, never from what the node outputs: where the two disagree, the end-to-end test fails.
 */

export type Region =
	| 'Western Europe'
	| 'Northern Europe'
	| 'Southern Europe'
	| 'Eastern Europe'
	| 'UK and Crown dependencies'
	| 'BFPO'
	| 'North America'
	| 'Latin America & Caribbean'
	| 'Middle East'
	| 'Africa'
	| 'South Asia'
	| 'East Asia'
	| 'South-East Asia'
	| 'Oceania';

export type Kind =
	| 'uk'
	| 'crown dependency'
	| 'bfpo'
	| 'europe'
	| 'abroad'
	| 'prefixed postcode'
	| 'written form'
	| 'no postcodes'
	| 'none value'
	| 'national rule'
	| 'country name'
	| 'unicode'
	| 'line separator'
	| 'refused';

export type Service = 'uk_second_class' | 'international';
export type Field = 'name' | 'address' | 'postcode' | 'country';

export interface Accepted {
	/** The postcode as posted ('' where the country has none). */
	postcode: string;
	/** ISO 3166-1 alpha-2. */
	country: string;
	/** Under the default postage (UK Second Class, Postage Abroad International). */
	service: Service;
	/** The name and address lines as posted (composed Unicode, lines joined by "\n"). */
	name: string;
	address: string;
	/** The row (from 1) whose recipient this row repeats, or null. */
	duplicateOf: number | null;
}

export interface Refused {
	/** The start of address_problem. */
	refused: string;
	field: Field;
	/** Words the reason (with its fix) must hold: the country by name and code, the rule. */
	mentions: string[];
}

export interface WorldRow {
	kind: Kind;
	region: Region;
	name: string;
	address: string;
	postcode: string;
	country: string;
	expected: Accepted | Refused;
}

/** The UK's postage covers Great Britain (BFPO included) and the Crown dependencies: Royal Mail's inland scheme. */
export const INLAND = ['GB', 'JE', 'GG', 'IM'];

type Expect = { postcode: string; country: string; name?: string; address?: string } | Refused;
interface Draft {
	kind: Kind;
	region: Region;
	country: string;
	postcode: string;
	expect: Expect;
	name?: string;
	address?: string;
	/** Rows with the same key are one recipient: the later ones repeat the first. */
	same?: string;
}

const ok = (postcode: string, country: string, extra: { name?: string; address?: string } = {}): Expect => ({ postcode, country, ...extra });
const no = (refused: string, field: Field, ...mentions: string[]): Refused => ({ refused, field, mentions });
/** A postcode refused: the reason names the field and the value as typed. */
const badPostcode = (value: string, ...mentions: string[]) => no(`Postcode "${value}"`, 'postcode', ...mentions);

/** Where the letters go, as the country's own addresses are written (street, then town). */
const STREETS: Record<string, string> = {
	GB: '1 High Street\nLondon', JE: '2 Quay Street\nSt Helier', GG: '3 High Street\nSt Peter Port', IM: '4 Athol Street\nDouglas',
	IE: '5 Grafton Street\nDublin', FR: '12 Rue de Rivoli\nParis', DE: 'Friedrichstrasse 43\nBerlin', NL: 'Damrak 1\nAmsterdam', BE: 'Rue Neuve 10\nBruxelles',
	LU: '2 Rue du Fort\nLuxembourg', CH: 'Bahnhofstrasse 1\nZurich', AT: 'Stephansplatz 1\nWien', LI: 'Städtle 1\nVaduz', MC: '1 Avenue de Monte-Carlo\nMonaco',
	SE: 'Drottninggatan 1\nStockholm', DK: 'Strøget 1\nKøbenhavn', NO: 'Karl Johans gate 1\nOslo', FI: 'Mannerheimintie 1\nHelsinki', IS: 'Laugavegur 1\nReykjavík',
	EE: 'Viru 1\nTallinn', LV: 'Brīvības iela 1\nRīga', LT: 'Gedimino pr. 1\nVilnius', IT: 'Via del Corso 1\nRoma', ES: 'Calle de Alcalá 1\nMadrid',
	PT: 'Rua Augusta 1\nLisboa', GR: 'Ermou 1\nAthina', MT: '1 Republic Street\nValletta', CY: '1 Ledra Street\nNicosia', HR: 'Ilica 1\nZagreb',
	SI: 'Slovenska cesta 1\nLjubljana', RS: 'Knez Mihailova 1\nBeograd', BA: 'Ferhadija 1\nSarajevo', ME: 'Njegoševa 1\nPodgorica', MK: 'Makedonija 1\nSkopje',
	AL: 'Rruga e Durrësit 1\nTiranë', SM: 'Contrada del Collegio 1\nSan Marino', VA: 'Via della Posta 1\nCittà del Vaticano', AD: 'Avinguda Meritxell 1\nAndorra la Vella',
	GI: '1 Main Street\nGibraltar', PL: 'ul. Marszałkowska 1\nWarszawa', CZ: 'Václavské náměstí 1\nPraha', SK: 'Obchodná 1\nBratislava', HU: 'Váci utca 1\nBudapest',
	RO: 'Calea Victoriei 1\nBucureşti', BG: 'Vitosha 1\nSofia', UA: 'Khreshchatyk 1\nKyiv', MD: 'Bd. Ştefan cel Mare 1\nChişinău', RU: 'Tverskaya 1\nMoskva',
	BY: 'Praspiekt Niezaliežnasci 1\nMinsk', GE: 'Rustaveli Avenue 1\nTbilisi', US: '350 Fifth Avenue\nNew York NY', CA: '111 Wellington Street\nOttawa ON',
	MX: 'Paseo de la Reforma 1\nCiudad de México', PR: '1 Calle Fortaleza\nSan Juan', GL: 'Aqqusinersuaq 1\nNuuk', BM: '1 Front Street\nHamilton',
	BR: 'Avenida Paulista 1000\nSão Paulo SP', AR: 'Avenida de Mayo 1\nBuenos Aires', CL: 'Avenida Libertador 1\nSantiago', CO: 'Carrera 7 No. 1\nBogotá',
	PE: 'Jirón de la Unión 1\nLima', EC: 'Avenida Amazonas 1\nQuito', UY: 'Avenida 18 de Julio 1\nMontevideo', PY: 'Calle Palma 1\nAsunción',
	VE: 'Avenida Urdaneta 1\nCaracas', BO: 'Calle Comercio 1\nLa Paz', GT: '6a Avenida 1\nGuatemala', CR: 'Avenida Central 1\nSan José', PA: 'Avenida Balboa 1\nPanamá',
	DO: 'Calle El Conde 1\nSanto Domingo', JM: '1 King Street\nKingston', BB: '1 Broad Street\nBridgetown', TT: '1 Frederick Street\nPort of Spain',
	BS: '1 Bay Street\nNassau', CU: 'Calle Obispo 1\nLa Habana', KY: '1 Cardinal Avenue\nGeorge Town', LC: '1 Bridge Street\nCastries', KN: '1 Bay Road\nBasseterre',
	SV: 'Calle Arce 1\nSan Salvador', FK: '1 Ross Road\nStanley', AE: '1 Sheikh Zayed Road\nDubai', QA: '1 Corniche Street\nDoha', SA: '1 King Fahd Road\nRiyadh',
	IL: '1 Dizengoff Street\nTel Aviv', JO: '1 Rainbow Street\nAmman', LB: '1 Rue Hamra\nBeirut', KW: '1 Gulf Road\nKuwait City', BH: '1 Government Avenue\nManama',
	OM: '1 Sultan Qaboos Street\nMuscat', TR: 'Atatürk Bulvarı 1\nAnkara', IR: '1 Valiasr Street\nTehran', IQ: '1 Rasheed Street\nBaghdad', YE: '1 Zubairi Street\nSanaa',
	EG: '1 Tahrir Square\nCairo', MA: '1 Avenue Mohammed V\nRabat', DZ: '1 Rue Didouche Mourad\nAlger', TN: '1 Avenue Habib Bourguiba\nTunis',
	ZA: '1 Church Street\nPretoria', NG: '1 Marina Road\nLagos', KE: '1 Moi Avenue\nNairobi', GH: '1 Independence Avenue\nAccra', ET: '1 Churchill Avenue\nAddis Ababa',
	TZ: '1 Samora Avenue\nDar es Salaam', UG: '1 Kampala Road\nKampala', ZW: '1 Samora Machel Avenue\nHarare', NA: '1 Independence Avenue\nWindhoek',
	BW: '1 The Mall\nGaborone', SN: '1 Avenue Léopold Sédar Senghor\nDakar', CI: '1 Boulevard de la République\nAbidjan', CD: '1 Boulevard du 30 Juin\nKinshasa',
	CG: '1 Avenue Amilcar Cabral\nBrazzaville', GM: '1 Independence Drive\nBanjul', CV: '1 Avenida Amílcar Cabral\nPraia', RW: '1 KN 3 Avenue\nKigali',
	MU: '1 Royal Street\nPort Louis', SH: '1 Main Street\nJamestown', IN: '1 Janpath\nNew Delhi', PK: '1 Jinnah Avenue\nIslamabad', BD: '1 Motijheel\nDhaka',
	LK: '1 Galle Road\nColombo', NP: '1 Durbar Marg\nKathmandu', BT: '1 Norzin Lam\nThimphu', MV: '1 Majeedhee Magu\nMalé', AF: '1 Chicken Street\nKabul',
	JP: '1-1 Marunouchi\nChiyoda-ku Tokyo', CN: '1 Wangfujing Street\nBeijing', KR: '1 Sejong-daero\nSeoul', TW: '1 Zhongxiao East Road\nTaipei',
	HK: '1 Queen\'s Road Central\nHong Kong', MO: '1 Avenida de Almeida Ribeiro\nMacau', MN: '1 Peace Avenue\nUlaanbaatar', SG: '1 Orchard Road\nSingapore',
	MY: '1 Jalan Ampang\nKuala Lumpur', TH: '1 Sukhumvit Road\nBangkok', VN: '1 Trang Tien\nHà Nội', PH: '1 Roxas Boulevard\nManila', ID: '1 Jalan Thamrin\nJakarta',
	KH: '1 Norodom Boulevard\nPhnom Penh', MM: '1 Sule Pagoda Road\nYangon', LA: '1 Lane Xang Avenue\nVientiane', BN: '1 Jalan Sultan\nBandar Seri Begawan',
	TL: '1 Avenida de Portugal\nDili', AU: '1 George Street\nSydney NSW', NZ: '1 Lambton Quay\nWellington', FJ: '1 Victoria Parade\nSuva',
	PG: '1 Champion Parade\nPort Moresby', WS: '1 Beach Road\nApia', NC: '1 Rue de Sébastopol\nNouméa', PF: '1 Boulevard Pomare\nPapeete',
	TO: '1 Taufa\'ahau Road\nNuku\'alofa', VU: '1 Kumul Highway\nPort Vila',
};

const at = (region: Region, kind: Kind) => (country: string, postcode: string, expect: Expect, extra: Partial<Draft> = {}): Draft => ({ kind, region, country, postcode, expect, ...extra });

function ukAndCrown(): Draft[] {
	const uk = at('UK and Crown dependencies', 'uk');
	const crown = at('UK and Crown dependencies', 'crown dependency');
	const names = at('UK and Crown dependencies', 'country name');
	const refused = at('UK and Crown dependencies', 'refused');
	return [
		uk('GB', 'SW1A 1AA', ok('SW1A 1AA', 'GB')),
		uk('United Kingdom', 'ec1a1bb', ok('EC1A 1BB', 'GB')),
		uk('England', 'M1 1AE', ok('M1 1AE', 'GB')),
		uk('Wales', 'CF10 1AA', ok('CF10 1AA', 'GB')),
		uk('Northern Ireland', 'bt1 5gs', ok('BT1 5GS', 'GB')),
		uk('GB', 'ZE1 0AA', ok('ZE1 0AA', 'GB'), { address: '1 Commercial Street\nLerwick\nShetland' }),
		uk('UK', 'TR21 0LW', ok('TR21 0LW', 'GB'), { address: 'Hugh Town\nSt Mary\'s\nIsles of Scilly' }),
		uk('', 'W1A 0AX', ok('W1A 0AX', 'GB')),
		uk('GB', 'GIR 0AA', ok('GIR 0AA', 'GB')),
		names('Scotland, United Kingdom', 'EH1 1YZ', ok('EH1 1YZ', 'GB'), { address: '1 Royal Mile\nEdinburgh' }),
		names('London, UK', 'SE1 9SG', ok('SE1 9SG', 'GB')),
		names('Great Britain', 'B33 8TH', ok('B33 8TH', 'GB')),
		refused('GB', 'SW1A', no('Postcode "SW1A" is not a complete UK postcode', 'postcode')),
		refused('GB', 'Q1 1AA', badPostcode('Q1 1AA')),
		refused('GB', '75008', badPostcode('75008')),
		at('UK and Crown dependencies', 'none value')('GB', 'N/A', badPostcode('N/A')),
		crown('JE', 'JE2 3XP', ok('JE2 3XP', 'JE')),
		crown('Jersey', 'je1 1aa', ok('JE1 1AA', 'JE')),
		crown('GG', 'GY1 1AA', ok('GY1 1AA', 'GG')),
		crown('Guernsey', 'gy9 3td', ok('GY9 3TD', 'GG')),
		crown('IM', 'IM1 1AD', ok('IM1 1AD', 'IM')),
		crown('Isle of Man', 'IM99 1PS', ok('IM99 1PS', 'IM')),
		crown('GB', 'IM2 4NN', ok('IM2 4NN', 'GB')),
		names('Jersey, Channel Islands', 'JE4 8PP', ok('JE4 8PP', 'JE')),
		// The Channel Islands are two bailiwicks, two posts and two ISO codes: a mailroom asks which.
		names('Channel Islands', 'JE2 4WD', no('Country "Channel Islands" could be', 'country', 'Jersey (JE)', 'Guernsey (GG)')),
		refused('JE', 'GY1 2BT', badPostcode('GY1 2BT', 'Jersey (JE)')),
	];
}

function bfpo(): Draft[] {
	const row = at('BFPO', 'bfpo');
	return [
		row('GB', 'BFPO 1234', ok('BFPO 1234', 'GB'), { address: 'Sgt A Smith\nHQ Company' }),
		row('UK', 'bfpo57', ok('BFPO 57', 'GB'), { address: 'Cpl B Jones\n1 Signal Regiment' }),
		row('', 'BFPO 801', ok('BFPO 801', 'GB'), { address: 'Lt C Brown\nHMS Example' }),
		row('GB', 'BFPO 12345', badPostcode('BFPO 12345'), { address: 'Pte D Green\nA Squadron' }),
		// The forces' post goes through the UK: the MOD says never to write the country where the unit is.
		row('Germany', 'BFPO 31', badPostcode('BFPO 31', 'Germany (DE)'), { address: 'Maj E White\nBritish Forces Germany' }),
	];
}

function westernEurope(): Draft[] {
	const row = at('Western Europe', 'europe');
	const prefixed = at('Western Europe', 'prefixed postcode');
	const written = at('Western Europe', 'written form');
	const national = at('Western Europe', 'national rule');
	const names = at('Western Europe', 'country name');
	const none = at('Western Europe', 'none value');
	return [
		// Ireland: Eircodes are optional; a routing key is one of An Post's 139; the identifier takes 0-9 and ACDEFHKNPRTVWXY.
		row('IE', 'D02 X285', ok('D02 X285', 'IE')),
		written('Ireland', 'h91e2k3', ok('H91 E2K3', 'IE'), { address: '1 Shop Street\nGalway' }),
		names('Éire', 'D6W PV38', ok('D6W PV38', 'IE')),
		row('IE', '', ok('', 'IE'), { address: '1 Main Street\nKilkenny' }),
		none('IE', 'N/A', ok('', 'IE'), { address: '2 Main Street\nEnnis\nCo. Clare' }),
		prefixed('IE', 'IRL-D02 X285', ok('D02 X285', 'IE')),
		national('IE', 'Q99 9999', badPostcode('Q99 9999')),
		national('IE', 'B12 3456', badPostcode('B12 3456')),
		national('IE', 'A65 F4E2', badPostcode('A65 F4E2')),
		national('IE', 'D02 F4B2', badPostcode('D02 F4B2')),
		national('Ireland', 'Dublin 2', badPostcode('Dublin 2', 'postal district')),
		// France: La Poste's code postal is five digits, written without a space.
		row('FR', '75008', ok('75008', 'FR')),
		prefixed('France', 'F-75008', ok('75008', 'FR')),
		written('FR', '75 008', ok('75008', 'FR')),
		names('Paris, France', '75001', ok('75001', 'FR')),
		none('FR', 'N/A', badPostcode('N/A', 'France (FR)')),
		at('Western Europe', 'refused')('FR', '', no('', 'postcode', 'France (FR)')),
		at('Western Europe', 'refused')('FR', '7500', badPostcode('7500', 'France (FR)')),
		prefixed('FR', 'D-10115', badPostcode('D-10115', 'Germany', 'France (FR)')),
		// Germany: Deutsche Post's Postleitzahl is five digits; a sheet that lost the leading 0 of Dresden's is wrong.
		row('DE', '10115', ok('10115', 'DE')),
		prefixed('Germany', 'D-10115', ok('10115', 'DE')),
		prefixed('Deutschland', 'D 80331', ok('80331', 'DE'), { address: 'Marienplatz 1\nMünchen' }),
		prefixed('DE', 'DE-01067', ok('01067', 'DE'), { address: 'Altmarkt 1\nDresden' }),
		national('DE', '1067', badPostcode('1067', 'Germany (DE)')),
		prefixed('DE', 'F-75008', badPostcode('F-75008', 'France', 'Germany (DE)')),
		none('DE', 'none', badPostcode('none', 'Germany (DE)')),
		// The Netherlands: PostNL's four digits (not 0 first), a space, two letters (never SA, SD or SS).
		row('NL', '1012 AB', ok('1012 AB', 'NL')),
		prefixed('Netherlands', 'NL-1012 AB', ok('1012 AB', 'NL')),
		written('Holland', '3011ce', ok('3011 CE', 'NL'), { address: 'Coolsingel 40\nRotterdam' }),
		national('NL', '1012 SA', badPostcode('1012 SA', 'the Netherlands (NL)')),
		national('NL', '0123 AB', badPostcode('0123 AB', 'the Netherlands (NL)')),
		prefixed('BE', 'NL-1012 AB', badPostcode('NL-1012 AB', 'Netherlands', 'Belgium (BE)')),
		prefixed('BE', 'B-1000', ok('1000', 'BE')),
		prefixed('LU', 'L-2998', ok('2998', 'LU')),
		prefixed('CH', 'CH-8001', ok('8001', 'CH')),
		// 1010 is Lausanne's too, but "A-" says Austria: the row contradicts itself.
		prefixed('CH', 'A-1010', badPostcode('A-1010', 'Austria', 'Switzerland (CH)')),
		prefixed('AT', 'A-1010', ok('1010', 'AT')),
		names('Österreich', '5020', ok('5020', 'AT'), { address: 'Getreidegasse 1\nSalzburg' }),
		row('LI', '9490', ok('9490', 'LI')),
		row('MC', '98000', ok('98000', 'MC')),
	];
}

function northernEurope(): Draft[] {
	const row = at('Northern Europe', 'europe');
	const prefixed = at('Northern Europe', 'prefixed postcode');
	const written = at('Northern Europe', 'written form');
	const names = at('Northern Europe', 'country name');
	return [
		// Sweden: "a space shall be inserted between the third and fourth digit" (PostNord: 113 51 Stockholm).
		at('Northern Europe', 'national rule')('SE', '11122', ok('111 22', 'SE')),
		row('Sweden', '111 22', ok('111 22', 'SE')),
		prefixed('SE', 'S-41319', ok('413 19', 'SE'), { address: 'Avenyn 1\nGöteborg' }),
		prefixed('Sverige', 'SE-11122', ok('111 22', 'SE')),
		at('Northern Europe', 'refused')('SE', '1122', badPostcode('1122', 'Sweden (SE)')),
		prefixed('DK', 'DK-1050', ok('1050', 'DK')),
		row('NO', '0150', ok('0150', 'NO')),
		prefixed('NO', 'N-0150', ok('0150', 'NO')),
		prefixed('FI', 'FIN-00100', ok('00100', 'FI')),
		names('Suomi', '33100', ok('33100', 'FI'), { address: 'Hämeenkatu 1\nTampere' }),
		row('IS', '101', ok('101', 'IS')),
		// Latvia's postcode is written with its LV- (Latvijas Pasts: LV-1050).
		row('LV', 'LV-1050', ok('LV-1050', 'LV')),
		written('Latvia', 'lv-1073', ok('LV-1073', 'LV')),
		prefixed('LT', 'LT-01100', ok('01100', 'LT')),
	];
}

function southernEurope(): Draft[] {
	const row = at('Southern Europe', 'europe');
	const prefixed = at('Southern Europe', 'prefixed postcode');
	const written = at('Southern Europe', 'written form');
	const national = at('Southern Europe', 'national rule');
	const names = at('Southern Europe', 'country name');
	return [
		row('IT', '00184', ok('00184', 'IT')),
		prefixed('Italy', 'I-00184', ok('00184', 'IT')),
		at('Southern Europe', 'refused')('IT', '184', badPostcode('184', 'Italy (IT)')),
		// Spain: Correos's first two digits are the province, 01 to 50, then 51 Ceuta and 52 Melilla.
		row('ES', '28039', ok('28039', 'ES')),
		national('ES', '53001', badPostcode('53001', 'Spain (ES)')),
		national('ES', '00123', badPostcode('00123', 'Spain (ES)')),
		national('ES', '51001', ok('51001', 'ES'), { address: 'Calle Real 1\nCeuta' }),
		national('ES', '52006', ok('52006', 'ES'), { address: 'Avenida Juan Carlos I 1\nMelilla' }),
		prefixed('España', 'E-08001', ok('08001', 'ES'), { address: 'La Rambla 1\nBarcelona' }),
		written('PT', '1000001', ok('1000-001', 'PT')),
		prefixed('Portugal', 'P-1250-096', ok('1250-096', 'PT')),
		written('GR', '10431', ok('104 31', 'GR')),
		prefixed('GR', 'GR-10557', ok('105 57', 'GR')),
		names('Ελλάδα', '546 21', ok('546 21', 'GR'), { address: 'Tsimiski 1\nThessaloniki' }),
		// Malta: MaltaPost's three letters and four digits since 2007; the old two digits are gone.
		row('MT', 'VLT 1117', ok('VLT 1117', 'MT')),
		written('MT', 'vlt1117', ok('VLT 1117', 'MT')),
		national('MT', 'VLT 11', badPostcode('VLT 11', 'Malta (MT)')),
		national('MT', 'NXR 01', badPostcode('NXR 01', 'Malta (MT)')),
		prefixed('HR', 'HR-10000', ok('10000', 'HR')),
		prefixed('SI', 'SI-1000', ok('1000', 'SI')),
		row('RS', '11000', ok('11000', 'RS')),
		names('North Macedonia', '1000', ok('1000', 'MK')),
		names('Vatican', '00120', ok('00120', 'VA')),
		row('AD', 'AD500', ok('AD500', 'AD')),
		// Gibraltar is a British Overseas Territory, not the UK: its letters go by International.
		row('GI', 'GX11 1AA', ok('GX11 1AA', 'GI')),
		written('Gibraltar', 'gx111aa', ok('GX11 1AA', 'GI'), { address: '2 Main Street\nGibraltar' }),
	];
}

function easternEurope(): Draft[] {
	const row = at('Eastern Europe', 'europe');
	const prefixed = at('Eastern Europe', 'prefixed postcode');
	const written = at('Eastern Europe', 'written form');
	const names = at('Eastern Europe', 'country name');
	return [
		row('PL', '00-950', ok('00-950', 'PL')),
		written('Polska', '00950', ok('00-950', 'PL')),
		prefixed('PL', 'PL-31-042', ok('31-042', 'PL'), { address: 'Rynek Główny 1\nKraków' }),
		written('CZ', '11000', ok('110 00', 'CZ')),
		prefixed('Czech Republic', 'CZ-602 00', ok('602 00', 'CZ'), { address: 'Náměstí Svobody 1\nBrno' }),
		written('SK', '81101', ok('811 01', 'SK')),
		prefixed('HU', 'H-1051', ok('1051', 'HU')),
		row('UA', '01001', ok('01001', 'UA')),
		names('Україна', '04070', ok('04070', 'UA'), { address: 'Andriivskyi uzviz 1\nKyiv' }),
		prefixed('MD', 'MD-2012', ok('2012', 'MD')),
		names('Россия', '101000', ok('101000', 'RU')),
		row('GE', '0105', ok('0105', 'GE')),
	];
}

function northAmerica(): Draft[] {
	const row = at('North America', 'abroad');
	const written = at('North America', 'written form');
	const refused = at('North America', 'refused');
	return [
		row('US', '10001', ok('10001', 'US')),
		at('North America', 'country name')('USA', '94105-1234', ok('94105-1234', 'US'), { address: '1 Market Street\nSan Francisco CA' }),
		written('United States', '941051234', ok('94105-1234', 'US'), { address: '2 Market Street\nSan Francisco CA' }),
		written('US', '20500 0003', ok('20500-0003', 'US'), { address: '1600 Pennsylvania Avenue NW\nWashington DC' }),
		// A ZIP code is five digits: 02110 (Boston) with its 0 lost in a spreadsheet is no ZIP code.
		refused('US', '2110', badPostcode('2110', 'United States (US)')),
		refused('US', 'SW1A 1AA', badPostcode('SW1A 1AA', 'United States (US)')),
		at('North America', 'none value')('US', '00000', badPostcode('00000', 'United States (US)')),
		row('CA', 'K1A 0B1', ok('K1A 0B1', 'CA')),
		written('Canada', 'm5v3l9', ok('M5V 3L9', 'CA'), { address: '290 Bremner Boulevard\nToronto ON' }),
		// Canada Post never uses D, F, I, O, Q, U, W or Z in a postal code's first letter.
		at('North America', 'national rule')('CA', 'D1A 0B1', badPostcode('D1A 0B1', 'Canada (CA)')),
		row('MX', '06600', ok('06600', 'MX')),
		at('North America', 'country name')('Puerto Rico', '00901', ok('00901', 'PR')),
		row('GL', '3900', ok('3900', 'GL')),
		row('BM', 'HM 12', ok('HM 12', 'BM')),
		// Georgia the state or Georgia the country: the row names two countries.
		at('North America', 'country name')('Georgia, USA', '30303', no('Country "Georgia, USA"', 'country', 'Georgia (GE)', '(US)'), { address: '1 Peachtree Street\nAtlanta GA' }),
	];
}

function latinAmerica(): Draft[] {
	const row = at('Latin America & Caribbean', 'abroad');
	const written = at('Latin America & Caribbean', 'written form');
	const none = at('Latin America & Caribbean', 'no postcodes');
	const names = at('Latin America & Caribbean', 'country name');
	return [
		row('BR', '01310-100', ok('01310-100', 'BR')),
		written('Brasil', '01310100', ok('01310-100', 'BR'), { address: 'Avenida Paulista 1500\nSão Paulo SP' }),
		written('AR', 'c1070aam', ok('C1070AAM', 'AR')),
		row('CL', '8320000', ok('8320000', 'CL')),
		row('CO', '110111', ok('110111', 'CO')),
		row('PE', '15001', ok('15001', 'PE')),
		row('EC', '170150', ok('170150', 'EC')),
		row('CR', '10101', ok('10101', 'CR')),
		row('BB', 'BB11000', ok('BB11000', 'BB')),
		row('KY', 'KY1-1100', ok('KY1-1100', 'KY')),
		none('BO', '', ok('', 'BO')),
		none('PA', '', ok('', 'PA')),
		none('JM', '', ok('', 'JM')),
		// Jamaica has no postcodes; its postal districts are printed as the sheet has them.
		none('JM', 'Kingston 5', ok('Kingston 5', 'JM'), { address: '2 Hope Road\nKingston' }),
		at('Latin America & Caribbean', 'none value')('BO', 'n/a', ok('', 'BO'), { address: 'Calle Sucre 1\nSucre' }),
		names('Bahamas, The', '', ok('', 'BS')),
		names('St. Lucia', '', ok('', 'LC')),
		// The Falklands' one postcode is Royal Mail-shaped, but the islands are abroad.
		row('FK', 'FIQQ 1ZZ', ok('FIQQ 1ZZ', 'FK')),
	];
}

function middleEast(): Draft[] {
	const row = at('Middle East', 'abroad');
	const none = at('Middle East', 'none value');
	const names = at('Middle East', 'country name');
	return [
		at('Middle East', 'no postcodes')('AE', '', ok('', 'AE')),
		none('UAE', 'N/A', ok('', 'AE'), { address: '2 Sheikh Zayed Road\nDubai' }),
		at('Middle East', 'no postcodes')('QA', '', ok('', 'QA')),
		none('QA', 'none', ok('', 'QA'), { address: '2 Corniche Street\nDoha' }),
		none('QA', '-', ok('', 'QA'), { address: '3 Corniche Street\nDoha' }),
		// Qatar has no postcodes, and a German one does not become Qatari.
		at('Middle East', 'prefixed postcode')('QA', 'D-10115', badPostcode('D-10115', 'Germany')),
		row('SA', '11564', ok('11564', 'SA')),
		row('IL', '9614303', ok('9614303', 'IL'), { address: '1 Jaffa Road\nJerusalem' }),
		row('LB', '1107 2810', ok('1107 2810', 'LB')),
		row('OM', '112', ok('112', 'OM')),
		names('Türkiye', '06101', ok('06101', 'TR')),
		at('Middle East', 'written form')('Iran, Islamic Rep.', '1193653471', ok('11936-53471', 'IR')),
	];
}

function africa(): Draft[] {
	const row = at('Africa', 'abroad');
	const none = at('Africa', 'no postcodes');
	const names = at('Africa', 'country name');
	return [
		names('Egypt, Arab Rep.', '11511', ok('11511', 'EG')),
		row('MA', '10000', ok('10000', 'MA')),
		row('ZA', '0001', ok('0001', 'ZA')),
		row('South Africa', '2196', ok('2196', 'ZA'), { address: '1 Sandton Drive\nJohannesburg' }),
		row('NG', '100001', ok('100001', 'NG')),
		row('KE', '00100', ok('00100', 'KE')),
		row('SN', '12500', ok('12500', 'SN')),
		none('GH', '', ok('', 'GH')),
		none('UG', '', ok('', 'UG')),
		none('ZW', '', ok('', 'ZW')),
		// "NA" in the country column is Namibia, whose postcode is optional.
		names('NA', '', ok('', 'NA')),
		names("Côte d'Ivoire", '', ok('', 'CI')),
		names('DR Congo', '', ok('', 'CD')),
		names('Gambia, The', '', ok('', 'GM')),
		names('Cabo Verde', '7600', ok('7600', 'CV')),
		names('Congo', '', no('Country "Congo" could be', 'country', '(CD)', '(CG)')),
		// Ascension is posted as St Helena (its AC is the UPU's, not ISO's); both are abroad.
		names('Ascension Island', 'ASCN 1ZZ', ok('ASCN 1ZZ', 'SH'), { address: '1 Main Road\nGeorgetown' }),
		row('SH', 'STHL 1ZZ', ok('STHL 1ZZ', 'SH')),
	];
}

function southAsia(): Draft[] {
	const row = at('South Asia', 'abroad');
	return [
		row('IN', '110001', ok('110001', 'IN')),
		at('South Asia', 'written form')('India', '400 001', ok('400001', 'IN'), { address: '1 Marine Drive\nMumbai' }),
		// India Post's first digit is a PIN region, 1 to 9: none starts with 0.
		at('South Asia', 'national rule')('IN', '012345', badPostcode('012345', 'India (IN)')),
		row('PK', '44000', ok('44000', 'PK')),
		row('BD', '1000', ok('1000', 'BD')),
		row('Sri Lanka', '00100', ok('00100', 'LK')),
		row('NP', '44600', ok('44600', 'NP')),
	];
}

function eastAsia(): Draft[] {
	const row = at('East Asia', 'abroad');
	const none = at('East Asia', 'none value');
	const names = at('East Asia', 'country name');
	return [
		row('JP', '100-0001', ok('100-0001', 'JP')),
		at('East Asia', 'written form')('Japan', '1500001', ok('150-0001', 'JP'), { address: '1-1 Jinnan\nShibuya-ku Tokyo' }),
		names('日本', '530-0001', ok('530-0001', 'JP'), { address: '1-1 Umeda\nKita-ku Osaka' }),
		names('中国', '200000', ok('200000', 'CN'), { address: '1 Nanjing Road\nShanghai' }),
		row('KR', '03051', ok('03051', 'KR')),
		names('Korea, Rep.', '04524', ok('04524', 'KR'), { address: '2 Sejong-daero\nSeoul' }),
		// Korea Post's six-digit codes gave way to five digits in 2015.
		at('East Asia', 'national rule')('KR', '110-050', badPostcode('110-050', '(KR)')),
		names('Korea', '', no('Country "Korea" could be', 'country', '(KP)', '(KR)')),
		row('TW', '10603', ok('10603', 'TW')),
		row('Taiwan', '106', ok('106', 'TW'), { address: '2 Zhongxiao East Road\nTaipei' }),
		at('East Asia', 'no postcodes')('HK', '', ok('', 'HK')),
		names('Hong Kong SAR', '', ok('', 'HK'), { address: '1 Nathan Road\nKowloon' }),
		none('HK', 'N/A', ok('', 'HK'), { address: '2 Nathan Road\nKowloon' }),
		none('HK', '-', ok('', 'HK'), { address: '3 Nathan Road\nKowloon' }),
		// Hong Kong has no postcodes: a UK postcode there says the row's country is the slip.
		at('East Asia', 'refused')('HK', 'SW1A 1AA', no('', 'postcode', 'Hong Kong (HK)', 'SW1A 1AA')),
		names('Macau', '', ok('', 'MO')),
	];
}

function southEastAsia(): Draft[] {
	const row = at('South-East Asia', 'abroad');
	return [
		row('SG', '238859', ok('238859', 'SG')),
		row('Singapore', '018956', ok('018956', 'SG'), { address: '10 Bayfront Avenue\nSingapore' }),
		row('MY', '50450', ok('50450', 'MY')),
		row('TH', '10110', ok('10110', 'TH')),
		at('South-East Asia', 'country name')('Viet Nam', '100000', ok('100000', 'VN')),
		at('South-East Asia', 'country name')('Myanmar', '11181', ok('11181', 'MM')),
		at('South-East Asia', 'country name')('Lao PDR', '01000', ok('01000', 'LA')),
		at('South-East Asia', 'written form')('BN', 'BS 8711', ok('BS8711', 'BN')),
		at('South-East Asia', 'no postcodes')('TL', '', ok('', 'TL')),
	];
}

function oceania(): Draft[] {
	const row = at('Oceania', 'abroad');
	const none = at('Oceania', 'no postcodes');
	return [
		row('AU', '2000', ok('2000', 'AU')),
		row('Australia', '0800', ok('0800', 'AU'), { address: '1 Smith Street\nDarwin NT' }),
		at('Oceania', 'refused')('AU', '20000', badPostcode('20000', 'Australia (AU)')),
		row('NZ', '6011', ok('6011', 'NZ')),
		row('PG', '111', ok('111', 'PG')),
		row('NC', '98800', ok('98800', 'NC')),
		none('FJ', '', ok('', 'FJ')),
		none('WS', '', ok('', 'WS')),
	];
}

/** Countries that are not, or not one: refused whatever the postcode. */
function notCountries(): Draft[] {
	const row = at('Western Europe', 'refused');
	return [
		row('Atlantis', '12345', no('Country "Atlantis"', 'country')),
		row('EU', '10115', no('Country "EU"', 'country')),
		at('Eastern Europe', 'refused')('XK', '10000', no('Country "XK"', 'country')),
		at('Oceania', 'refused')('Antarctica', '', no('Country "Antarctica"', 'country')),
	];
}

/** What word processors and PDFs put in a cell: line and paragraph separators, CRLF. */
function lineSeparators(): Draft[] {
	const row = at('UK and Crown dependencies', 'line separator');
	const seven = Array.from({ length: 7 }, (_, i) => `Line ${i + 1}`);
	return [
		row('GB', 'SW1A 2AA', no('The address has 7 lines below the name', 'address'), { address: seven.join('\u2028') }),
		row('GB', 'SW1A 2AA', ok('SW1A 2AA', 'GB', { address: '10 Downing Street\nLondon' }), { address: '10 Downing Street\u2028London' }),
		row('GB', 'SW1A 2AB', ok('SW1A 2AB', 'GB', { address: 'Flat 1\nThe Mansions\nKing Street\nSt James\'s\nWestminster\nLondon' }), {
			address: 'Flat 1\u2028The Mansions\nKing Street\u2029St James\'s\nWestminster\u2028London',
		}),
		at('Western Europe', 'line separator')('FR', '75007', ok('75007', 'FR', { address: '12 Rue Cler\nParis' }), { address: '12 Rue Cler\u2028\u2028Paris' }),
		at('North America', 'line separator')('US', '10118', ok('10118', 'US', { address: '350 Fifth Avenue\nNew York NY' }), { address: '350 Fifth Avenue\r\nNew York NY' }),
		// A name is one line on the envelope: a separator in it is a space.
		at('Western Europe', 'line separator')('DE', '10117', ok('10117', 'DE', { name: 'Anna Schmidt-Lindqvist' }), { name: 'Anna\u2028Schmidt-Lindqvist' }),
	];
}

function unicode(): Draft[] {
	const row = (region: Region) => at(region, 'unicode');
	const berlin = 'Unter den Linden 5\nBerlin';
	return [
		// The same person, the ü typed two ways (u + U+0308, and U+00FC): one recipient, sent composed.
		row('Western Europe')('DE', '10117', ok('10117', 'DE', { name: 'Hans Müller' }), { name: 'Hans Mu\u0308ller', address: berlin, same: 'müller' }),
		row('Western Europe')('DE', '10117', ok('10117', 'DE', { name: 'Hans Müller' }), { name: 'Hans Müller', address: berlin, same: 'müller' }),
		row('Western Europe')('FR', '69002', ok('69002', 'FR', { address: '3 Rue de l\u2019Église\nLyon' }), { address: '3 Rue de l\u2019E\u0301glise\nLyon' }),
		row('Southern Europe')('GR', '105 63', ok('105 63', 'GR'), { name: 'Δημήτρης Παπαδόπουλος', address: 'Οδός Ερμού 10\nΑθήνα' }),
		row('Eastern Europe')('RU', '125009', ok('125009', 'RU'), { name: 'Иван Петров', address: 'ул. Тверская 7\nМосква' }),
		row('Middle East')('AE', '', ok('', 'AE'), { name: 'محمد العلي', address: 'شارع الشيخ زايد\nدبي' }),
		row('Middle East')('IL', '6100101', ok('6100101', 'IL'), { name: 'דוד כהן', address: 'רחוב דיזנגוף 50\nתל אביב' }),
		row('Middle East')('TR', '34000', ok('34000', 'TR'), { name: 'Ayşe Yıldız', address: 'İstiklal Caddesi 1\nİstanbul' }),
		row('South-East Asia')('TH', '10200', ok('10200', 'TH'), { name: 'สมชาย ใจดี', address: '1 ถนนราชดำเนิน\nกรุงเทพมหานคร' }),
		row('East Asia')('KR', '06236', ok('06236', 'KR'), { name: '김민준', address: '테헤란로 1\n서울특별시 강남구' }),
		row('South Asia')('IN', '110011', ok('110011', 'IN'), { name: 'प्रिया शर्मा', address: '1 राजपथ\nनई दिल्ली' }),
		// Japanese sheets type postcodes in full-width digits; Japan Post's code is the seven digits.
		row('East Asia')('JP', '１５０－０００２', ok('150-0002', 'JP'), { name: '山田太郎', address: '渋谷区渋谷1-2-3\n東京都' }),
		// A no-break space from a web page is a space.
		row('UK and Crown dependencies')('GB', 'SW1A\u00A01AA', ok('SW1A 1AA', 'GB')),
		// Word turns a hyphen into an en dash: Poczta Polska's code is still 00-950.
		row('Eastern Europe')('PL', '00\u2013950', ok('00-950', 'PL'), { address: 'ul. Nowy Świat 1\nWarszawa' }),
	];
}

const FIRST = ['Amara', 'Bruno', 'Chloé', 'Dev', 'Elif', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Luca', 'Mei', 'Nadia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq'];

/** Every row, numbered in a name of its own (so no two are one recipient unless the data set says so). */
export function worldDataset(): WorldRow[] {
	const drafts = [
		...ukAndCrown(), ...bfpo(), ...westernEurope(), ...northernEurope(), ...southernEurope(), ...easternEurope(), ...northAmerica(),
		...latinAmerica(), ...middleEast(), ...africa(), ...southAsia(), ...eastAsia(), ...southEastAsia(), ...oceania(), ...notCountries(),
		...lineSeparators(), ...unicode(),
	];
	const firstOf = new Map<string, number>();
	return drafts.map((draft, i): WorldRow => {
		const name = draft.name ?? `${FIRST[i % FIRST.length]} Example ${i + 1}`;
		const code = 'refused' in draft.expect ? '' : draft.expect.country;
		const address = draft.address ?? STREETS[code] ?? '1 Main Street\nCapital City';
		let duplicateOf: number | null = null;
		if (draft.same) {
			duplicateOf = firstOf.has(draft.same) ? firstOf.get(draft.same)! + 1 : null;
			if (!firstOf.has(draft.same)) firstOf.set(draft.same, i);
		}
		const expected: Accepted | Refused =
			'refused' in draft.expect
				? draft.expect
				: {
						postcode: draft.expect.postcode,
						country: draft.expect.country,
						service: INLAND.includes(draft.expect.country) ? 'uk_second_class' : 'international',
						name: draft.expect.name ?? name.normalize('NFC'),
						address: draft.expect.address ?? address.normalize('NFC'),
						duplicateOf,
					};
		return { kind: draft.kind, region: draft.region, name, address, postcode: draft.postcode, country: draft.country, expected };
	});
}

export const isRefused = (expected: Accepted | Refused): expected is Refused => 'refused' in expected;
