import type { INodeProperties } from 'n8n-workflow';

import { describeResource } from '../operations';
import * as merge from './merge.operation';

export { merge };

export const description: INodeProperties[] = describeResource('merge', 'merge', [
	[{ name: 'Merge Files', value: 'merge', description: 'Merge several PDFs into one', action: 'Merge PDF files' }, merge],
]);
