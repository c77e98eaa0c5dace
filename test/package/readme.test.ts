import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

import { simplifyLetter, simplifyPrintJob } from '../../nodes/Intelliprint/results/output';
import { PACKAGES } from '../../scripts/node24/index.mjs';

/**
 * The README is a newcomer's first read (issue 50): short, with a contents line, the output fields as the node makes
 * them, and the platforms scripts/node24 serves; and every relative link in README, CHANGELOG and docs/ leads
 * somewhere (repositoryLinks.test.ts checks the GitHub ones).
 */
const ROOT = new URL('../../', import.meta.url).pathname;
const read = (file: string) => fs.readFileSync(`${ROOT}${file}`, 'utf8');
const README = read('README.md');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens (as repositoryLinks.test.ts). */
const anchor = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');

const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');
const headings = (markdown: string, level = '#{1,6}') => [...withoutCode(markdown).matchAll(new RegExp(`^${level}\\s+(.+)$`, 'gm'))].map(([, text]) => anchor(text));
const backticked = (text: string) => [...text.matchAll(/`([a-z_]+)`/g)].map(([, name]) => name);

/** The section of a Markdown text under a heading, to the next heading of the same level. */
function section(markdown: string, heading: string): string {
	const start = markdown.indexOf(`${heading}\n`);
	expect(start, heading).not.toBe(-1);
	const level = /^#+/.exec(heading)![0];
	const next = markdown.slice(start + heading.length).search(new RegExp(`^${level} `, 'm'));
	return next === -1 ? markdown.slice(start) : markdown.slice(start, start + heading.length + next);
}

describe('README', () => {
	it('stays a short read: at most 12 KiB', () => {
		// 15.1 KB (2,355 words, 10 minutes at 230 words a minute) before issue 50 moved the depth to docs/; 12.0 KB
		// (1,721 words, 7.5 minutes) once a contents line, Cloud, WEBHOOK_URL, the output fields, troubleshooting and the
		// platforms were added; 9.1 KB (1,235 words, about 5 minutes) with the example table, the webhook setup's detail
		// and the docs index left to docs/ and the line on letters abroad added.
		expect(Buffer.byteLength(README)).toBeLessThanOrEqual(12 * 1024);
	});

	it('reads in about five minutes: at most 1,300 words outside code blocks', () => {
		// Words as `wc -w` counts them (anything between spaces), the commands in code blocks left out: 1,300 words
		// are 5.7 minutes at 230 words a minute. Depth goes to docs/, not here.
		const words = withoutCode(README).split(/\s+/).filter(Boolean).length;
		expect(words).toBeGreaterThan(800);
		expect(words).toBeLessThanOrEqual(1300);
	});

	it('has a contents line near the top that links every section', () => {
		const contents = /^\*\*Contents:\*\*(.+?)\n\n/ms.exec(README);
		expect(contents, 'a paragraph starting **Contents:**').not.toBeNull();
		expect(README.indexOf('**Contents:**')).toBeLessThan(1000);
		const linked = [...contents![1].matchAll(/\]\(#([^)]+)\)/g)].map(([, target]) => target);
		expect(linked).toEqual(headings(README, '##'));
	});

	it('lists the fields of a simplified print job and letter as the node makes them', () => {
		const output = section(README, '## Output');
		const job = /^- a print job: ([\s\S]+?);$/m.exec(output)?.[1] ?? '';
		const letter = /^- a letter: ([\s\S]+?)\.$/m.exec(output)?.[1] ?? '';
		const jobFields = Object.keys(simplifyPrintJob({ id: 'print_1' }));
		const letterFields = Object.keys(simplifyLetter({ id: 'ltr_1' }, { id: 'print_1' }));
		expect(backticked(job)).toEqual(jobFields);
		// "the same five cost fields" stands for the print job's cost fields, in their place.
		const costs = jobFields.filter((field) => field.startsWith('cost_') || field === 'currency');
		expect(costs).toHaveLength(5);
		expect(letter).toContain('the same five cost fields');
		expect(backticked(letter)).toEqual(letterFields.filter((field) => !costs.includes(field)));
		expect(letterFields.filter((field) => costs.includes(field))).toEqual(costs);
	});

	it('names the platforms scripts/node24 installs Node 24 for', () => {
		expect(Object.keys(PACKAGES).sort()).toEqual(['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-x64']);
		expect(README.replace(/\s+/g, ' ')).toContain('Linux (x64, arm64), macOS (Apple silicon, Intel) and Windows (x64)');
	});
});

describe('docs/output-fields.md', () => {
	const doc = read('docs/output-fields.md');
	const tableFields = (heading: string) =>
		section(doc, heading)
			.split('\n')
			.filter((line) => line.startsWith('| `'))
			.flatMap((line) => backticked(line.split('|')[1]));

	it('has a row for every field of a simplified print job, and no other', () => {
		expect(tableFields('## A simplified print job')).toEqual(Object.keys(simplifyPrintJob({ id: 'print_1' })));
	});

	it('has a row for every field of a simplified letter, and no other', () => {
		expect(tableFields('## A simplified letter')).toEqual(Object.keys(simplifyLetter({ id: 'ltr_1' }, { id: 'print_1' })));
	});
});

describe('relative links', () => {
	const files = ['README.md', 'CHANGELOG.md', ...(fs.readdirSync(`${ROOT}docs`) as string[]).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

	it('in README, CHANGELOG and docs/ lead to a file, and to a heading of it', () => {
		const broken: string[] = [];
		let count = 0;
		for (const file of files) {
			const folder = file.includes('/') ? `${file.slice(0, file.lastIndexOf('/'))}/` : '';
			for (const [, target] of withoutCode(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^[a-z]+:/i.test(target)) continue;
				count++;
				const [path, fragment] = target.split('#');
				const resolved = path ? new URL(path, `file://${ROOT}${folder}`).pathname : `${ROOT}${file}`;
				if (!fs.existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`);
				else if (fragment && resolved.endsWith('.md') && !headings(fs.readFileSync(resolved, 'utf8')).includes(fragment)) {
					broken.push(`${file}: ${target} (no such heading)`);
				}
			}
		}
		expect(broken).toEqual([]);
		// The check read what is there.
		expect(count).toBeGreaterThan(100);
	});
});
