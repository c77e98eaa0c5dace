import type { INodeProperties } from 'n8n-workflow';

import { SENT_KEY_METADATA } from '../../reruns';
import { alphabetical } from '../../values';
import { confirmUpToOption, parallelItemsOption } from '../common.descriptions';
import { postcardFields } from './postcard.description';
import { printJobSettingFields } from './printJobOptions.description';

/** About 2.5 MB of JSON with a few variables a letter (12 MB if it had to be multipart): well inside the API's (reported) 100 MiB. */
export const LETTERS_PER_JOB = 10_000;

/** Print Job → Create's Options: the job's settings, and how a mail run is split, deduplicated and made rerunnable. */
export const createOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: alphabetical([
		confirmUpToOption,
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoices-november.pdf',
			displayOptions: { show: { '/source': ['pdf'] } },
			description: "The file name Intelliprint shows, instead of the binary's own",
		},
		...postcardFields,
		{
			displayName: 'Letters per Print Job',
			name: 'lettersPerJob',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: LETTERS_PER_JOB,
			displayOptions: { show: { '/recipientsFrom': ['allItems'] } },
			description:
				'A mail run with more rows becomes several print jobs of at most this many letters each (fewer where their rows\' keys and Row IDs would not fit on one job). Intelliprint accepts requests up to about 100 MiB; 10,000 letters with a few fields each are about 2.5 MB.',
		},
		{
			displayName: 'One Letter per Recipient',
			name: 'oneLetterPerRecipient',
			type: 'boolean',
			default: false,
			displayOptions: { show: { '/recipientsFrom': ['allItems'] } },
			description:
				'Whether to send one letter to rows that name the same recipient (same name, address lines, postcode and country, whatever their case and spacing). The repeated rows are paired with the letter that covers them.',
		},
		{
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			placeholder: 'e.g. November invoices',
			description: 'Your name for the job; defaults to the file name. With Skip Items Already Sent on, the node sets it: one job per item takes its key, a mail run "n8n mail run". Leave this empty then.',
		},
		{
			displayName: 'Row ID',
			name: 'rowId',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.invoiceId }}',
			description:
				"What leads a letter back to its row, e.g. the invoice number, stored on the print job with the row's place in the run: the Intelliprint triggers hand both back when the letter is returned or fails",
		},
		{
			displayName: 'Skip Items Already Sent',
			name: 'sentKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.invoiceId }}',
			description: `A key that names each item's letter, e.g. the invoice number, stored on its print job (one job per item: metadata "${SENT_KEY_METADATA}" and its reference; a mail run: every row's key). An item whose key is already on a print job is not sent again: that job is output instead, marked already_sent. Makes rerunning a failed batch, or a scheduled mail run over a growing sheet, safe.`,
		},
		{
			displayName: 'Skip Items Already Sent: Look Back (Days)',
			name: 'sentKeyLookBackDays',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description: 'How far back to look for print jobs carrying the keys (read once per run, newest first)',
		},
		parallelItemsOption,
		...printJobSettingFields,
	]),
};
