import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

import { eventBody, otherBody, Random, type BodySample } from './fuzzBodies';

/**
 * Deliveries for the webhook fuzz, each with the answer it must get, worked out here from what the
 * generator made (never by asking the node's own helpers):
 * - a trigger with signatures on takes only a complete, well-timed set of one header family whose
 *   signature list holds the exact canonical HMAC; anything else is 401;
 * - then only a well-formed event (see BodySample.eventType) goes on; anything else is 400;
 * - then the trigger's choice: 200 with `ignored` when it is left out;
 * - then the delivery id: a repeat of an id that already started a run is 200 `ignored`;
 * - else 200 and exactly one run whose item is the body, parsed.
 */

/** The triggers the cases go to: Any Event, Mail Failed, Letter Updated (Returned only), Any Event unsigned. */
export type Target = 'any' | 'failed' | 'returned' | 'open';
export const TARGETS: Record<Target, { event: string; letterStatuses?: string[]; verifySignatures: boolean }> = {
	any: { event: '*', verifySignatures: true },
	failed: { event: 'mail.failed', verifySignatures: true },
	returned: { event: 'letter.updated', letterStatuses: ['returned'], verifySignatures: true },
	open: { event: '*', verifySignatures: false },
};

export type SignatureVariant =
	| 'valid' | 'wrong key' | 'trailing AA' | 'trailing =junk' | 'unpadded' | 'base64url' | 'valid among others'
	| 'none valid among several' | 'v2 prefix' | 'empty' | 'no comma' | 'extra comma part' | 'tampered body' | 'other id';

export interface HeaderRecipe {
	family: 'webhook' | 'svix' | 'mixed' | 'both';
	/** Seconds from now, or a literal header value. */
	timestamp: number | string;
	omit?: 'id' | 'timestamp' | 'signature' | 'all';
	/** Sent twice (n8n, like Node, joins the two values). */
	twice?: 'id' | 'timestamp';
	signature: SignatureVariant;
	contentType?: string;
}

export type Outcome = 'run' | 'filtered' | 'duplicate' | 'refused body' | 'refused signature';
export const STATUS_OF: Record<Outcome, number> = { run: 200, filtered: 200, duplicate: 200, 'refused body': 400, 'refused signature': 401 };

export interface FuzzCase {
	index: number;
	target: Target;
	body: BodySample;
	id: string;
	/** The id is a plain short one (what an unsigned trigger may dedupe on). */
	saneId: boolean;
	headers: HeaderRecipe;
	/** Sent again after this case's first delivery (same id and body, freshly signed). */
	redeliveryOf?: number;
	expected: Outcome;
}

const VALID: SignatureVariant[] = ['valid', 'valid among others'];

export function generateCases(seed: number, count: number): FuzzCase[] {
	const r = new Random(seed);
	const cases: FuzzCase[] = [];
	const ran: Record<Target, Set<string>> = { any: new Set(), failed: new Set(), returned: new Set(), open: new Set() };
	for (let index = 0; index < count; index++) {
		let draft: Omit<FuzzCase, 'expected'>;
		const earlier = cases.length ? cases[r.int(cases.length)] : undefined;
		if (earlier && r.chance(0.1)) {
			draft = { ...earlier, index, headers: { family: 'webhook', timestamp: 0, signature: 'valid', contentType: earlier.headers.contentType }, redeliveryOf: earlier.index };
		} else {
			const target: Target = r.chance(0.08) ? 'open' : r.chance(0.09) ? 'returned' : r.pick(['any', 'failed'] as const);
			const oddHeaders = r.chance(0.3);
			const body = !oddHeaders && r.chance(0.35) ? otherBody(r) : eventBody(r);
			const idKind = r.int(20);
			const id = idKind === 0 ? `msg_${'h'.repeat(2000 + r.int(2000))}` : idKind === 1 ? `msg ${index} with spaces` : `msg_${seed}_${index}`;
			draft = { index, target, body, id, saneId: idKind > 1, headers: oddHeaders ? oddRecipe(r) : { family: r.chance(0.25) ? 'svix' : 'webhook', timestamp: r.int(480) - 240, signature: 'valid' } };
			if (r.chance(0.1)) draft.headers.contentType = r.pick(['text/plain', 'application/json; charset=utf-8', 'application/x-www-form-urlencoded', '']);
		}
		cases.push({ ...draft, expected: outcomeOf(draft, ran) });
	}
	return cases;
}

function oddRecipe(r: Random): HeaderRecipe {
	const recipe: HeaderRecipe = { family: r.pick(['webhook', 'svix', 'webhook', 'mixed', 'both']), timestamp: 0, signature: 'valid' };
	switch (r.int(6)) {
		case 0: recipe.omit = r.pick(['id', 'timestamp', 'signature', 'all']); break;
		case 1: recipe.twice = r.pick(['id', 'timestamp']); break;
		case 2: recipe.timestamp = r.pick([-600, 600, -100_000, 100_000, -310 - r.int(60), 310 + r.int(60), -239, 239]); break;
		case 3: recipe.timestamp = r.pick(['abc', ' 17', '1e9', '-5', '12.5', '9'.repeat(30), '0x10', '']); break;
		default:
			recipe.signature = r.pick([
				'valid', 'wrong key', 'trailing AA', 'trailing =junk', 'unpadded', 'base64url', 'valid among others',
				'none valid among several', 'v2 prefix', 'empty', 'no comma', 'extra comma part', 'tampered body', 'other id',
			]);
	}
	return recipe;
}

function outcomeOf(draft: Omit<FuzzCase, 'expected'>, ran: Record<Target, Set<string>>): Outcome {
	const { target, body, headers } = draft;
	const settings = TARGETS[target];
	if (settings.verifySignatures) {
		const wellTimed = typeof headers.timestamp === 'number' && Math.abs(headers.timestamp) <= 300;
		const complete = headers.family !== 'mixed' && headers.omit === undefined && headers.twice === undefined;
		if (!wellTimed || !complete || !VALID.includes(headers.signature)) return 'refused signature';
	}
	if (body.eventType === undefined) return 'refused body';
	if (settings.event !== '*' && body.eventType !== settings.event) return 'filtered';
	if (settings.letterStatuses && body.eventType === 'letter.updated' && !settings.letterStatuses.includes(body.letterStatus as string)) return 'filtered';
	const dedupeId = settings.verifySignatures ? draft.id : unsignedId(draft);
	if (dedupeId !== undefined && ran[target].has(dedupeId)) return 'duplicate';
	if (dedupeId !== undefined) ran[target].add(dedupeId);
	return 'run';
}

/** Without signatures the trigger may dedupe only on a plain short id it was actually sent. */
function unsignedId({ id, saneId, headers }: Omit<FuzzCase, 'expected'>): string | undefined {
	// With both families sent and no webhook-id, the svix-id (this case's id + "-svix") is the one there is.
	if (headers.family === 'both' && (headers.omit === 'id' || headers.omit === 'all')) return saneId ? `${id}-svix` : undefined;
	if (!saneId || headers.omit === 'id' || headers.omit === 'all' || headers.twice === 'id') return undefined;
	return id;
}

/** The headers to send for a case now: signed (or mis-signed) as its recipe says. */
export function headersFor(fuzzCase: FuzzCase, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): Headers {
	const { headers: recipe, body } = fuzzCase;
	let timestamp = typeof recipe.timestamp === 'number' ? String(nowSeconds + recipe.timestamp) : recipe.timestamp;
	let valid = sign(secret, fuzzCase.id, timestamp, body.bytes);
	// base64url only changes a signature holding + or /: move the timestamp (within tolerance) until it does.
	for (let shift = 1; recipe.signature === 'base64url' && !/[+/]/.test(valid); shift++) {
		timestamp = String(nowSeconds - shift);
		valid = sign(secret, fuzzCase.id, timestamp, body.bytes);
	}
	const other = `whsec_${Buffer.from('not-the-signing-key-of-this-hook').toString('base64')}`;
	const signatures: Record<SignatureVariant, () => string> = {
		valid: () => valid,
		'wrong key': () => sign(other, fuzzCase.id, timestamp, body.bytes),
		'trailing AA': () => `${valid}AA`,
		'trailing =junk': () => `${valid}=junk`,
		unpadded: () => valid.replace(/=+$/, ''),
		base64url: () => valid.replace(/\+/g, '-').replace(/\//g, '_'),
		'valid among others': () => `v1,${Buffer.alloc(32, 7).toString('base64')} v2,${valid.slice(3)} ${valid}`,
		'none valid among several': () => `v1,${Buffer.alloc(32, 7).toString('base64')} v1a,${valid.slice(3)} ${valid}x`,
		'v2 prefix': () => valid.replace('v1,', 'v2,'),
		empty: () => '',
		'no comma': () => valid.replace(',', ''),
		'extra comma part': () => `${valid},x`,
		'tampered body': () => sign(secret, fuzzCase.id, timestamp, Buffer.concat([body.bytes, Buffer.from(' ')])),
		'other id': () => sign(secret, `${fuzzCase.id}x`, timestamp, body.bytes),
	};
	const out = new Headers();
	if (recipe.contentType !== '') out.set('content-type', recipe.contentType ?? 'application/json');
	const family = recipe.family === 'svix' ? 'svix' : 'webhook';
	const values: Record<'id' | 'timestamp' | 'signature', string> = { id: fuzzCase.id, timestamp, signature: signatures[recipe.signature]() };
	for (const part of ['id', 'timestamp', 'signature'] as const) {
		if (recipe.omit === part || recipe.omit === 'all') continue;
		const name = recipe.family === 'mixed' && part === 'signature' ? 'svix-signature' : `${family}-${part}`;
		out.append(name, values[part]);
		if (recipe.twice === part) out.append(name, values[part]);
	}
	if (recipe.family === 'both') {
		out.set('svix-id', `${fuzzCase.id}-svix`);
		out.set('svix-timestamp', '1');
		out.set('svix-signature', 'v1,AAAA');
	}
	return out;
}

/** A Standard Webhooks signature, by the reference library where it can take the bytes as they are. */
function sign(secret: string, id: string, timestamp: string, bytes: Buffer): string {
	if (/^\d+$/.test(timestamp) && Buffer.from(bytes.toString('utf8')).equals(bytes)) {
		return new Webhook(secret).sign(id, new Date(Number(timestamp) * 1000), bytes.toString('utf8'));
	}
	const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
	return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(bytes).digest('base64')}`;
}

/** Counts of expected outcomes, in a fixed order, e.g. "run 1234, filtered 300, …". */
export function tally(outcomes: Outcome[]): string {
	const order: Outcome[] = ['run', 'filtered', 'duplicate', 'refused body', 'refused signature'];
	return order.map((outcome) => `${outcome} (${STATUS_OF[outcome]}) ${outcomes.filter((o) => o === outcome).length}`).join(', ');
}

/**
 * Deep equality of parsed JSON by own keys, in order. (vitest's toStrictEqual also compares
 * `constructor`, which an event may well have as an ordinary key.)
 */
export function sameJson(a: unknown, b: unknown): boolean {
	if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
	if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
	const keys = Object.keys(a);
	const otherKeys = Object.keys(b);
	const left = a as Record<string, unknown>;
	const right = b as Record<string, unknown>;
	return keys.length === otherKeys.length && keys.every((key, i) => key === otherKeys[i] && sameJson(left[key], right[key]));
}
