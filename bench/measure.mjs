import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** Runs `n8n execute` for a workflow, timing it and sampling the n8n process's peak resident memory. */
export async function measuredRun(n8n, workflowId) {
	const started = process.hrtime.bigint();
	const child = n8n.cliProcess(['execute', `--id=${workflowId}`, '--rawOutput']);
	let peakKb = 0;
	const sample = async () => {
		try {
			const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
			const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
			if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
		} catch {
			// the process has ended
		}
	};
	const timer = setInterval(sample, 100);
	const result = await child;
	clearInterval(timer);
	return {
		seconds: Number(process.hrtime.bigint() - started) / 1e9,
		stepSeconds: stepTime(String(result.all ?? ''), 'Create'),
		peakMb: peakKb / 1024,
		exitCode: result.exitCode,
	};
}

/** How long one node of the run took, from n8n's own run data (log lines come before the JSON). */
function stepTime(output, nodeName) {
	const lines = output.split('\n');
	const start = lines.findIndex((line) => line.startsWith('{'));
	const end = lines.lastIndexOf('}');
	if (start === -1 || end <= start) return undefined;
	try {
		const run = JSON.parse(lines.slice(start, end + 1).join('\n'));
		const ms = run.data.resultData.runData[nodeName]?.[0]?.executionTime;
		return typeof ms === 'number' ? ms / 1000 : undefined;
	} catch {
		return undefined;
	}
}

/** A valid one-page PDF of about `bytes` bytes: a letter with a large embedded attachment. */
export async function bigPdf(bytes) {
	const document = await PDFDocument.create();
	const font = await document.embedFont(StandardFonts.Helvetica);
	const page = document.addPage([595.28, 841.89]);
	page.drawText('Customer 001', { x: 71, y: 700, size: 11, font });
	page.drawText('Dear Customer 001, your very large statement is attached.', { x: 71, y: 530, size: 11, font });
	await document.attach(randomBytes(bytes), 'statement-data.bin', { mimeType: 'application/octet-stream' });
	return Buffer.from(await document.save({ useObjectStreams: false }));
}

/** Rows of objects as a Markdown table, columns in the first row's key order. */
export function markdownTable(rows) {
	const columns = Object.keys(rows[0]);
	return [
		`| ${columns.join(' | ')} |`,
		`|${columns.map(() => '---').join('|')}|`,
		...rows.map((row) => `| ${columns.map((column) => row[column]).join(' | ')} |`),
	];
}

/**
 * How long the sandbox itself takes to answer `count` creates sent at once (the last of a run's
 * waves, with nothing in the way): no client can finish sooner than the server's own work on them.
 */
export async function serverSeconds(apiUrl, apiKey, pdf, count) {
	const started = process.hrtime.bigint();
	const answers = await Promise.all(Array.from({ length: count }, async (_, i) => {
		const form = new FormData();
		form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'cover-letter.pdf');
		form.append('testmode', 'true');
		form.append('reference', `calibration-${i}`);
		const response = await fetch(`${apiUrl}/prints`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
		await response.arrayBuffer();
		return response.status;
	}));
	const failed = answers.filter((status) => status !== 200);
	if (failed.length) throw new Error(`calibration: ${failed.length} of ${count} creates answered ${failed[0]}`);
	return Number(process.hrtime.bigint() - started) / 1e9;
}

/** How many of `keys` are on more than one print job of the fake: its seeded history's and the jobs made since. */
export function keysOnMoreThanOneJob(fake, keys) {
	const counts = new Map(keys.map((key) => [key, 0]));
	const history = fake.prints.history;
	if (history) {
		for (let i = 0; i < history.count; i++) {
			const key = history.sentKeyAt(i);
			if (counts.has(key) && !history.isAdopted(i)) counts.set(key, counts.get(key) + 1);
		}
	}
	for (const job of fake.prints.jobs.values()) {
		const key = job.metadata?.n8n_sent_key;
		if (counts.has(key)) counts.set(key, counts.get(key) + 1);
	}
	return [...counts.values()].filter((count) => count > 1).length;
}
