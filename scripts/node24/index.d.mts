// Types of scripts/node24/index.mjs, for the end-to-end helpers that start n8n and for its test.

/** The pinned Node version (this folder's package.json) and its major. */
export declare const VERSION: string;
export declare const MAJOR: number;
/** The npm package holding Node, by `${platform}-${arch}`. */
export declare const PACKAGES: Readonly<Record<string, string>>;

/** The facts the choice depends on, as `process` has them. */
export interface Machine {
	platform: string;
	arch: string;
	/** `process.version`, e.g. v24.21.0. */
	version: string;
	/** `process.execPath`: the Node running this. */
	execPath: string;
	/** Where npm installed this platform's package, if it did. */
	packageDir?: string | null;
}

export interface NodeChoice {
	/** package: npm's node-<os>-<cpu>; own: the Node running this, already the pinned major. */
	source: 'package' | 'own';
	/** The package's name, when source is package. */
	name?: string;
	/** The binary that runs n8n. */
	node: string;
	/** The folder that goes first on PATH, so that `node` found there is this one. */
	binDir: string;
	/** Where its headers would be (include/node). */
	prefix: string;
}

export interface Node24 extends NodeChoice {
	/** `prefix` when the headers are there (npm_config_nodedir for native modules), else undefined. */
	nodeDir?: string;
	/** PATH with binDir first, and on Windows the system variables a child needs. */
	env: Record<string, string>;
}

/** `dir` first on `path`, with the platform's separator. */
export declare function pathFirst(dir: string, path: string | undefined, platform: string): string;
/** The choice for any machine; throws, saying what to install, when there is no Node 24. */
export declare function chooseNode(machine: Machine): NodeChoice;
/** This machine's choice (computed once). */
export declare function node24(): Node24;
/** node24(), or its message on stderr and exit 1. */
export declare function node24OrExit(): Node24;
