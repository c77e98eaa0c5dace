import { fail } from './http';
import type { FakePrintJob } from './prints';
import { POSTCARD_SIZES } from './schema';

/** The parts of a create or update body that decide what fits a letter or a postcard. */
export interface TypeInput {
	printing?: { double_sided?: string; double_sided_specific_pages?: number[] | null; black_and_white?: boolean; matt_finish?: boolean };
	postage?: { ideal_envelope?: string };
	extra_documents?: unknown[];
}

const isPostcardSize = (envelope: string | undefined) => (POSTCARD_SIZES as readonly string[]).includes(envelope ?? '');
const refuse = (param: string, why: string) => fail.invalid('parameter_invalid', `Invalid parameter for this print job's type: ${param} ${why}.`, param);

/**
 * Applies the job's type to its merged settings: a type change without a size moves the envelope to that type's
 * default, and each type keeps its own printing option (`black_and_white` for letters, `matt_finish` for
 * postcards). Then refuses, naming the parameter, whatever belongs to the other type: backgrounds, extra
 * documents, double-sided printing and letter envelopes on a postcard; postcard sizes and a matt finish on a letter.
 * Settings are checked after merging, so one kept from before a type change is refused too (and can be
 * cleared: `double_sided=no`, an empty background).
 */
export function applyType(job: FakePrintJob, input: TypeInput): void {
	const postcard = job.type === 'postcard';
	const postage = job.postage!;
	const printing = job.printing! as NonNullable<FakePrintJob['printing']> & { black_and_white?: boolean; matt_finish?: boolean };
	if (input.postage?.ideal_envelope === undefined && isPostcardSize(postage.ideal_envelope) !== postcard) {
		postage.ideal_envelope = postcard ? 'postcard_a6' : 'c5';
	}
	if (postcard) {
		if (input.printing?.black_and_white !== undefined) throw refuse('printing.black_and_white', 'is for letters only');
		delete printing.black_and_white;
		printing.matt_finish ??= false;
		if (printing.double_sided !== 'no') throw refuse('printing.double_sided', 'is for letters only');
		if (printing.double_sided_specific_pages?.length) throw refuse('printing.double_sided_specific_pages', 'is for letters only');
		for (const side of ['first_page', 'other_pages'] as const) {
			if (job.background?.[side]) throw refuse(`background.${side}`, 'is for letters only');
		}
		if (input.extra_documents?.length || job.extra_documents?.length) throw refuse('extra_documents', 'are for letters only');
		if (!isPostcardSize(postage.ideal_envelope)) throw refuse('postage.ideal_envelope', `must be one of ${POSTCARD_SIZES.join(', ')} for a postcard`);
		return;
	}
	if (input.printing?.matt_finish !== undefined) throw refuse('printing.matt_finish', 'is for postcards only');
	delete printing.matt_finish;
	printing.black_and_white ??= false;
	if (isPostcardSize(postage.ideal_envelope)) throw refuse('postage.ideal_envelope', 'is a postcard size; a letter takes c5, c4, c4_plus or a4_box');
}
