import type { INodePropertyOptions } from 'n8n-workflow';

/** Every status a letter can be in, in lifecycle order. */
export const LETTER_STATUSES: INodePropertyOptions[] = [
	{ name: 'Draft', value: 'draft' },
	{ name: 'Waiting to Print', value: 'waiting_to_print' },
	{ name: 'Printing', value: 'printing' },
	{ name: 'Enclosing', value: 'enclosing' },
	{ name: 'Shipping', value: 'shipping' },
	{ name: 'Sent', value: 'sent' },
	{ name: 'Cancelled', value: 'cancelled' },
	{ name: 'Returned', value: 'returned' },
	{ name: 'Failed (Wrong Address)', value: 'failed_wrong_address' },
];
