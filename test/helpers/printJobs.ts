import type { useFakeApi } from './context';
import { mailMergePdf, recipients, simplePdf } from './pdfs';

type Api = ReturnType<typeof useFakeApi>;

export const byId = (id: string) => ({ __rl: true, mode: 'id', value: id });

let fourLetters: Buffer | undefined;

/** Creates a print job of four one-to-three page letters through the node, then forgets the calls it made. */
export async function createFourLetterJob(api: Api, extra: Record<string, unknown> = {}): Promise<string> {
	fourLetters ??= await mailMergePdf(recipients(4, 0));
	const { items, error } = await api.run({
		parameters: {
			resource: 'printJob', operation: 'create', binaryPropertyName: 'data', simplify: false,
			options: { splitting: { values: { method: 'split_on_phrase', phrase: 'Dear' } } }, ...extra,
		},
		items: [{ files: { data: { data: fourLetters, fileName: 'four.pdf' } } }],
	});
	if (error) throw new Error(error.message);
	api.fake.resetRecording();
	return items[0].json.id as string;
}

export const backgroundById = (id: string) => ({ __rl: true, mode: 'id', value: id });

/** Uploads a one-page letterhead through the node and returns its ID. */
export async function createBackground(api: Api, name = 'Letterhead', team = ''): Promise<string> {
	const { items, error } = await api.run({
		parameters: { resource: 'background', operation: 'create', binaryPropertyName: 'data', name, team },
		items: [{ files: { data: { data: await simplePdf(1, 'Letterhead'), fileName: 'letterhead.pdf' } } }],
	});
	if (error) throw new Error(error.message);
	api.fake.resetRecording();
	return items[0].json.id as string;
}
