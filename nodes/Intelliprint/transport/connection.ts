import { createHash } from 'node:crypto';
import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { RateLimit } from './pacing';

export type IntelliprintContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

export const CREDENTIAL_TYPE = 'intelliprintApi';
export const DEFAULT_BASE_URL = 'https://api.intelliprint.net/v1';

export interface ConnectionSettings {
	baseUrl: string;
	/** The origin requests with the API key may go to; nothing else ever gets the key. */
	apiOrigin: string;
	limitKey: string;
	limit: RateLimit;
	readTimeoutMs: number;
	faultBudgetMs: number;
	/** The credential's Daily Spending Limit as given: read strictly by the spending gate (spending/spending.ts). */
	dailySpendingLimit: unknown;
}

const settingsCache = new WeakMap<object, ConnectionSettings>();

/** A credential's number setting, or the default when it is empty, zero or not a number. */
export function positive(value: unknown, fallback: number): number {
	const number = Number(value);
	return Number.isFinite(number) && number > 0 ? number : fallback;
}

/** The credential's Base URL as requests are built on it: the default when empty, no trailing slash. */
export function baseUrlOf(value: unknown): string {
	return String(value || DEFAULT_BASE_URL).trim().replace(/\/+$/, '');
}

/** The credential's connection settings, read once per node run. */
export async function connectionSettings(ctx: IntelliprintContext): Promise<ConnectionSettings> {
	const cached = settingsCache.get(ctx);
	if (cached) return cached;
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const baseUrl = baseUrlOf(credentials.baseUrl);
	let apiOrigin: string;
	try {
		apiOrigin = new URL(baseUrl).origin;
	} catch {
		apiOrigin = baseUrl;
	}
	const maxWait = Number(credentials.maxWaitSeconds);
	const settings: ConnectionSettings = {
		baseUrl,
		apiOrigin,
		// A fingerprint, never the key itself, identifies the credential's shared rate-limit window.
		limitKey: createHash('sha256').update(`${baseUrl}\n${String(credentials.apiKey)}`).digest('hex'),
		limit: {
			requests: Math.floor(positive(credentials.rateLimitRequests, 100)),
			windowMs: positive(credentials.rateLimitWindowSeconds, 60) * 1000,
		},
		readTimeoutMs: positive(credentials.timeoutSeconds, 30) * 1000,
		faultBudgetMs: (Number.isFinite(maxWait) && maxWait >= 0 ? maxWait : 120) * 1000,
		dailySpendingLimit: credentials.dailySpendingLimit,
	};
	settingsCache.set(ctx, settings);
	return settings;
}
