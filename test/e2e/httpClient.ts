import { Agent, setGlobalDispatcher } from 'undici';

/**
 * The tests' fetch opens a fresh connection for every request. With keep-alive, a request sent on a pooled
 * connection at the moment n8n closes it as idle (Node's server does after 5 s) fails with ECONNRESET before n8n
 * sees it: on a busy host the client's own idle timer runs late, and a REST call of the AI agent file met this once.
 * On 127.0.0.1 a new connection costs nothing worth that risk. (Set per test process, from vitest's setupFiles.)
 */
setGlobalDispatcher(new Agent({ pipelining: 0 }));
