import fs from 'fs-extra';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Links to other projects on GitHub that are meant to be there, as "owner/repo". None so far. */
const OTHER_PROJECTS = new Set<string>();

const packageJson = fs.readJsonSync(`${ROOT}package.json`) as {
	homepage?: string;
	repository?: { url?: string };
	bugs?: { url?: string };
};

/** Every file under a folder of the repository, as paths relative to the root. */
function filesUnder(folder: string, ending: string): string[] {
	if (!fs.existsSync(`${ROOT}${folder}`)) return [];
	return (fs.readdirSync(`${ROOT}${folder}`, { recursive: true }) as string[])
		.filter((name) => name.endsWith(ending))
		.map((name) => `${folder}/${name}`)
		.sort();
}

/** Where links to the repository may be: the package, what n8n shows (codex, credentials, node code), and the docs. */
const SOURCES = [
	'package.json',
	'README.md',
	'CHANGELOG.md',
	...filesUnder('nodes', '.node.json'),
	...filesUnder('credentials', '.ts'),
	...filesUnder('nodes', '.ts'),
	...filesUnder('docs', '.md'),
].filter((file) => fs.existsSync(`${ROOT}${file}`));

interface Link {
	file: string;
	url: string;
	repo: string;
	fragment?: string;
}

const GITHUB_URL = /(?:https?:\/\/|git\+https:\/\/|git@|ssh:\/\/git@)(?:www\.)?(?:github\.com|raw\.githubusercontent\.com)[/:][^\s)"'`<>\]]+/g;

function links(file: string): Link[] {
	const text = fs.readFileSync(`${ROOT}${file}`, 'utf8');
	return [...text.matchAll(GITHUB_URL)].map(([url]) => {
		const path = url.replace(/^.*?(?:github\.com|githubusercontent\.com)[/:]/, '');
		const [owner = '', name = ''] = path.split(/[/#?]/);
		const fragment = /#([^?]+)$/.exec(url)?.[1];
		return { file, url, repo: `${owner}/${name.replace(/\.git$/, '')}`, fragment };
	});
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

const expected = links('package.json').find((link) => link.url === packageJson.repository?.url)?.repo;
const all = SOURCES.flatMap(links);

describe('links to the repository', () => {
	it('package.json has repository, homepage and bugs, all on GitHub', () => {
		expect(packageJson.repository?.url).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
		expect(packageJson.homepage).toMatch(/^https:\/\/github\.com\//);
		expect(packageJson.bugs?.url).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/issues$/);
		expect(expected).toBeDefined();
	});

	it('every GitHub link names the same owner/repo as package.json', () => {
		const others = all.filter((link) => link.repo !== expected && !OTHER_PROJECTS.has(link.repo));
		expect(others.map((link) => `${link.file}: ${link.url}`)).toEqual([]);
	});

	it('what n8n shows links there: every codex file and the Intelliprint API credential', () => {
		const shown = [...filesUnder('nodes', '.node.json'), 'credentials/IntelliprintApi.credentials.ts'];
		for (const file of shown) expect(links(file).filter((link) => link.repo === expected), file).not.toHaveLength(0);
	});

	it('every #anchor in a link to the repository is a heading of the README', () => {
		const readme = fs.readFileSync(`${ROOT}README.md`, 'utf8');
		const headings = new Set([...readme.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, text]) => anchor(text)));
		headings.add('readme');
		const broken = all.filter((link) => link.repo === expected && link.fragment && !headings.has(link.fragment));
		expect(broken.map((link) => `${link.file}: ${link.url}`)).toEqual([]);
	});

	it('docs/releasing.md lists exactly the files that carry the repository address', () => {
		const releasing = fs.readFileSync(`${ROOT}docs/releasing.md`, 'utf8');
		const section = releasing.split(/^## /m).find((part) => part.startsWith('The repository address'));
		expect(section, 'a section "The repository address" in docs/releasing.md').toBeDefined();
		const listed = [...section!.matchAll(/^- `([^`]+)`/gm)].map(([, file]) => file).sort();
		const carrying = [...new Set(all.filter((link) => link.repo === expected).map((link) => link.file))].sort();
		expect(listed).toEqual(carrying);
	});
});
