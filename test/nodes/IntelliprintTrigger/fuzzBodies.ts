/**
 * Request bodies for the webhook fuzz: every JSON kind, hostile keys, odd encodings and sizes.
 * Each body comes with what the generator put in it, so a test can say what must happen without
 * asking the node's own code.
 */

/** A small seeded PRNG (mulberry32): the same seed gives the same cases on every run. */
export class Random {
	constructor(private state: number) {}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) | 0;
		let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(below: number): number {
		return Math.floor(this.next() * below);
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[this.int(items.length)];
	}
}

export interface BodySample {
	bytes: Buffer;
	/** What kind of body this is, for messages and counts. */
	kind: string;
	/** Set only for a well-formed event: UTF-8 JSON object, non-empty string `type`, at most 100 levels deep. */
	eventType?: string;
	/** What a status filter sees: `status` when it is a string, else `data.status` when that is a string. */
	letterStatus?: string;
}

export const STATUSES = ['returned', 'sent', 'failed_wrong_address', 'printing', 'Returned', ''];
const TYPES = ['mail.failed', 'letter.updated', 'mailing_list.addresses_validated', 'Mail.Failed', 'mail.failed ', 'letter.updated.v2', 'ünïcode ✉', 'x'.repeat(300)];
const STRINGS = ['', 'plain', 'Addressee gone away', 'ünïcödé ✉️ 📬', '\u0000\u001f', '"quoted" \\ slash', '</script>', 'a\nb\tc', '\u2028\u2029', '𝔘𝔫𝔦'];
const HOSTILE = ['json', 'binary', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'pairedItem', 'index', 'error'];

const text = (value: unknown) => JSON.stringify(value);

function leaf(r: Random): string {
	switch (r.int(9)) {
		case 0: return 'null';
		case 1: return r.pick(['true', 'false']);
		case 2: return String(r.int(1_000_000) - 500_000);
		case 3: return r.pick(['1.5', '-0.001', '1e308', '1E-7', '123456789012345678901234567890', '9007199254740993', '0']);
		case 4: return '{"toString":1}';
		case 5: return r.pick(['[]', '{}', '[{"valueOf":1}]', '{"json":{"a":1},"binary":{"data":{}}}']);
		default: return text(r.pick(STRINGS));
	}
}

function value(r: Random, depth = 0): string {
	if (depth > 3 || r.chance(0.6)) return leaf(r);
	const size = r.int(4);
	if (r.chance(0.5)) return `[${Array.from({ length: size }, () => value(r, depth + 1)).join(',')}]`;
	return `{${Array.from({ length: size }, () => `${text(r.pick([...HOSTILE, 'a', 'b', 'status', 'type']))}:${value(r, depth + 1)}`).join(',')}}`;
}

/** A JSON value `levels` containers deep. */
function nested(levels: number): string {
	return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** JSON object text from key/value-text pairs, in random layout (duplicate keys allowed: the last one counts). */
function objectText(r: Random, pairs: Array<[string, string]>): string {
	const gap = () => r.pick(['', '', ' ', '\n  ', '\t', '\r\n']);
	return `{${gap()}${pairs.map(([k, v]) => `${text(k)}${gap()}:${gap()}${v}`).join(`,${gap()}`)}${gap()}}`;
}

interface EventParts {
	pairs: Array<[string, string]>;
	type: string;
	letterStatus?: string;
}

/** The key/value pairs of a well-formed event, with odd but legal content. */
function eventParts(r: Random): EventParts {
	const type = r.chance(0.7) ? r.pick(['mail.failed', 'letter.updated']) : r.pick(TYPES);
	const pairs: Array<[string, string]> = [
		['id', text(`ltr_${r.int(1e9).toString(36)}`)],
		['print_id', text(`print_${r.int(1e9).toString(36)}`)],
		['reference', text(r.pick(STRINGS))],
		['testmode', r.pick(['true', 'false'])],
	];
	let status: string | undefined;
	let dataStatus: string | undefined;
	switch (r.int(7)) {
		case 0: break;
		case 1: pairs.push(['status', '{"toString":1}']); break;
		case 2: pairs.push(['status', '[{"valueOf":1}]']); break;
		case 3: pairs.push(['status', r.pick(['7', 'null', 'true', '["returned"]'])]); break;
		default: status = r.pick(STATUSES); pairs.push(['status', text(status)]);
	}
	switch (r.int(6)) {
		case 0: dataStatus = r.pick(STATUSES); pairs.push(['data', `{"status":${text(dataStatus)}}`]); break;
		case 1: pairs.push(['data', r.pick(['{"status":{"toString":1}}', '[{"status":"returned"}]', '"returned"', 'null'])]); break;
		case 2: pairs.push(['data', value(r)]); break;
		default: break;
	}
	for (const key of HOSTILE) if (r.chance(0.12)) pairs.push([key, value(r)]);
	if (r.chance(0.3)) pairs.push(['returned', r.chance(0.5) ? 'null' : `{"date":${r.int(2e9)},"reason":${text(r.pick(STRINGS))}}`]);
	for (let i = pairs.length - 1; i > 0; i--) {
		const j = r.int(i + 1);
		[pairs[i], pairs[j]] = [pairs[j], pairs[i]];
	}
	// Sometimes a decoy `type` comes first: JSON.parse keeps the last of duplicate keys, the real one.
	const decoy = r.chance(0.1);
	if (decoy) pairs.unshift(['type', r.pick(['{"toString":1}', '["mail.failed"]', '7', 'null'])]);
	pairs.splice(decoy ? 1 + r.int(pairs.length) : r.int(pairs.length + 1), 0, ['type', text(type)]);
	return { pairs, type, letterStatus: status ?? dataStatus };
}

/** A well-formed event, sometimes large (up to about 1 MB) or deeply (but not too deeply) nested. */
export function eventBody(r: Random): BodySample {
	const parts = eventParts(r);
	let kind = 'event';
	if (r.chance(0.015)) {
		parts.pairs.push(['padding', text(r.pick(['x', 'é', '📬', 'ab"\\']).repeat(50_000 + r.int(200_000)))]);
		kind = 'event (large)';
	} else if (r.chance(0.02)) {
		parts.pairs.push(['deep', nested(r.pick([10, 50, 99]))]);
		kind = 'event (nested)';
	}
	const body = objectText(r, parts.pairs);
	const padded = r.chance(0.05) ? ` \n${body}\r\n\t` : body;
	return { bytes: Buffer.from(padded), kind: padded === body ? kind : 'event (whitespace around)', eventType: parts.type, letterStatus: parts.letterStatus };
}

/** A body that is not an Intelliprint event, for one of many reasons. */
export function otherBody(r: Random): BodySample {
	const event = () => objectText(r, eventParts(r).pairs);
	const withoutType = () => objectText(r, eventParts(r).pairs.filter(([key]) => key !== 'type'));
	const withType = (type: string) => objectText(r, [...eventParts(r).pairs.filter(([key]) => key !== 'type'), ['type', type]]);
	const choices: Array<[string, () => string | Buffer]> = [
		['null', () => 'null'],
		['number', () => r.pick(['0', '-1.5', '1e308', '42'])],
		['string', () => text(r.pick(['mail.failed', '', '{"type":"mail.failed"}']))],
		['boolean', () => r.pick(['true', 'false'])],
		['array', () => r.pick(['[]', `[${event()}]`, '[1,2,3]', '[null]'])],
		['empty object', () => '{}'],
		['no type', withoutType],
		['type object (toString not a function)', () => withType('{"toString":1}')],
		['type object (valueOf not a function)', () => withType('{"valueOf":1,"toString":{}}')],
		['type array', () => withType(r.pick(['["mail.failed"]', '[{"toString":1}]', '[]']))],
		['type not a string', () => withType(r.pick(['7', 'null', 'true', '{}']))],
		['empty type', () => withType('""')],
		['byte order mark', () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(event())])],
		['invalid UTF-8', () => Buffer.concat([Buffer.from('{"type":"mail.failed","reason":"'), Buffer.from(r.pick([[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]])), Buffer.from('"}')])],
		['UTF-16', () => Buffer.from(event(), 'utf16le')],
		['not JSON', () => r.pick(['hello', "{'type':'mail.failed'}", 'NaN', 'undefined', '{"type":"mail.failed"', '{"type":"mail.failed"} x', '<xml/>', 'type=mail.failed'])],
		['empty body', () => ''],
		['nested too deep', () => objectText(r, [['type', '"mail.failed"'], ['deep', nested(r.pick([100, 1000, 20_000]))]])],
	];
	const [kind, make] = r.pick(choices);
	const made = make();
	return { bytes: typeof made === 'string' ? Buffer.from(made) : made, kind };
}
