import fs from 'fs-extra';

import { type FuzzCase, STATUS_OF, TARGETS, type Target } from '../nodes/IntelliprintTrigger/fuzzCases';
import { LINE, type N8nLine } from './n8n';

/** One workflow per fuzz target: just the trigger (named "Trigger"), published at a fixed webhook id. */
export const FUZZ_WORKFLOWS: Record<Target, { id: string; webhookId: string }> = {
	any: { id: 'ipFuzzAnyEvent01', webhookId: '0f0c1a00-0000-4000-8000-00000000a001' },
	failed: { id: 'ipFuzzMailFail01', webhookId: '0f0c1a00-0000-4000-8000-00000000a002' },
	returned: { id: 'ipFuzzReturned01', webhookId: '0f0c1a00-0000-4000-8000-00000000a003' },
	open: { id: 'ipFuzzOpenAny001', webhookId: '0f0c1a00-0000-4000-8000-00000000a004' },
};

/** Writes the fuzz workflows as n8n export files into `folder` and returns their paths. */
export async function writeFuzzWorkflows(folder: string, credential: { id: string; name: string }): Promise<string[]> {
	const files: string[] = [];
	for (const [target, { id, webhookId }] of Object.entries(FUZZ_WORKFLOWS) as Array<[Target, { id: string; webhookId: string }]>) {
		const file = `${folder}/${id}.json`;
		await fs.outputJson(file, {
			id, name: `Intelliprint fuzz: ${target}`, active: false, settings: { executionOrder: 'v1' }, connections: {}, pinData: {},
			nodes: [{
				id: `${id}-trigger`, name: 'Trigger', type: 'n8n-nodes-intelliprint.intelliprintTrigger', typeVersion: 1, position: [0, 0],
				parameters: { ...TARGETS[target] }, webhookId, credentials: { intelliprintWebhookApi: credential },
			}],
		});
		files.push(file);
	}
	return files;
}

/**
 * The status real n8n answers with. Before any node runs, n8n parses a JSON content type itself
 * and answers 422 to what does not parse; everything else reaches the trigger. n8n 2.x strips a
 * byte order mark first; 1.x does not, so there a JSON body that starts with one never reaches
 * the trigger either.
 */
export function expectedStatus(fuzzCase: FuzzCase, line: N8nLine = LINE): number {
	const type = (fuzzCase.headers.contentType ?? 'application/json').split(';')[0].trim().toLowerCase();
	if (type === 'application/json' && fuzzCase.body.bytes.length > 0) {
		const text = fuzzCase.body.bytes.toString('utf8');
		try {
			JSON.parse(line === 2 ? text.replace(/^\ufeff/, '') : text);
		} catch {
			return 422;
		}
	}
	return STATUS_OF[fuzzCase.expected];
}

/** A value as n8n stores and reads run data: JSON text (so lone surrogates are escaped, not lost). */
export function stored(value: unknown): string {
	return JSON.stringify(value);
}
