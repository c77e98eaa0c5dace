import fs from 'fs-extra';

import { installN8n, packPackage, ROOT } from './n8n';

/**
 * Once per e2e run: the pinned n8n installed (reused when present) and this package packed from
 * dist. Earlier runs' n8n folders (about 60 MB each) go: only this run's stay, to look into.
 */
export default async function setup(): Promise<void> {
	await fs.remove(`${ROOT}/.e2e/runs`);
	await installN8n();
	await packPackage();
}
