/**
 * The parts of undici the client uses, loaded from their own modules. undici's index also loads fetch,
 * WebSocket, the mock agents, the cache stores and every interceptor: a large part of the minified
 * extension bundle that the client never runs (figures: docs/performance.md, Design changes). The types
 * still come from undici's public declarations.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Undici from 'undici';

const DispatcherClass = require('undici/lib/dispatcher/dispatcher') as typeof Undici.Dispatcher;
// undici's index adds `request()` to every dispatcher this way (Object.assign(Dispatcher.prototype, api)).
Object.assign(DispatcherClass.prototype, { request: require('undici/lib/api/api-request') as unknown });

export type Dispatcher = Undici.Dispatcher;
export const Agent = require('undici/lib/dispatcher/agent') as typeof Undici.Agent;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent') as typeof Undici.ProxyAgent;
export const EnvHttpProxyAgent =
  require('undici/lib/dispatcher/env-http-proxy-agent') as typeof Undici.EnvHttpProxyAgent;
