// Network helpers shared by the scripts (plain node and tsx) and the tests.
import { readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * The ports the system hands out on its own: to a listen on port 0, and as the local port of
 * every outgoing connection. Linux says which in /proc (32768–60999 by default); elsewhere the
 * IANA range (49152–65535, macOS's) is assumed.
 * @returns {[number, number]}
 */
export function ephemeralPorts() {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low <= high) return [low, high];
  } catch {
    // Not Linux: the IANA range.
  }
  return [49152, 65535];
}

/**
 * Whether a server can listen on `port` of 127.0.0.1 right now.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Where freePort looks first: below the ephemeral ports, above the well-known ones. */
const LOWEST = 10_000;

/**
 * A TCP port on 127.0.0.1 that nobody listens on right now, for a server started later (the
 * end-to-end run builds the site for a minute or two before its server listens).
 * Chosen at random below the ephemeral ports: a port the system picked (listen on port 0) could
 * meanwhile become the local port of any outgoing connection, and the server's listen then fails
 * with EADDRINUSE (it did once, in an end-to-end run). Only when no such range exists, or 50 picks
 * are taken, is the system asked.
 * @returns {Promise<number>}
 */
export async function freePort() {
  const [ephemeralLow] = ephemeralPorts();
  const highest = Math.min(ephemeralLow - 1, 65535);
  if (highest > LOWEST) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1));
      if (await canListen(port)) return port;
    }
  }
  return systemPort();
}

/**
 * A port the system chooses (listen on port 0, read the port, close).
 * @returns {Promise<number>}
 */
function systemPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
