import execa from 'execa';
import fs from 'fs-extra';

import { installN8n, packPackage, ROOT } from '../n8n';
import { killLeftovers } from './processes';

/**
 * Once per queue-mode run: n8n 2.x installed (reused when present), this package packed from dist,
 * and PostgreSQL and Redis on the machine (installed from Debian's packages when missing). Servers
 * left running by an earlier run that crashed are ended, and its cluster folders go: only this
 * run's logs stay, to look into. A run still going refuses a second one (the ports are fixed). The
 * teardown ends whatever a crashed test file left running.
 */
export default async function setup(): Promise<() => Promise<void>> {
	const busy = await killLeftovers();
	if (busy.length > 0)
		throw new Error(`Another queue-mode run is using the cluster's fixed ports (its servers: pids ${busy.join(', ')}); wait for it to end.`);
	await fs.remove(`${ROOT}/.e2e/queue`);
	await installN8n(2);
	await packPackage();
	await execa('bash', [`${ROOT}/test/e2e/queue/install-services.sh`], { stdio: 'inherit' });
	return async () => {
		await killLeftovers();
	};
}
