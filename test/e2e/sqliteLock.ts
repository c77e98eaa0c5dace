import execa, { type ExecaChildProcess } from 'execa';

import { node24 } from '../../scripts/node24/index.mjs';
import { n8nHome } from './n8n';

/**
 * Holds an exclusive lock on an n8n instance's SQLite database from another process, as a backup
 * tool or a second writer would: n8n can read nothing new and write nothing until it ends. Resolves
 * once the lock is held; the returned promise ends when it has been released.
 */
const script = `
const sqlite3 = require('sqlite3');
const db = new sqlite3.Database(process.argv[1]);
db.exec('BEGIN EXCLUSIVE', (error) => {
	if (error) { console.error(error.message); process.exit(1); }
	process.stdout.write('locked\\n');
	setTimeout(() => db.exec('COMMIT', () => db.close(() => process.exit(0))), Number(process.argv[2]));
});
`;

export async function holdExclusiveLock(userFolder: string, ms: number): Promise<{ released: Promise<void> }> {
	const child: ExecaChildProcess = execa(node24().node, ['-e', script, `${userFolder}/.n8n/database.sqlite`, String(ms)], { cwd: n8nHome(), reject: false });
	await new Promise<void>((resolve, reject) => {
		child.stdout?.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('locked')) resolve();
		});
		void child.then((result) => reject(new Error(`could not lock the database: ${result.stderr}`)));
	});
	return { released: child.then(() => undefined) };
}
