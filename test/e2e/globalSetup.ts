import fs from 'fs-extra';
import type { TestProject } from 'vitest/node';

import { installN8n, packPackage, parseLine, ROOT } from './n8n';

/**
 * Once per e2e run: the pinned n8n of the line under test installed (reused when present; the
 * line comes from vitest.e2e.config.mts, which reads N8N_LINE) and this package packed from dist.
 * Earlier runs' n8n folders (about 60 MB each), of either line, go: only this run's stay, to look
 * into.
 */
export default async function setup(project: TestProject): Promise<void> {
	await fs.remove(`${ROOT}/.e2e/runs`);
	await installN8n(parseLine(project.config.env.N8N_LINE));
	await packPackage();
}
