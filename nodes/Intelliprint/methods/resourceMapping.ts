import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { RECIPIENT_FIELDS } from '../addresses';

/** The recipient fields "Recipient Fields" offers to map, all text. */
export async function getRecipientFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	return {
		fields: RECIPIENT_FIELDS.map((field) => ({
			id: field.id,
			displayName: field.displayName,
			required: field.required,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: 'string',
		})),
	};
}
