import type { INodeProperties } from 'n8n-workflow';

/** Address validation is a paid add-on: off unless asked for. */
export const addressValidationOption: INodeProperties = {
	displayName: 'Validate Addresses',
	name: 'validateAddresses',
	type: 'boolean',
	default: false,
	description:
		"Whether Intelliprint checks the list's addresses (a paid add-on). When it is done, the Intelliprint Trigger's Addresses Validated event fires.",
};
