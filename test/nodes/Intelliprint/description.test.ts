import { describe, expect, it } from 'vitest';

import { Intelliprint } from '../../../nodes/Intelliprint/Intelliprint.node';
import { IntelliprintStatusTrigger } from '../../../nodes/IntelliprintStatusTrigger/IntelliprintStatusTrigger.node';
import { IntelliprintTrigger } from '../../../nodes/IntelliprintTrigger/IntelliprintTrigger.node';
import { useFakeApi } from '../../helpers/context';
import { singleNodeWorkflow } from '../../helpers/n8n';

const api = useFakeApi();

/** The map a subtitle expression looks its words up in. */
function subtitleMap(subtitle: string | undefined): Record<string, string> {
	return JSON.parse(/(\{".*"\})/.exec(String(subtitle))![1]) as Record<string, string>;
}

describe('what the canvas and the panel show', () => {
	it('the action node is subtitled with the chosen action, for every operation of every resource', () => {
		const { description } = new Intelliprint();
		const titles = subtitleMap(description.subtitle);
		const resources = description.properties.find((p) => p.name === 'resource')!.options as Array<{ value: string }>;
		for (const { value: resource } of resources) {
			const operations = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))!;
			for (const option of operations.options as Array<{ value: string; action: string }>) {
				expect(titles[`${resource}:${option.value}`]).toBe(option.action);
			}
		}
		expect(titles['mailingListRecipient:create']).toBe('Add recipients to a mailing list');
	});

	it("n8n's expression engine turns the subtitle into the action's words", () => {
		const { description } = new Intelliprint();
		const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprint', { resource: 'mailingList', operation: 'getMany' });
		const shown = workflow.expression.getSimpleParameterValue(node, description.subtitle as string, 'internal', {});
		expect(shown).toBe('Get many mailing lists');
	});

	it('the triggers are subtitled with names, not wire values', () => {
		expect(subtitleMap(new IntelliprintTrigger().description.subtitle)).toMatchObject({ '*': 'Any Event', 'mail.failed': 'Mail Failed' });
		expect(subtitleMap(new IntelliprintStatusTrigger().description.subtitle)).toMatchObject({ failed_wrong_address: 'Failed (Wrong Address)' });
	});

	it('Custom API Call says what to use instead', async () => {
		const { error } = await api.run({ parameters: { resource: 'printJob', operation: '__CUSTOM_API_CALL__' } });
		expect(error?.message).toBe('The Intelliprint node has no Custom API Call');
		expect(error?.description).toContain('HTTP Request node');
	});
});
