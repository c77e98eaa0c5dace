/**
 * Skip Items Already Sent: every letter once, across runs and processes. A key on each print job, the account's keys
 * read once per process and then only what is newer, a job deleted or cancelled since no longer counting as sent.
 * Called by Print Job → Create.
 */

export * from './alreadySent';
export * from './sentKeyIndex';
