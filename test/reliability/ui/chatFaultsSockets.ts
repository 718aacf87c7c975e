// Counts open TCP connections to a loopback port from the kernel's table (Linux /proc/net/tcp), so the UI
// suite can see the extension host's sockets to the gateway without reaching into the extension host.
import { readFileSync } from 'node:fs';

/** TCP states that mean the connection is not closed yet (ESTABLISHED, SYN_*, FIN_WAIT*, CLOSE_WAIT…). */
const OPEN_STATES = new Set(['01', '02', '03', '04', '05', '08', '09', '0B']);

/** Connections whose server end is `port` on this machine (IPv4), not counting the listening socket. */
export function openSockets(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 3 && fields[1].endsWith(`:${hexPort}`) && OPEN_STATES.has(fields[3]))
    .length;
}
