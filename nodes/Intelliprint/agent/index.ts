/**
 * The node as an AI agent's tool: what the model fills and is told, the guard that only the workflow's builder may
 * allow live letters, and the wording of results and errors for a model, applied once where items leave the node
 * (the router). Called by the router, the print job operations and the address reading.
 */

export * from './toolMode';
