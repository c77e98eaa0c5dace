import { isFile, type Field, type Fields } from './body';
import { fail } from './http';

/** What a field may hold. Form bodies carry every value as text, so values are coerced first. */
export type Spec =
	| 'string'
	| 'boolean'
	| 'integer'
	| 'number'
	| 'file'
	| 'free'
	| { enum: readonly string[] }
	| { object: Record<string, Spec> }
	/** A list; `max` entries at most (checked before any entry is read). */
	| { array: Spec; max?: number }
	/** A file part, or an object with these fields that names a file some other way (`file[url]`, `file[content]`). */
	| { fileOr: Record<string, Spec> };

export const LETTER_STATUSES = ['draft', 'waiting_to_print', 'printing', 'enclosing', 'shipping', 'sent', 'cancelled', 'returned', 'failed_wrong_address'] as const;
export const SERVICES = ['uk_second_class', 'uk_first_class', 'uk_second_class_signed_for', 'uk_first_class_signed_for', 'uk_special_delivery', 'uk_special_delivery_9am', 'tracked_24', 'tracked_48', 'international'] as const;
export const ENVELOPES = ['c5', 'c4', 'c4_plus', 'a4_box'] as const;
export const POSTCARD_SIZES = ['postcard_a6', 'postcard_a5', 'postcard_a5_enveloped'] as const;
/** Recipients one request may carry (ours: the API's limit is not public). */
export const MAX_RECIPIENTS = 10_000;

/** A recipient as print jobs and mailing lists take it; `recipients.ts` checks what the types cannot. */
export const RECIPIENT: Record<string, Spec> = {
	address: { object: { name: 'string', line: 'string', postcode: 'string', country: 'string' } },
	variables: 'free',
};
const recipients: Spec = { array: { object: RECIPIENT }, max: MAX_RECIPIENTS };

const settings: Record<string, Spec> = {
	reference: 'string',
	confirmed: 'boolean',
	type: { enum: ['letter', 'postcard'] },
	splitting: { object: { method: { enum: ['none', 'split_on_phrase', 'split_on_pages'] }, phrase: 'string', pages: 'integer' } },
	printing: {
		object: { double_sided: { enum: ['no', 'yes', 'mixed'] }, double_sided_specific_pages: { array: 'integer' }, premium_quality: 'boolean', black_and_white: 'boolean', matt_finish: 'boolean' },
	},
	// Letter envelopes and postcard sizes share the field; postcards.ts refuses the ones that do not fit the type.
	postage: { object: { service: { enum: SERVICES }, ideal_envelope: { enum: [...ENVELOPES, ...POSTCARD_SIZES] }, mail_date: 'integer' } },
	address_window: { enum: ['left', 'right'] },
	background: { object: { first_page: 'string', other_pages: 'string' } },
	confidential: 'boolean',
	extra_documents: { array: { object: { id: 'string', document: 'file', order: { enum: ['first', 'last', 'custom'] }, ordering_number: 'integer', apply_background: 'boolean' } } },
	remove_letters: { object: { with_phrase: 'string' } },
	nudge: { object: { x: 'number', y: 'number' } },
	confirmation_email: 'boolean',
	metadata: 'free',
	// Letters to recipients, one each (given here or by a stored mailing list), from content, a template or a file.
	content: 'string',
	recipients,
	mailing_list: 'string',
};

export const PRINT_CREATE: Record<string, Spec> = { file: { fileOr: { url: 'string', content: 'string', name: 'string' } }, template: 'string', testmode: 'boolean', ...settings };
export const PRINT_UPDATE: Record<string, Spec> = settings;
export const BACKGROUND_CREATE: Record<string, Spec> = { file: 'file', name: 'string', team: 'string' };
export const BACKGROUND_UPDATE: Record<string, Spec> = { name: 'string', team: 'string' };
const addressValidation: Spec = { object: { requested: 'boolean' } };
export const MAILING_LIST_CREATE: Record<string, Spec> = { name: 'string', recipients, address_validation: addressValidation };
export const MAILING_LIST_UPDATE: Record<string, Spec> = { ...MAILING_LIST_CREATE, delete_old_recipients: 'boolean' };

function distance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, i) => i);
	for (let i = 1; i <= a.length; i++) {
		let previous = row[0];
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const current = row[j];
			row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
			previous = current;
		}
	}
	return row[b.length];
}

function closest(name: string, known: string[]): string | undefined {
	const ranked = known.map((k) => [k, distance(name, k)] as const).sort((a, b) => a[1] - b[1]);
	return ranked[0] && ranked[0][1] <= 3 ? ranked[0][0] : undefined;
}

function coerce(value: Field, spec: Spec, param: string): unknown {
	const invalid = (what: string) => fail.invalid('parameter_invalid', `Invalid value for ${param}: ${what}.`, param);
	if (spec === 'free') return value;
	if (spec === 'file') {
		if (!isFile(value)) throw invalid('expected a file');
		return value;
	}
	if (typeof spec === 'object' && 'fileOr' in spec) {
		if (isFile(value)) return value;
		if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('expected a file');
		return validate(value, spec.fileOr, `${param}.`);
	}
	if (typeof spec === 'object' && 'object' in spec) {
		if (typeof value !== 'object' || value === null || Array.isArray(value) || isFile(value)) throw invalid('expected an object');
		return validate(value as Fields, spec.object, `${param}.`);
	}
	if (typeof spec === 'object' && 'array' in spec) {
		const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null && !isFile(value) ? Object.values(value) : undefined;
		if (!list) throw invalid('expected a list');
		if (spec.max !== undefined && list.length > spec.max) throw invalid(`at most ${spec.max} entries are allowed in one request, not ${list.length}`);
		// Entries are named with dot paths, as in `recipients.0.address.postcode`.
		return list.map((entry, index) => coerce(entry, spec.array, `${param}.${index}`));
	}
	if (isFile(value) || (typeof value === 'object' && value !== null)) throw invalid('expected a plain value');
	const text = String(value);
	if (spec === 'string') return text;
	if (spec === 'boolean') {
		if (value === true || text === 'true') return true;
		if (value === false || text === 'false') return false;
		throw invalid(`"${text}" is not true or false`);
	}
	if (spec === 'integer' || spec === 'number') {
		const number = Number(text);
		if (text.trim() === '' || !Number.isFinite(number) || (spec === 'integer' && !Number.isInteger(number))) {
			throw invalid(`"${text}" is not ${spec === 'integer' ? 'a whole number' : 'a number'}`);
		}
		return number;
	}
	if (!spec.enum.includes(text)) throw invalid(`"${text}" is not one of ${spec.enum.join(', ')}`);
	return text;
}

/** Checks a body against a spec: unknown names are refused with a hint, values coerced to their types. */
export function validate(fields: Fields, spec: Record<string, Spec>, prefix = ''): Record<string, unknown> {
	const result: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(fields)) {
		const param = `${prefix}${name}`;
		if (!(name in spec)) {
			const hint = closest(name, Object.keys(spec));
			throw fail.invalid('parameter_unknown', `Received unknown parameter: ${param}${hint ? ` (Did you mean ${prefix}${hint}?)` : ''}`, param);
		}
		result[name] = coerce(value, spec[name], param);
	}
	return result;
}
