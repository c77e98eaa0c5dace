import type { IDataObject } from 'n8n-workflow';

/** The choice that lets every event through. */
export const ANY_EVENT = '*';

/**
 * Intelliprint's events are a few levels deep. n8n copies items recursively, so a body nested
 * thousands deep would be answered 2xx and then fail the run: it is refused here instead.
 */
export const MAX_NESTING = 100;

export type EventReading = { valid: true; event: IDataObject } | { valid: false; reason: string };

/**
 * Reads the raw body as an Intelliprint event: UTF-8 JSON text holding an object with a non-empty
 * string `type`. Nothing else is an event, however it parses. The parsed object is handed on as it
 * is, so the item is exactly what was sent (JSON.parse keeps keys such as `__proto__` as plain own
 * keys).
 */
export function readEvent(raw: Buffer): EventReading {
	const text = raw.toString('utf8');
	// Invalid UTF-8 decodes to U+FFFD and would not encode back to the same bytes.
	if (!Buffer.from(text, 'utf8').equals(raw)) return { valid: false, reason: 'The body is not UTF-8 text' };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { valid: false, reason: 'The body is not JSON' };
	}
	if (!isObject(parsed)) return { valid: false, reason: 'The body is not a JSON object' };
	if (nestedDeeperThan(parsed, MAX_NESTING)) {
		return { valid: false, reason: `The body is nested more than ${MAX_NESTING} levels deep` };
	}
	const type = own(parsed, 'type');
	if (typeof type !== 'string' || type === '') {
		return { valid: false, reason: 'The event has no type (a non-empty string)' };
	}
	return { valid: true, event: parsed };
}

export interface EventFilter {
	event: unknown;
	letterStatuses: unknown;
}

/**
 * Why the trigger's filter leaves this event out, or undefined when it starts the workflow.
 * Answers are kept short whatever the sender put in `type` or `status`.
 */
export function ignoredBecause(event: IDataObject, filter: EventFilter): string | undefined {
	const type = own(event, 'type') as string;
	const wanted = typeof filter.event === 'string' ? filter.event : ANY_EVENT;
	if (wanted !== ANY_EVENT && type !== wanted) return `event ${short(type)}`;
	const statuses = Array.isArray(filter.letterStatuses) ? filter.letterStatuses : [];
	if (type !== 'letter.updated' || statuses.length === 0) return undefined;
	const status = letterStatus(event);
	if (status === undefined) return 'no letter status';
	return statuses.includes(status) ? undefined : `status ${short(status)}`;
}

/** The flat body has `status`; an enveloped one would have `data.status`. Only strings count. */
function letterStatus(event: IDataObject): string | undefined {
	const status = own(event, 'status');
	if (typeof status === 'string') return status;
	const data = own(event, 'data');
	const nested = isObject(data) ? own(data, 'status') : undefined;
	return typeof nested === 'string' ? nested : undefined;
}

/** Without recursion, so that the depth cannot exhaust the stack while measuring it. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
	const pending: Array<[unknown, number]> = [[value, 1]];
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [current, depth] = next;
		if (typeof current !== 'object' || current === null) continue;
		if (depth > limit) return true;
		for (const child of Object.values(current)) pending.push([child, depth + 1]);
	}
	return false;
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key of the object itself, never one inherited from Object.prototype (`constructor`, `toString`…). */
function own(object: IDataObject, key: string): unknown {
	return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

function short(text: string): string {
	return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}
