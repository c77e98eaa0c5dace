import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { intelliprintApiTest } from '../Intelliprint/methods/credentialTest';
import { LETTER_STATUSES } from '../Intelliprint/results/letterStatuses';
import { letterJson } from '../Intelliprint/results/output';
import { letterRow } from '../Intelliprint/results/letterRow';
import { recall, remember, type PollState } from './pollState';
import { watchLetters, type Found } from './watch';

const DAY = 86_400;

export class IntelliprintStatusTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Intelliprint Status Trigger',
		name: 'intelliprintStatusTrigger',
		icon: { light: 'file:../Intelliprint/intelliprint.svg', dark: 'file:../Intelliprint/intelliprint.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: `={{ $parameter["statuses"].map((status) => (${JSON.stringify(Object.fromEntries(LETTER_STATUSES.map((status) => [status.value, status.name])))})[status] ?? status).join(", ") }}`,
		description: 'Starts the workflow when letters reach chosen statuses, by asking Intelliprint regularly (no webhook needed)',
		defaults: { name: 'Intelliprint Status Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'intelliprintApi', required: true, testedBy: 'intelliprintApiTest' }],
		properties: [
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'multiOptions',
				required: true,
				default: ['returned', 'failed_wrong_address'],
				options: LETTER_STATUSES,
				description: 'Emit a letter when it reaches one of these statuses',
			},
			{
				displayName: 'Test Mode',
				name: 'testmode',
				type: 'boolean',
				default: false,
				description: 'Whether to watch test jobs instead of live ones',
			},
			{
				displayName: 'Emit Letters Already in These Statuses',
				name: 'emitExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll after activation emits letters already in the statuses (those returned, or in print jobs created, within Look Back (Days)). Off: only changes from then on.',
			},
			{
				displayName: 'Look Back (Days)',
				name: 'lookBackDays',
				type: 'number',
				default: 30,
				typeOptions: { minValue: 1, maxValue: 366, numberPrecision: 0 },
				description:
					'How many days of print jobs to watch, by when they were created: a letter of an older job that reaches a status is not seen. Returned letters are found by the date they came back, however old their job.',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description: 'Whether to return only the fields people usually use, with costs as GBP decimals',
			},
		],
	};

	methods = { credentialTest: { intelliprintApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const statuses = this.getNodeParameter('statuses', []) as string[];
		if (statuses.length === 0) {
			throw new NodeOperationError(this.getNode(), 'No statuses chosen', { description: 'Pick at least one letter status to watch.' });
		}
		const simplify = this.getNodeParameter('simplify', true) as boolean;
		const testmode = this.getNodeParameter('testmode', false) as boolean;
		const lookBackDays = Math.max(1, Math.floor(Number(this.getNodeParameter('lookBackDays', 30))) || 30);
		const now = Math.floor(Date.now() / 1000);
		const manual = this.getMode() === 'manual';
		const state = this.getWorkflowStaticData('node') as PollState;
		const memory = recall(state, statuses, testmode, lookBackDays);
		// Only what changed since the last poll is read (see watch.ts); the state says where that starts.
		const watched = await watchLetters(this, {
			statuses, testmode, simplify, now, since: now - lookBackDays * DAY, sample: manual,
			first: memory.first, emitExisting: this.getNodeParameter('emitExisting', false) as boolean,
			previous: memory.previous, newestReturn: memory.newestReturn, pageHints: memory.pageHints,
		});
		// With why it came back, its job's metadata and the row it came from (Print Job → Create stores it on the job).
		const toItem = ({ letter, job }: Found): INodeExecutionData => ({
			json: { ...letterJson(letter, job, simplify), returned: letter.returned ?? null, print_metadata: job.metadata ?? {}, ...letterRow(job, letter.id) },
		});

		// A sample to build the workflow with; the poll state is left alone.
		if (manual) return watched.sample ? [[toItem(watched.sample)]] : null;
		remember(state, memory, watched);
		return watched.arrived.length > 0 ? [watched.arrived.map(toItem)] : null;
	}
}
