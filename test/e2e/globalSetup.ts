import fs from 'fs-extra';
import type { TestProject } from 'vitest/node';

import { installN8n, packPackage, parseLine, runsFolder, suitePort } from './n8n';
import { N8nServer } from './server';

/** The suite's running n8n listens here (2.x; 1.x 100 up): clear of the sandbox (5680, 5681) and the process tests' n8n (5691, 5695). */
const SERVER_PORT = 5689;

/**
 * Once per e2e run: the pinned n8n of the line under test installed (reused when present; the
 * line comes from vitest.e2e.config.mts, which reads N8N_LINE), this package packed from dist, and
 * one n8n started for every test file to run its workflows on (test/e2e/server.ts). Earlier runs'
 * n8n folders of the same line (about 60 MB each) go: only this run's stay, to look into. The other line's
 * suite may be running beside this one, on its own ports and folders.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const line = parseLine(project.config.env.N8N_LINE);
	await fs.remove(runsFolder(line));
	await installN8n(line);
	await packPackage();
	// Files on disk, as most installs keep binary data: the action node's tests read them there.
	const { instance, address } = await N8nServer.boot(line, suitePort(SERVER_PORT, line), { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' });
	project.provide('n8nServer', address);
	return async () => instance.stop();
}
