import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FormObject } from '../../transport';

/** Create's options that depend on the print job's Type (letter or postcard). */
export const postcardFields: INodeProperties[] = [
	{
		displayName: 'Postcard Size',
		name: 'postcardSize',
		type: 'options',
		default: 'postcard_a6',
		displayOptions: { show: { '/type': ['postcard'] } },
		options: [
			{ name: 'A6', value: 'postcard_a6' },
			{ name: 'A5', value: 'postcard_a5' },
			{ name: 'A5 in an Envelope', value: 'postcard_a5_enveloped' },
		],
	},
	{
		displayName: 'Matt Finish',
		name: 'mattFinish',
		type: 'boolean',
		default: false,
		displayOptions: { show: { '/type': ['postcard'] } },
		description: 'Whether the postcard is printed with a matt rather than a gloss finish',
	},
	{
		displayName: 'Black and White',
		name: 'blackAndWhite',
		type: 'boolean',
		default: false,
		displayOptions: { show: { '/type': ['letter'] } },
		description: 'Whether to print the letters in black and white, which costs less than colour',
	},
	{
		displayName: 'Address Window',
		name: 'addressWindow',
		type: 'options',
		default: 'left',
		options: [
			{ name: 'Left', value: 'left' },
			{ name: 'Right', value: 'right' },
		],
		description: 'Which side of the envelope the address window is on, and so where the address must be',
	},
];

/** Letter-only settings n8n fills in with their defaults even where they are hidden. */
const LETTER_DEFAULTS: Record<string, Record<string, unknown>> = { printing: { double_sided: 'no' }, postage: { ideal_envelope: 'c5' } };

/** Adds the options above to a print job body, and drops letter-only defaults from a postcard's. */
export function applyTypeOptions(body: FormObject, options: IDataObject, type: string): void {
	if (options.addressWindow !== undefined) body.address_window = String(options.addressWindow);
	const printing = (body.printing ?? {}) as FormObject;
	if (type !== 'postcard') {
		if (options.blackAndWhite !== undefined) body.printing = { ...printing, black_and_white: options.blackAndWhite === true };
		return;
	}
	body.type = 'postcard';
	for (const [group, defaults] of Object.entries(LETTER_DEFAULTS)) {
		const values = (body[group] ?? {}) as FormObject;
		for (const [key, value] of Object.entries(defaults)) if (values[key] === value) delete values[key];
	}
	body.postage = { ...((body.postage ?? {}) as FormObject), ideal_envelope: String(options.postcardSize ?? 'postcard_a6') };
	if (options.mattFinish !== undefined) body.printing = { ...((body.printing ?? {}) as FormObject), matt_finish: options.mattFinish === true };
}
