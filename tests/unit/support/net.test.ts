import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { canListen, ephemeralPorts, freePort } from '../../../scripts/support/net.mjs';

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('freePort', () => {
  it('picks ports below the ones the system hands to outgoing connections, free to listen on', async () => {
    const [low, high] = ephemeralPorts();
    expect(low).toBeLessThanOrEqual(high);
    const ports = await Promise.all(Array.from({ length: 10 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
    }
    // A server can listen on what it gave.
    const server = await listen(ports[0]!);
    try {
      // And once one does, the port is no longer free.
      expect(await canListen(ports[0]!)).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await canListen(ports[0]!)).toBe(true);
  });
});
