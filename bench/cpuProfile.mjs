#!/usr/bin/env node
// Reads a V8 CPU profile (.cpuprofile, as `node --cpu-prof` or the inspector's Profiler writes it) and sums its samples
// by function, by file and by where the code comes from (this package's nodes/, n8n-workflow, n8n-core, n8n's
// expression runtime, Node itself, GC). bench/nodeTime.mjs uses it for a window of the profile (the Intelliprint
// node's execution); on its own: `node bench/cpuProfile.mjs <file.cpuprofile> [top]` prints the tables (of the node's
// window when bench/nodeTime.mjs left <file>.window.json beside it, else of the whole profile).
//
// Self time: samples whose innermost frame is the function. Total time: samples with the function anywhere on the
// stack, each sample counted once per function however often it recurses. A sample lasts until the next one.
import fs from 'node:fs';

/** Where a frame's code comes from, by its script URL. */
export function originOf(url, functionName) {
	if (!url) {
		if (functionName === '(garbage collector)') return 'gc';
		if (functionName === '(idle)') return 'idle';
		if (functionName === '(program)') return 'program';
		if (functionName === '(root)') return 'root';
		return 'native';
	}
	if (/\/nodes\/Intelliprint(Trigger|StatusTrigger)?\//.test(url) || /\/credentials\/IntelliprintApi/.test(url)) return 'package';
	if (url.includes('/node_modules/n8n-workflow/')) return 'n8n-workflow';
	if (url.includes('/node_modules/n8n-core/')) return 'n8n-core';
	if (url.includes('/@n8n/expression-runtime/') || url.includes('/isolated-vm/')) return 'expression-runtime';
	if (url.includes('/@n8n/tournament/')) return 'n8n-workflow';
	if (url.startsWith('node:') || !url.includes('/')) return 'node';
	if (url.includes('/node_modules/')) return `lib:${url.split('/node_modules/').pop().split('/').slice(0, url.split('/node_modules/').pop().startsWith('@') ? 2 : 1).join('/')}`;
	if (url.includes('/bench/')) return 'bench';
	return 'other';
}

/** A file's name as the tables show it: from nodes/ on for the package, from the package folder for node_modules. */
export function shortFile(url) {
	if (!url) return '';
	const clean = url.replace(/^file:\/\//, '');
	const nodes = clean.match(/\/(nodes\/.*|credentials\/.*)$/);
	if (nodes && !clean.includes('/node_modules/')) return nodes[1];
	if (clean.includes('/node_modules/')) return clean.split('/node_modules/').pop();
	return clean.split('/').slice(-2).join('/');
}

/**
 * Sums the samples of `profile` taken within [from, to] (µs, the profile's clock; all of it when not given).
 * Returns totals by origin, and rows by function and by file (self and total µs).
 */
export function summarise(profile, { from = -Infinity, to = Infinity } = {}) {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const frameKey = (node) => {
		const { functionName, url, lineNumber } = node.callFrame;
		return `${functionName || '(anonymous)'}\t${shortFile(url)}:${lineNumber + 1}`;
	};
	// Each node's stack as (function key, file, origin) sets, memoised: stacks repeat.
	const stackOf = new Map();
	const stack = (id) => {
		let known = stackOf.get(id);
		if (known) return known;
		const functions = new Set();
		const files = new Set();
		const origins = new Set();
		let packageFrame;
		for (let at = id; at !== undefined; at = parent.get(at)) {
			const node = byId.get(at);
			const origin = originOf(node.callFrame.url, node.callFrame.functionName);
			if (origin === 'root') continue;
			functions.add(frameKey(node));
			if (node.callFrame.url) files.add(`${origin}\t${shortFile(node.callFrame.url)}`);
			origins.add(origin);
			if (origin === 'package' && packageFrame === undefined) packageFrame = frameKey(node);
		}
		known = { functions, files, origins, packageFrame };
		stackOf.set(id, known);
		return known;
	};

	const times = [];
	let t = profile.startTime;
	for (const delta of profile.timeDeltas) times.push((t += delta));
	const self = new Map();
	const total = new Map();
	const fileSelf = new Map();
	const fileTotal = new Map();
	const origins = new Map();
	const innermostPackage = new Map();
	const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
	let sampled = 0;
	let busy = 0;
	for (let i = 0; i < profile.samples.length; i++) {
		const at = times[i];
		if (at < from || at > to) continue;
		const us = Math.max(0, Math.min(i + 1 < times.length ? times[i + 1] : profile.endTime, to) - at);
		const node = byId.get(profile.samples[i]);
		const origin = originOf(node.callFrame.url, node.callFrame.functionName);
		sampled += us;
		add(origins, origin, us);
		if (origin === 'idle') continue;
		busy += us;
		add(self, frameKey(node), us);
		const info = stack(node.id);
		if (node.callFrame.url) add(fileSelf, `${origin}\t${shortFile(node.callFrame.url)}`, us);
		for (const key of info.functions) add(total, key, us);
		for (const key of info.files) add(fileTotal, key, us);
		// What the package's code costs with what it calls in n8n and Node: by its innermost package function.
		add(innermostPackage, info.packageFrame ?? (origin === 'gc' ? '(garbage collector)' : '(no package frame: n8n or Node)'), us);
	}
	const rows = (map) => [...map].sort((a, b) => b[1] - a[1]).map(([key, us]) => ({ key, us }));
	return { sampledUs: sampled, busyUs: busy, origins: rows(origins), self: rows(self), total: rows(total), fileSelf: rows(fileSelf), fileTotal: rows(fileTotal), innermostPackage: rows(innermostPackage) };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
	const [file, top = '25'] = process.argv.slice(2);
	if (!file) throw new Error('usage: node bench/cpuProfile.mjs <file.cpuprofile> [top]');
	// bench/nodeTime.mjs writes the node's window beside each profile: only its samples are summed then.
	const windowFile = file.replace(/\.cpuprofile$/, '.window.json');
	const window = fs.existsSync(windowFile) ? JSON.parse(fs.readFileSync(windowFile, 'utf8')) : {};
	const summary = summarise(JSON.parse(fs.readFileSync(file, 'utf8')), window);
	const ms = (us) => (us / 1000).toFixed(1);
	const show = (title, list) => {
		process.stdout.write(`\n${title}\n`);
		for (const { key, us } of list.slice(0, Number(top))) process.stdout.write(`${ms(us).padStart(10)} ms ${((100 * us) / summary.busyUs).toFixed(1).padStart(5)}%  ${key.replace('\t', '  ')}\n`);
	};
	process.stdout.write(`sampled ${ms(summary.sampledUs)} ms, busy (not idle) ${ms(summary.busyUs)} ms\n`);
	show('by origin (self)', summary.origins);
	show('self time by function', summary.self);
	show('total time by function', summary.total);
	show('self time by file', summary.fileSelf);
	show('by innermost package function (its own time and what it calls)', summary.innermostPackage);
}
