import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core reads its instance settings from the environment: give every test file its own folder.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-user-'));
process.env.N8N_ENCRYPTION_KEY ??= 'test-encryption-key';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
