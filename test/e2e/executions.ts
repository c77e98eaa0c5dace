import execa from 'execa';
import fs from 'fs-extra';

import { node24 } from '../../scripts/node24/index.mjs';
import { n8nHome } from './n8n';

/** One execution as n8n saved it, with the items its trigger node (named "Trigger") put out. */
export interface SavedExecution {
	id: number;
	workflowId: string;
	status: string;
	finished: boolean;
	/** The trigger's items' json (what it put out, or for a run that never ran it, what it was started with), or undefined. */
	items?: unknown[];
}

/** The statuses of an execution n8n has ended, whatever its outcome. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(['success', 'error', 'crashed', 'canceled']);

/** Whether n8n has ended this run (n8n 1.x can mark a run finished before it sets its final status). */
export const hasEnded = (execution: Pick<SavedExecution, 'finished' | 'status'>) => execution.finished || ENDED_STATUSES.has(execution.status);

/**
 * Reads the executions straight from the instance's SQLite database, with n8n's own sqlite3 and
 * flatted (run data is stored flatted), under the Node 24 that n8n runs on: the machine's Node
 * cannot load n8n's native sqlite3 build. Read-only, so it is safe while n8n runs.
 */
const script = `
const sqlite3 = require('sqlite3');
const { parse } = require('flatted');
const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY);
db.all('SELECT e.id, e.workflowId, e.status, e.finished, d.data FROM execution_entity e LEFT JOIN execution_data d ON d.executionId = e.id ORDER BY e.id', (error, rows) => {
	if (error) throw error;
	const out = rows.map((row) => {
		let items;
		try {
			const data = parse(row.data);
			const task = data.resultData.runData.Trigger?.[0];
			// A run n8n created but never finished (killed at exit, marked crashed at the next start) holds its
			// trigger's items only in the stack it was started with.
			const started = data.executionData?.nodeExecutionStack?.find((entry) => entry.node.name === 'Trigger');
			items = (task ?? started).data.main[0].map((item) => item.json);
		} catch {}
		return { id: row.id, workflowId: row.workflowId, status: row.status, finished: Boolean(row.finished), items };
	});
	process.stdout.write(JSON.stringify(out));
	db.close();
});
`;

export async function savedExecutions(userFolder: string): Promise<SavedExecution[]> {
	const database = `${userFolder}/.n8n/database.sqlite`;
	const { stdout } = await execa(node24().node, ['-e', script, database], { cwd: n8nHome(), maxBuffer: 512 * 1024 * 1024 });
	return JSON.parse(stdout) as SavedExecution[];
}

/** Resident memory of a process in MB (VmRSS from /proc), or undefined when it cannot be read. */
export async function residentMb(pid: number | undefined): Promise<number | undefined> {
	if (pid === undefined) return undefined;
	try {
		const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
		const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
		return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
	} catch {
		return undefined;
	}
}
