import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as printJob from './actions/printJob';
import { router } from './actions/router';
import { searchPrintJobs } from './methods/listSearch';

export class Intelliprint implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Intelliprint',
		name: 'intelliprint',
		icon: { light: 'file:intelliprint.svg', dark: 'file:intelliprint.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Print and post letters from PDFs with Intelliprint',
		defaults: { name: 'Intelliprint' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'intelliprintApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Print Job', value: 'printJob' }],
				default: 'printJob',
			},
			...printJob.description,
		],
	};

	methods = {
		listSearch: { searchPrintJobs },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
