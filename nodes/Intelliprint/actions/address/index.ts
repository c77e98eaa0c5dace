import type { INodeProperties } from 'n8n-workflow';

import { describeResource } from '../operations';
import * as check from './check.operation';

export { check };

export const description: INodeProperties[] = describeResource('address', 'check', [
	[{ name: 'Check', value: 'check', description: "Check the items' addresses before sending; nothing is sent", action: 'Check addresses' }, check],
]);
