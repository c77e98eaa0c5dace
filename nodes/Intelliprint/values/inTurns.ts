/**
 * Runs `task` for 0, 1 … count - 1, at most `parallel` at a time, and gives their results in that order. A task that
 * throws stops new ones from starting; those already running finish, and then the failure of the lowest number is
 * thrown. The router runs items so, and a mail run its parts: what was sent before a failure is known, and is all.
 */
export async function inTurns<T>(count: number, parallel: number, task: (index: number) => Promise<T>): Promise<T[]> {
	const results: T[] = new Array<T>(count);
	let next = 0;
	let failure: { index: number; error: unknown } | undefined;
	const stopped = () => failure !== undefined;
	const worker = async () => {
		while (next < count && !stopped()) {
			const index = next++;
			try {
				results[index] = await task(index);
			} catch (error) {
				if (!failure || index < failure.index) failure = { index, error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, count)) }, worker));
	const failed = failure as { error: unknown } | undefined;
	if (failed) throw failed.error;
	return results;
}
