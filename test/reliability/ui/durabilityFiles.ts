// What the durability UI tests look at from outside the editor: the extension host's process (found in
// code-server's process group through /proc) and the conversation files in the extension's global storage.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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

/** Every conversation file that parses, by id. */
export function readConversations(userDataDir: string): Map<string, Conversation> {
  const dir = join(chatsDir(userDataDir), 'conversations');
  const found = new Map<string, Conversation>();
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    const id = /^(.+)\.json$/.exec(name)?.[1];
    if (!id) continue;
    const parsed = parseConversationFile(readFileSync(join(dir, name), 'utf8'), id);
    if (parsed.ok) found.set(id, parsed.value);
  }
  return found;
}

/** The saved conversation whose first user message is `text`, if any. */
export function conversationStartingWith(userDataDir: string, text: string): Conversation | undefined {
  return [...readConversations(userDataDir).values()].find((c) => c.turns[0]?.content === text);
}
