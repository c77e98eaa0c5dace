/**
 * What a run reports, and the promise that every input item comes out exactly once: print jobs and backgrounds as
 * items, an error item per failed row (shaped for n8n's error output), every row of a many-rows request given its
 * outcome (everyRow.ts), what each item created (the ledger, for the error that stops a run) and the execution's
 * account of print jobs in n8n's custom data (runAccount.ts, each job once). Called by the operations and the router.
 */

export * from './backgroundOutput';
export * from './errorItem';
export * from './everyRow';
export * from './ledger';
export * from './letterStatuses';
export * from './output';
export * from './runAccount';
export * from './letterRow';
export * from './spendingRefusals';
