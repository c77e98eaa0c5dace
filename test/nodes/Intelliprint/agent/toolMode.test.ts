import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Intelliprint } from '../../../../nodes/Intelliprint/Intelliprint.node';
import { errorForModel, forModel, modelMessage, printJobSummary, toolArguments } from '../../../../nodes/Intelliprint/agent/toolMode';

/** Just what these helpers read of an execution: the node as the workflow holds it. */
const asTool = (parameters: INode['parameters']) =>
	({ getNode: () => ({ type: 'n8n-nodes-intelliprint.intelliprintTool', parameters }) as INode }) as unknown as IExecuteFunctions;

describe('what an AI agent is told', () => {
	it('sums up a print job in words: test or live, draft or confirmed, and its cost', () => {
		expect(printJobSummary({ id: 'print_a', testmode: true, confirmed: false, letter_count: 1, cost_gbp: 0.85, cost_after_tax_gbp: 1.02 })).toBe(
			'Test print job print_a, 1 letter, a draft, not confirmed, free (live, it would cost £0.85, £1.02 with VAT). Test jobs are never printed or posted.',
		);
		expect(printJobSummary({ id: 'print_b', testmode: false, confirmed: true, letters: [{}, {}], cost: { amount: 170000000, after_tax: 204000000 } })).toBe(
			'Live print job print_b, 2 letters, confirmed, cost £1.70 (£2.04 with VAT). It will be printed, posted and charged.',
		);
	});

	it('says when a live job was asked for and a test job made, and says "nothing found" rather than nothing', () => {
		const ctx = asTool({});
		const [item] = forModel(ctx, [{ json: { id: 'print_c', testmode: true, live_refused: true, letter_count: 1 } }]);
		expect(item.json.summary).toMatch(/A live job was asked for, but this workflow lets the agent make test jobs only\.$/);
		expect(forModel(ctx, [])).toEqual([{ json: { found: 0, summary: 'Nothing found: no entries match.' }, pairedItem: { item: 0 } }]);
		expect(forModel(ctx, [{ json: { id: 'bg_1' } }])[0].json.summary).toBeUndefined();
	});

	it("speaks of the model's arguments, and puts the advice in the message (a model never sees the description)", () => {
		const ctx = asTool({ recipientPostcode: "={{ $fromAI('recipient_postcode', 'The postcode', 'string') }}", testmode: "={{ $fromAI(\"test_mode\") }}" });
		expect(toolArguments(ctx)).toEqual(['recipient_postcode', 'test_mode']);
		const error = errorForModel(ctx, new NodeOperationError(ctx.getNode(), '"Postcode" must be text, but got a list', { description: 'Give text here.' }));
		expect(error.message).toBe(
			'The argument "recipient_postcode" must be text, but got a list. Give text here. If an argument you gave (recipient_postcode, test_mode) caused this, correct it and call the tool again.',
		);
		// An error that already says what to do (Do not retry…) gets no invitation to call again.
		const refusal = new NodeOperationError(ctx.getNode(), 'This tool may not confirm', { description: 'Do not retry: tell the user.' });
		refusal.context.adviceForModel = true;
		expect(errorForModel(ctx, refusal).message).toBe('This tool may not confirm. Do not retry: tell the user.');
	});

	it('words an error once, however many doors it passes: the advice is never repeated', () => {
		const ctx = asTool({ recipientPostcode: "={{ $fromAI('recipient_postcode', 'The postcode', 'string') }}" });
		const error = new NodeOperationError(ctx.getNode(), 'Item 1 has no postcode for its letter', { description: 'Call the tool again with "Postcode" filled in.' });
		error.context.adviceForModel = true;
		const once = modelMessage(ctx, error);
		expect(once).toBe('The tool call has no postcode for its letter. Call the tool again with the argument "recipient_postcode" filled in.');
		expect(modelMessage(ctx, error)).toBe(once);
		expect(errorForModel(ctx, error).message).toBe(once);
	});

	it('gives each field a model fills a described $fromAI() default in the tool, and keeps the usual default elsewhere', () => {
		const properties = new Intelliprint().description.properties.filter((property) => property.name === 'recipientPostcode');
		const inTool = properties.filter((property) => property.displayOptions?.show?.['@tool']);
		const elsewhere = properties.filter((property) => property.displayOptions?.hide?.['@tool']);
		expect(inTool.length).toBeGreaterThan(0);
		expect(inTool.length).toBe(elsewhere.length);
		for (const property of inTool) expect(property.default).toMatch(/^=\{\{ \$fromAI\('recipient_postcode', ".+", 'string'\) \}\}$/);
		for (const property of elsewhere) expect(property.default).toBe('={{ $json.postcode }}');
	});

	it('describes every operation to a model in whole sentences, and create and confirm say what the builder allowed', () => {
		const descriptions = new Intelliprint().description.properties.filter((property) => property.name === 'toolDescription');
		for (const property of descriptions) expect(String(property.default)).toMatch(/^[A-Z].*\.$/s);
		const backgrounds = descriptions.find((property) => property.displayOptions?.show?.resource?.[0] === 'background' && property.displayOptions.show.operation?.[0] === 'getMany');
		expect(backgrounds?.default).toBe('List backgrounds in Intelliprint, the UK print-and-post service.');
		for (const operation of ['create', 'confirm']) {
			const variants = descriptions.filter((property) => property.displayOptions?.show?.resource?.[0] === 'printJob' && property.displayOptions.show.operation?.[0] === operation);
			expect(variants.map((property) => [property.displayOptions?.show?.allowLive, /test jobs only/.test(String(property.default)), /allows live letters/.test(String(property.default))])).toEqual([
				[[false], true, false],
				[[true], false, true],
			]);
			// A model allowed live letters is told in advance that a limit may hold a job back.
			expect(String(variants[1].default)).toContain('Spending limits may hold a live job back as a draft');
		}
	});
});

