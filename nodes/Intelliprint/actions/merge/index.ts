import type { INodeProperties } from 'n8n-workflow';

import * as merge from './merge.operation';

export { merge };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['merge'] } },
		options: [{ name: 'Merge Files', value: 'merge', description: 'Merge several PDFs into one', action: 'Merge PDF files' }],
		default: 'merge',
	},
	...merge.description,
];
