/**
 * What a request is made of: a print job's body and its source (a PDF, a URL, a template or text), binary PDFs read
 * through n8n's helpers, a mail run split into parts under their keys, and a mailing list's recipients sent a thousand
 * per request. Called by Print Job → Create and Update and the Mailing List operations.
 */

export * from './binary';
export * from './mailRunKeys';
export * from './mailRunParts';
export * from './mailingLists';
export * from './printJobBody';
export * from './printJobSource';
export * from './printJobUpdate';
export * from './postageByDestination';
