import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { backgroundItems, type Background } from '../../results';
import { readPdfProperty } from '../../building';
import { recordCreated } from '../../results';
import { textValue } from '../../values';
import { apiRequest, encodeMultipart, flattenFormFields, EXPECT } from '../../transport';
import { backgroundPreviewFields, inputBinaryField } from '../common.descriptions';

const properties: INodeProperties[] = [
	inputBinaryField('the letterhead PDF'),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		placeholder: 'e.g. Company letterhead',
		description: 'The name shown in Intelliprint; defaults to the file name',
	},
	{
		displayName: 'Team',
		name: 'team',
		type: 'string',
		default: '',
		placeholder: 'e.g. team_4f9a2c',
		description: 'The team that may use the background; leave empty for the whole account',
	},
	...backgroundPreviewFields,
];

export const description = updateDisplayOptions({ show: { resource: ['background'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const file = await readPdfProperty(this, itemIndex, this.getNodeParameter('binaryPropertyName', itemIndex) as string);
	const body = flattenFormFields({
		file,
		name: textValue(this, itemIndex, this.getNodeParameter('name', itemIndex, ''), 'Name'),
		team: textValue(this, itemIndex, this.getNodeParameter('team', itemIndex, ''), 'Team'),
	});
	const background = await apiRequest<Background>(this, { expect: EXPECT.background, method: 'POST', path: '/backgrounds', multipart: encodeMultipart(body), itemIndex });
	recordCreated(this, itemIndex, background.id);
	return await backgroundItems(this, [background], itemIndex);
}
