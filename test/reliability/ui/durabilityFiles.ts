// What the durability UI tests look at from outside the editor: the extension host's process (found in
// code-server's process group through /proc) and the conversation files in the extension's global storage.
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseConversationFile } from '../../../src/chat/storeFormat';
import type { Conversation } from '../../../src/chat/types';
import type { RecordedRequest } from '../../gateway-emulator';

/** Pids of the extension hosts in code-server's process group (`--type=extensionHost` in the command line). */
export function extensionHostPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, pgrp, ...
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp !== pgid) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (cmdline.includes('--type=extensionHost')) pids.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/**
 * Each extension host with the client ports of its TCP connections open to 127.0.0.1:`port` (the gateway).
 * A window reload starts a new extension host while code-server keeps the old one alive (its reconnection
 * grace), so neither "the only extension host" nor "the one connected to the gateway" is reliably the one
 * serving the window: an old host may still be streaming an answer, or keep an idle connection from its model
 * list. The client port of the connection a request came on names the host that sent it.
 */
export function gatewayConnectionsByHost(pgid: number, port: number): Map<number, number[]> {
  const clientPortOf = establishedTo(port);
  const byHost = new Map<number, number[]>();
  for (const pid of extensionHostPids(pgid)) {
    const ports: number[] = [];
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkOrEmpty(`/proc/${pid}/fd/${fd}`))?.[1];
        const clientPort = inode === undefined ? undefined : clientPortOf.get(inode);
        if (clientPort !== undefined) ports.push(clientPort);
      }
    } catch {
      // the process ended while we looked
    }
    byHost.set(pid, ports);
  }
  return byHost;
}

/** The extension hosts that have a connection open to the gateway at 127.0.0.1:`port`. */
export function extensionHostsConnectedTo(pgid: number, port: number): number[] {
  return [...gatewayConnectionsByHost(pgid, port)]
    .filter(([, ports]) => ports.length > 0)
    .map(([pid]) => pid);
}

/**
 * The extension host that sent a request the gateway recorded: the one holding the connection it came on. The
 * latest of `requests` still open is looked for (a retry comes on a new connection), for up to `timeoutMs`.
 * Rejects with what it saw (each request's state, each host's connections) when none holds one.
 */
export async function hostThatSent(
  pgid: number,
  port: number,
  requests: readonly RecordedRequest[],
  timeoutMs = 5000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const byHost = gatewayConnectionsByHost(pgid, port);
    for (const request of [...requests].reverse()) {
      if (request.clientClosed || request.responseEnded) continue;
      const hosts = [...byHost].filter(([, ports]) => ports.includes(request.clientPort ?? -1));
      if (hosts.length === 1) return hosts[0][0];
    }
    if (Date.now() > deadline) {
      const seen = requests.map(
        (r) =>
          `request ${r.id} from port ${r.clientPort}, ${Date.now() - r.receivedAt} ms ago, status ${r.status}` +
          `${r.clientClosed ? ', closed by the client' : ''}${r.responseEnded ? ', answered' : ''}`,
      );
      const hosts = [...byHost].map(([pid, ports]) => `host ${pid}: ports [${ports.join(', ')}]`);
      throw new Error(
        `no extension host holds the connection of the request (${seen.join('; ') || 'none recorded'}); ` +
          `connections to the gateway: ${hosts.join('; ') || 'no extension host'}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Client port of each established socket to 127.0.0.1:`port`, by socket inode (from /proc/net/tcp and tcp6). */
function establishedTo(port: number): Map<string, number> {
  const clientPorts = new Map<string, number>();
  const hex = (n: number): string => n.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '01') continue; // 01: ESTABLISHED
      if (!fields[2].endsWith(`:${hex(port)}`)) continue;
      clientPorts.set(fields[9], parseInt(fields[1].slice(fields[1].lastIndexOf(':') + 1), 16));
    }
  }
  return clientPorts;
}

function readlinkOrEmpty(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

export { alive } from '../../support/processAlive';

/** The extension's chat storage: `<user-data>/User/globalStorage/modelgateway.model-gateway/chats`. */
export function chatsDir(userDataDir: string): string {
  return join(userDataDir, 'User', 'globalStorage', 'modelgateway.model-gateway', 'chats');
}

/** What the chat storage holds (file names and sizes, the index), for a failed test's output. */
export function describeChats(userDataDir: string): string {
  const root = chatsDir(userDataDir);
  const list = (dir: string): string =>
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true })
          .map((e) => (e.isFile() ? `${e.name} (${statSync(join(dir, e.name)).size} B)` : `${e.name}/`))
          .join(', ')
      : '(none)';
  const index = join(root, 'index.json');
  return [
    `chats: ${list(root)}`,
    `conversations: ${list(join(root, 'conversations'))}`,
    `index.json: ${existsSync(index) ? readFileSync(index, 'utf8').slice(0, 4000) : '(none)'}`,
  ].join('\n');
}

/** Every conversation file that parses, by id. */
export function readConversations(userDataDir: string): Map<string, Conversation> {
  const dir = join(chatsDir(userDataDir), 'conversations');
  const found = new Map<string, Conversation>();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    const id = /^(.+)\.json$/.exec(name)?.[1];
    if (!id) continue;
    const text = readIfPresent(join(dir, name));
    if (text === undefined) continue; // removed since the listing (a rename over it, in two steps)
    const parsed = parseConversationFile(text, id);
    if (parsed.ok) found.set(id, parsed.value);
  }
  return found;
}

/** A file's text, or undefined when it does not exist (any other error is thrown). */
export function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The saved conversation whose first user message is `text`, if any. */
export function conversationStartingWith(userDataDir: string, text: string): Conversation | undefined {
  return [...readConversations(userDataDir).values()].find((c) => c.turns[0]?.content === text);
}

/**
 * What the store had saved: each conversation file, or for one caught between the delete and the move of
 * a rename over it (how VS Code renames), its newest complete temporary file, which the store puts back.
 */
export function savedConversations(userDataDir: string): Map<string, Conversation> {
  const saved = readConversations(userDataDir);
  const read = new Set(saved.keys());
  const dir = join(chatsDir(userDataDir), 'conversations');
  if (!existsSync(dir)) return saved;
  for (const name of readdirSync(dir)) {
    const id = /^(.+)\.json\.tmp-[A-Za-z0-9-]+$/.exec(name)?.[1];
    if (!id || read.has(id)) continue;
    // Its file was absent when read: the temporary file, or the file itself if it was moved into place since.
    const text = readIfPresent(join(dir, name)) ?? readIfPresent(join(dir, `${id}.json`));
    if (text === undefined) continue;
    const parsed = parseConversationFile(text, id);
    const known = saved.get(id);
    if (parsed.ok && (!known || parsed.value.updatedAt > known.updatedAt)) saved.set(id, parsed.value);
  }
  return saved;
}

/**
 * The saved conversation whose first message is `text` (see `savedConversations`: a kill between the two halves
 * of VS Code's rename leaves it in its temporary file, which the store puts back when it next lists the history).
 */
export function savedConversationStartingWith(userDataDir: string, text: string): Conversation | undefined {
  return [...savedConversations(userDataDir).values()].find((c) => c.turns[0]?.content === text);
}
