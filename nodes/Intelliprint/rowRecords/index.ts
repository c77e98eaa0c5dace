/**
 * The rows behind a print job, as its metadata keeps them within the API's budget: which rows each letter carried
 * (found by the letter's address), their sent keys and Row IDs. Written by Print Job → Create (building/), read by
 * reruns (reruns/), the output (results/) and both triggers. It depends on nothing of the node's.
 */

export * from './letterAddress';
export * from './metadataBudget';
export * from './rowRecords';
