import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { intelliprintApiTest } from '../Intelliprint/methods/credentialTest';
import { LETTER_STATUSES } from '../Intelliprint/results/letterStatuses';
import { letterJson, type Letter, type PrintJob } from '../Intelliprint/results/output';
import { letterRow } from '../Intelliprint/results/letterRow';
import { apiRequestAllItems } from '../Intelliprint/transport';

/** What the trigger remembers between polls: the status each watched letter was last seen in. */
interface PollState {
	seen?: Record<string, string>;
	watching?: string;
}

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
					'Whether the first poll after activation emits letters that were already in the statuses. Off: only changes from then on.',
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
		const jobs = await apiRequestAllItems<PrintJob>(this, '/prints', {
			testmode: this.getNodeParameter('testmode', false) as boolean,
			'letters.status': statuses.join(','),
		});
		const matching: Array<{ letter: Letter; job: PrintJob }> = [];
		for (const job of jobs) {
			for (const letter of job.letters ?? []) {
				if (statuses.includes(letter.status ?? '')) matching.push({ letter, job });
			}
		}
		// With why it came back, its job's metadata and the row it came from (Print Job → Create stores it on the job).
		const toItem = ({ letter, job }: { letter: Letter; job: PrintJob }): INodeExecutionData => ({
			json: { ...letterJson(letter, job, simplify), returned: letter.returned ?? null, print_metadata: job.metadata ?? {}, ...letterRow(job, letter.id) },
		});

		if (this.getMode() === 'manual') {
			// A sample to build the workflow with; the poll state is left alone.
			return matching.length ? [matching.slice(0, 1).map(toItem)] : null;
		}

		const state = this.getWorkflowStaticData('node') as PollState;
		const watching = `${statuses.slice().sort().join(',')}|${String(this.getNodeParameter('testmode', false))}`;
		// A first poll, or a change of what is watched, starts from what is there now.
		const firstPoll = state.seen === undefined || state.watching !== watching;
		const previous = firstPoll ? {} : (state.seen ?? {});
		const emitNow = !firstPoll || (this.getNodeParameter('emitExisting', false) as boolean);

		const fresh = matching.filter(({ letter }) => previous[letter.id] !== letter.status);
		// Only letters currently in a watched status are kept, so one that leaves and comes back is new again.
		state.seen = Object.fromEntries(matching.map(({ letter }) => [letter.id, letter.status ?? '']));
		state.watching = watching;
		if (!emitNow || fresh.length === 0) return null;
		return [fresh.map(toItem)];
	}
}
