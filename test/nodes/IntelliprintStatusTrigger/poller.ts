import { PollContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';

import { IntelliprintStatusTrigger } from '../../../nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node';
import type { useFakeApi } from '../../helpers/context';
import { singleNodeWorkflow, testAdditionalData } from '../../helpers/n8n';

type Api = ReturnType<typeof useFakeApi>;
const trigger = new IntelliprintStatusTrigger();
const NODE = 'node:Node';

export interface Poller {
	(mode?: WorkflowExecuteMode): Promise<INodeExecutionData[]>;
	/** The trigger's state as n8n would have saved it after the last poll (the node's static data). */
	state: () => IDataObject;
}

/**
 * A poller as n8n runs one: each poll builds the workflow afresh from the static data n8n saved after the previous
 * poll (a JSON round trip, as through the database), so state survives restarts. `state` starts it from a state
 * saved before (an older version's).
 */
export function poller(api: Api, parameters: INodeParameters, options: { credentials?: IDataObject; state?: IDataObject } = {}): Poller {
	// n8n keeps a node's static data under its name.
	let saved: IDataObject = options.state ? { [NODE]: options.state } : {};
	const poll = async (mode: WorkflowExecuteMode = 'trigger'): Promise<INodeExecutionData[]> => {
		const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprintStatusTrigger', parameters, JSON.parse(JSON.stringify(saved)) as IDataObject);
		const context = new PollContext(workflow, node, testAdditionalData(api.credentials(options.credentials)), mode, 'activate');
		const result = await trigger.poll.call(context);
		if (mode !== 'manual') saved = workflow.staticData as IDataObject;
		return result?.[0] ?? [];
	};
	return Object.assign(poll, { state: () => JSON.parse(JSON.stringify(saved[NODE] ?? {})) as IDataObject });
}

/** The API's list reads since the last resetRecording: how many, and how many jobs they asked for in all. */
export function listReads(api: Api): { requests: number; asked: number; queries: Array<Record<string, string>> } {
	const reads = api.apiCalls().filter((call) => call.method === 'GET' && call.path === '/v1/prints');
	return { requests: reads.length, asked: reads.reduce((sum, call) => sum + Number(call.query.limit), 0), queries: reads.map((call) => call.query as Record<string, string>) };
}

/** A letter's return as the print house books it: its status, and when and why it came back. */
export function returnLetter(api: Api, letterId: string, date = Math.floor(Date.now() / 1000), reason = 'Addressee gone away'): void {
	api.fake.prints.setLetterStatus(letterId, 'returned', { returned: { date, reason, acknowledged: false } });
}
