/**
 * Skip Items Already Sent: every letter once, across runs and processes. A key on each print job (in its metadata,
 * and as its reference), the account's keys read once per process (or looked up by reference, where that is fewer
 * requests) and then only what is newer, a job deleted or cancelled since no longer counting as sent.
 * Called by Print Job → Create.
 */

export * from './alreadySent';
export * from './sentKeyIndex';
export * from './rowClaims';
