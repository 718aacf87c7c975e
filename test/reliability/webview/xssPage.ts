// The real webview bundle under the exact CSP the host sets (src/host/chat/chatCsp.ts), with a canary
// server on 127.0.0.1 that counts every request a hostile vector manages to send.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatContentSecurityPolicy } from '../../../src/host/chat/chatCsp';
import type { Harness, HarnessPage } from '../../webview/harness';

/** A loopback server that records every hit. */
export interface Canary {
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

/** Starts the canary on a free 127.0.0.1 port. */
export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('canary');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Opens the bundle, then reloads it with the harness's CSP header replaced by the host's own policy,
 * delivered as the host delivers it (a meta tag), with the harness origin as `webview.cspSource`.
 */
export async function openWithHostCsp(
  harness: Pick<Harness, 'open' | 'origin'>,
): Promise<{ hp: HarnessPage; csp: string }> {
  const hp = await harness.open();
  let csp = '';
  await hp.page.route(
    (url) => url.origin === harness.origin && url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      const nonce = /nonce="([^"]+)"/.exec(body)?.[1];
      if (!nonce) throw new Error('the harness page carries no script nonce');
      csp = chatContentSecurityPolicy(harness.origin, nonce);
      const headers = { ...response.headers() };
      delete headers['content-security-policy'];
      const meta = `<meta http-equiv="Content-Security-Policy" content="${csp}">`;
      await route.fulfill({ response, headers, body: body.replace('<head>', `<head>${meta}`) });
    },
  );
  await hp.page.reload();
  await hp.page.waitForSelector('.composer');
  hp.requests.length = 0;
  hp.errors.length = 0;
  if (!csp) throw new Error('the host CSP was not applied');
  return { hp, csp };
}

/** The run's seed: RELIABILITY_SEED when set (to replay a failure), else a fresh one. */
export function runSeed(): number {
  const fromEnv = Number(process.env.RELIABILITY_SEED);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : (Date.now() % 0x7fffffff) + 1;
}
