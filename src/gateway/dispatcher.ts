/** Chooses the undici dispatcher: explicit proxy, proxy from the environment, or a direct agent. */

import { Agent, type Dispatcher, EnvHttpProxyAgent, ProxyAgent } from './undici';

interface DispatcherOptions {
  /** Explicit proxy URL (http:// or https://). */
  proxy?: string;
  connectTimeoutMs: number;
  /** Defaults to `process.env`; injectable for tests. */
  env?: Record<string, string | undefined>;
}

const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** True when the environment names a proxy, so EnvHttpProxyAgent has something to do. */
export function environmentHasProxy(env: Record<string, string | undefined>): boolean {
  return PROXY_VARS.some((name) => !!env[name]?.trim());
}

/** Builds the dispatcher every request of one client goes through. */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const timeout = options.connectTimeoutMs;
  // undici's own header/body timers are off: the client runs its own first-byte and idle timers,
  // which can tell the phases apart and are cancelled by the same signal as everything else.
  const common = { connect: { timeout }, headersTimeout: 0, bodyTimeout: 0 };
  const proxy = options.proxy?.trim();
  if (proxy) {
    // proxyTls/requestTls carry the connect timeout for the hop to the proxy and the tunnelled TLS.
    return new ProxyAgent({ ...common, uri: proxy, proxyTls: { timeout }, requestTls: { timeout } });
  }
  const env = options.env ?? process.env;
  if (environmentHasProxy(env)) {
    return new EnvHttpProxyAgent({
      ...common,
      proxyTls: { timeout },
      requestTls: { timeout },
      // '' rather than undefined, so undici does not fall back to process.env behind our back.
      httpProxy: env.HTTP_PROXY ?? env.http_proxy ?? '',
      httpsProxy: env.HTTPS_PROXY ?? env.https_proxy ?? '',
      noProxy: env.NO_PROXY ?? env.no_proxy ?? '',
    });
  }
  return new Agent(common);
}
