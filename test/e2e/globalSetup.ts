import { installN8n, packPackage } from './n8n';

/** Once per e2e run: the pinned n8n installed (reused when present) and this package packed from dist. */
export default async function setup(): Promise<void> {
	await installN8n();
	await packPackage();
}
