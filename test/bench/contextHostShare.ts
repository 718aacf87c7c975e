/**
 * Case 7, the extension's own share of the send path, inside the real extension host with the staged production
 * extension: a `send` message handed to the chat session as the webview's message arrives (`ChatSession.receive`)
 * → the request's body read by a server in this same process (one clock). code-server's relay between the
 * webview and the extension host is not in it; contextSend.ts measures the whole way from Enter.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../src/extension';
import { conversation } from './corpus';
import { largeSource } from './contextWorkspace';
import { withSettings } from '../support/settings';

/** One send: until the request's first bytes, and until its whole body, arrived at the server (ms). */
export interface HostShare {
  headersMs: number;
  bodyMs: number;
}

const FILES = ['ledgerAlpha.ts', 'ledgerBeta.ts', 'ledgerGamma.ts'];

/** A minimal OpenAI-style stream: one token, then the end. */
function answer(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [] as unknown[],
  };
  chunk.choices = [{ index: 0, delta: { content: 'Ok.' }, finish_reason: null }];
  res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  chunk.choices = [{ index: 0, delta: {}, finish_reason: 'stop' }];
  res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
}

/** Measures `rounds` sends of a 400-message conversation with three files, and of an empty one. */
export async function measureHostShare(
  rounds: number,
  messages: number,
): Promise<{ long: HostShare[]; empty: HostShare[] }> {
  let arrived: { headersAt: number; bodyAt?: number } | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const seen = { headersAt: performance.now() } as { headersAt: number; bodyAt?: number };
    req.resume();
    req.on('end', () => {
      seen.bodyAt = performance.now();
      if (req.url?.endsWith('/chat/completions')) arrived = seen;
      if (req.url?.endsWith('/chat/completions')) answer(res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    // Global, as the bench editor's own settings are: its workspace sets no base URL to win over it.
    return await withSettings({ baseUrl: url }, async () => {
      process.env.MODEL_GATEWAY_API_KEY ||= 'bench-key';
      const folder = vscode.workspace.workspaceFolders![0].uri;
      mkdirSync(vscode.Uri.joinPath(folder, 'ledgers').fsPath, { recursive: true });
      const uris = FILES.map((name, i) => {
        const uri = vscode.Uri.joinPath(folder, 'ledgers', name);
        writeFileSync(uri.fsPath, largeSource(3000 + i * 1000));
        return uri;
      });
      const api = (await vscode.extensions
        .getExtension<ModelGatewayApi>('modelgateway.model-gateway')!
        .activate())!;
      const opened = await api.openChatSession();
      const session = opened.session;
      const sendOnce = async (attach: boolean): Promise<HostShare> => {
        if (attach) await session.context.addUris(uris);
        arrived = undefined;
        const started = performance.now();
        await session.receive({ type: 'send', text: 'How do these ledgers add up totals?' });
        const got = arrived as { headersAt: number; bodyAt?: number } | undefined;
        if (got?.bodyAt === undefined) throw new Error('the send did not reach the server');
        return { headersMs: got.headersAt - started, bodyMs: got.bodyAt - started };
      };
      try {
        const long: HostShare[] = [];
        const empty: HostShare[] = [];
        session.conversation = conversation(messages, 300_000);
        // One unmeasured send warms the path up (the connection, the code); the conversation then grows by a turn
        // pair per send, as a real one does.
        for (let i = 0; i <= rounds; i++) {
          const sent = await sendOnce(true);
          if (i > 0) long.push(sent);
        }
        for (let i = 0; i <= rounds; i++) {
          await session.receive({ type: 'newChat' });
          const sent = await sendOnce(false);
          if (i > 0) empty.push(sent);
        }
        return { long, empty };
      } finally {
        opened.release();
      }
    });
  } finally {
    server.close();
  }
}
