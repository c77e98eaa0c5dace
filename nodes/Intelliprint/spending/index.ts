/**
 * The spending gate, the one door every confirm passes (Create with Confirm, a mail run's parts, a rerun's held
 * drafts, Confirm, Update with Confirm, the AI tool): Confirm and both limits read strictly, a price that cannot be read
 * never confirmed, today's total kept per process, drafts made only while they could fit and each a claim on the day
 * (claims.ts), so that one read serves a run's confirms (confirmLine.ts), and the pass without which the transport
 * sends no confirm. updatePrintJob.ts sends every confirm of an existing job. Called by the print job operations.
 */

export * from './spending';
export * from './spendingDay';
export * from './spendingRoom';
export { CLAIM_METADATA } from './claims';
export * from './updatePrintJob';
export { namingEarlierDraft } from './refusals';
