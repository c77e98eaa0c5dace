/// <reference types="vite/client" />

/** The n8n release lines the suite runs on: 2 (test/e2e/n8n) and 1 (test/e2e/n8n-1, the newest 1.x). */
export type N8nLine = 1 | 2;

/** The line an N8N_LINE value names: "1" for 1.x; unset, empty or "2" for 2.x. */
export function parseLine(value: string | undefined): N8nLine {
	if (value === undefined || value === '' || value === '2') return 2;
	if (value === '1') return 1;
	throw new Error(`N8N_LINE=${value}: the end-to-end suite runs on n8n line 1 or 2`);
}

/**
 * The line the test files drive, from N8N_LINE: in vitest's test processes import.meta.env is the
 * process environment. Elsewhere (the global setup, the scripts under tsx) it does not hold
 * N8N_LINE, the line is 2, and a caller that wants 1 passes it to installN8n.
 */
export const LINE: N8nLine = parseLine(import.meta.env?.N8N_LINE as string | undefined);

/**
 * `npm test` runs the 1.x suite beside the 2.x one, so each fixed port of the suite (the sandbox, the suite's
 * n8n, the process tests' own n8n) is the 2.x one plus 100 on 1.x.
 */
export const suitePort = (port: number, line: N8nLine = LINE) => (line === 1 ? port + 100 : port);

/** Workflow files (the examples among them) name the sandbox at its 2.x ports: on 1.x they move with it. */
export const atSuitePorts = (json: string, line: N8nLine = LINE) =>
	json.replace(/127\.0\.0\.1:(5680|5681)\b/g, (_, port: string) => `127.0.0.1:${suitePort(Number(port), line)}`);
