import { vi } from 'vitest';

/**
 * Runs before each test file. The unit suite shares one module registry per fork (vitest.config.mts: `isolate:
 * false`) so that n8n-core and n8n-workflow load once per fork, not once per file. This package's own modules
 * are loaded afresh for every file all the same: they keep state per process, as they do inside n8n (the
 * trigger's delivery records, the spending limit's last confirm, the pacer per API key), and one file's state
 * must not reach the next file's tests.
 */
vi.resetModules();
