import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as address from './actions/address';
import * as background from './actions/background';
import * as mailingList from './actions/mailingList';
import * as mailingListRecipient from './actions/mailingListRecipient';
import * as merge from './actions/merge';
import * as printJob from './actions/printJob';
import { router } from './actions/router';
import { intelliprintApiTest } from './methods/credentialTest';
import { searchBackgrounds, searchMailingLists, searchPrintJobs } from './methods/listSearch';
import { getRecipientFields } from './methods/resourceMapping';

export class Intelliprint implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Intelliprint',
		name: 'intelliprint',
		icon: { light: 'file:intelliprint.svg', dark: 'file:intelliprint.dark.svg' },
		group: ['output'],
		// 1.1: recipients mapped with n8n's resource mapper (version 1 keeps its four fields).
		// 1.2: Print Job → Create chooses source and recipients separately (see createSource.description.ts).
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		// In words, e.g. "Get many mailing lists": n8n shows it under the node on the canvas.
		subtitle:
			'={{ (({ getMany: "Get many", delete: "Cancel or delete", merge: "Merge files" }[$parameter["operation"]] ?? $parameter["operation"].replace(/^./, (c) => c.toUpperCase())) + " " + ($parameter["operation"] === "merge" ? "" : $parameter["resource"].replace(/[A-Z]/g, (c) => " " + c.toLowerCase()) + ($parameter["operation"] === "getMany" ? "s" : ""))).trim() }}',
		description: 'Print and post letters and postcards with Intelliprint: from PDFs or from your rows, to recipients or mailing lists',
		defaults: { name: 'Intelliprint' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'intelliprintApi', required: true, testedBy: 'intelliprintApiTest' }],
		// Shown in the panel; never for an AI agent's tool (only a tool has "toolDescription"). Hints that need the
		// run's figures (rows refused, a rerun that would send again, minutes at the rate limit) come from runReport.ts.
		hints: [
			{
				message:
					'Confirm is on for a live job: every run prints, posts and charges real letters. Switch on Test Mode to try it for free, or leave Confirm off to check drafts first.',
				type: 'warning',
				location: 'ndv',
				whenToDisplay: 'always',
				displayCondition:
					'={{ $parameter["resource"] === "printJob" && $parameter["operation"] === "create" && $parameter["testmode"] === false && $parameter["confirmed"] !== false && !$parameter["toolDescription"] }}',
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Address', value: 'address', description: 'Check postal addresses before sending' },
					{ name: 'Background', value: 'background', description: 'Letterheads printed behind letters' },
					{ name: 'Mailing List', value: 'mailingList', description: 'Stored lists of recipients to send letters to' },
					{ name: 'Mailing List Recipient', value: 'mailingListRecipient', description: 'The people on a mailing list' },
					{ name: 'Merge', value: 'merge', description: 'The merge tool: several PDFs into one' },
					{ name: 'Print Job', value: 'printJob', description: 'Letters and postcards sent to print and post' },
				],
				default: 'printJob',
			},
			...address.description,
			...printJob.description,
			...background.description,
			...merge.description,
			...mailingList.description,
			...mailingListRecipient.description,
		],
	};

	methods = {
		credentialTest: { intelliprintApiTest },
		listSearch: { searchBackgrounds, searchMailingLists, searchPrintJobs },
		resourceMapping: { getRecipientFields },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
