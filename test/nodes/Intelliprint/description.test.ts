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
	it.each([
		['printJob', 'create', 'Create print job'],
		['printJob', 'delete', 'Cancel or delete print job'],
		['mailingList', 'getMany', 'Get many mailing lists'],
		['mailingListRecipient', 'update', 'Update mailing list recipient'],
		['merge', 'merge', 'Merge files'],
	])("the action node is subtitled in words: %s %s", (resource, operation, words) => {
		const { description } = new Intelliprint();
		const { workflow, node } = singleNodeWorkflow('n8n-nodes-intelliprint.intelliprint', { resource, operation });
		expect(workflow.expression.getSimpleParameterValue(node, description.subtitle as string, 'internal', {})).toBe(words);
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
