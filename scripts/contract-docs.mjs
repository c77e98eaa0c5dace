#!/usr/bin/env node
// `npm run docs:contract`: rewrites the generated part of docs/api-contract.md from the contract table
// (nodes/Intelliprint/transport/contract.ts). Run with tsx, which loads the TypeScript it imports.
import { readFileSync, writeFileSync } from 'node:fs';

import renderModule from './contract/render.ts';

// The TypeScript is CommonJS, as the package is: its exports arrive as one default object.
const { renderContract, withContract } = renderModule;

const path = new URL('../docs/api-contract.md', import.meta.url);
const page = readFileSync(path, 'utf8');
const next = withContract(page, renderContract());
writeFileSync(path, next);
process.stdout.write(next === page ? 'docs/api-contract.md: already up to date\n' : 'docs/api-contract.md: contract table rewritten\n');
