import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { toolDescriptionField } from './tool.descriptions';

/**
 * A resource's Operation field and the parameters of each of its operations, from one list: each
 * entry is the option as the dropdown shows it and the operation's module (whose `toolDescription`,
 * if any, is what an AI agent is told the operation does).
 */
export function describeResource(
	resource: string,
	defaultOperation: string,
	operations: Array<[INodePropertyOptions, { description: INodeProperties[]; toolDescription?: string }]>,
): INodeProperties[] {
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations.map(([option]) => option),
			default: defaultOperation,
		},
		...operations.flatMap(([option, module]) => toolDescriptionField(resource, option, module.toolDescription)),
		...operations.flatMap(([, module]) => module.description),
	];
}
