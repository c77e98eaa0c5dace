import fs from 'fs-extra';
import type { TestProject } from 'vitest/node';

/**
 * The unit suite's global setup: its teardown removes the scratch folder vitest.config.mts made for
 * n8n-core's files (N8N_USER_FOLDER, with the binary data of the tests' executions), so a test run
 * leaves nothing behind.
 */
export default function setup(project: TestProject): () => Promise<void> {
	const userFolder = project.config.env.N8N_USER_FOLDER;
	return async () => {
		if (userFolder) await fs.remove(userFolder.replace(/\/user$/, ''));
	};
}
