// What the durability UI tests look at from outside the editor: the extension host's process (found in
// code-server's process group through /proc) and the conversation files in the extension's global storage.
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseConversationFile } from '../../../src/chat/storeFormat';
import type { Conversation } from '../../../src/chat/types';

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
 * The extension hosts that have a TCP connection open to 127.0.0.1:`port` (the gateway), or, with
 * `clientPort`, the one connection whose own end is that port (the request the gateway recorded). A window
 * reload starts a new extension host while code-server keeps the old one alive (its reconnection grace), so
 * neither "the only extension host" nor "the one connected to the gateway" is reliably the one serving the
 * window: an old host may still be streaming an answer, or keep an idle connection from its model list.
 */
export function extensionHostsConnectedTo(pgid: number, port: number, clientPort?: number): number[] {
  const inodes = socketInodesTo(port, clientPort);
  return extensionHostPids(pgid).filter((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        const target = readlinkOrEmpty(`/proc/${pid}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        return inode !== undefined && inodes.has(inode);
      });
    } catch {
      return false; // the process ended while we looked
    }
  });
}

/** The extension host connected to 127.0.0.1:`port` (see `extensionHostsConnectedTo`), when exactly one is. */
export function extensionHostConnectedTo(
  pgid: number,
  port: number,
  clientPort?: number,
): number | undefined {
  const hosts = extensionHostsConnectedTo(pgid, port, clientPort);
  return hosts.length === 1 ? hosts[0] : undefined;
}

/**
 * Inodes of the established sockets to 127.0.0.1:`port` (from /proc/net/tcp and tcp6), only the one whose
 * local end is `clientPort` when it is given.
 */
function socketInodesTo(port: number, clientPort?: number): Set<string> {
  const inodes = new Set<string>();
  const hex = (n: number): string => n.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '01') continue; // 01: ESTABLISHED
      if (!fields[2].endsWith(`:${hex(port)}`)) continue;
      if (clientPort !== undefined && !fields[1].endsWith(`:${hex(clientPort)}`)) continue;
      inodes.add(fields[9]);
    }
  }
  return inodes;
}

function readlinkOrEmpty(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

/** True while the process exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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
