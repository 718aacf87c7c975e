// Servers for the secrets session: a front gateway on 127.0.0.1 that forwards to the emulator but hands
// out image links on a second 127.0.0.1 port (another origin) that redirects to the emulator (a third
// origin), and that can answer with errors echoing the Authorization header, as some proxies do.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as a server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** How the front answers the next chat or image request instead of forwarding it. */
export type Injected = 'echo-401' | 'echo-in-stream';

/** A listening server with what it saw. */
export interface Listening {
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** The gateway the extension is configured with. */
export interface FrontGateway extends Listening {
  /** Answers the next requests to /v1/* this way (consumed one per request). */
  inject: Injected[];
}

async function listen(
  handler: (req: IncomingMessage, body: Buffer, res: import('node:http').ServerResponse) => void,
): Promise<Listening> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      handler(req, Buffer.concat(parts), res);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** The other origin: `/hop?to=URL` answers 302 to URL. */
export function startOtherOrigin(): Promise<Listening> {
  return listen((req, _body, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) res.writeHead(302, { location: to }).end();
    else res.writeHead(404).end();
  });
}

/** Starts the front gateway forwarding to `emulatorUrl`, with image links rewritten through `other`. */
export async function startFrontGateway(emulatorUrl: string, other: Listening): Promise<FrontGateway> {
  const inject: Injected[] = [];
  const upstream = new URL(emulatorUrl);
  const listening = await listen((req, body, res) => {
    const injected = req.url?.startsWith('/v1/') ? inject.shift() : undefined;
    const auth = String(req.headers.authorization ?? '');
    if (injected === 'echo-401') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${auth.replace(/^Bearer /, '')}. Header was "${auth}".`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
      return;
    }
    if (injected === 'echo-in-stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm' };
      res.write(
        `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: { content: 'Partial ' } }] })}\n\n`,
      );
      res.end(
        `data: ${JSON.stringify({ error: { message: `upstream refused ${auth}`, code: 'upstream_error' } })}\n\n`,
      );
      return;
    }
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        if (req.url?.startsWith('/v1/images/generations') && answer.statusCode === 200) {
          const parts: Buffer[] = [];
          answer.on('data', (part: Buffer) => parts.push(part));
          answer.on('end', () => {
            const json = JSON.parse(Buffer.concat(parts).toString('utf8')) as { data: { url?: string }[] };
            for (const image of json.data)
              if (image.url) image.url = `${other.origin}/hop?to=${encodeURIComponent(image.url)}`;
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(json));
          });
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    forward.end(body);
  });
  return { ...listening, inject };
}
