// Network helpers shared by the scripts (plain node and tsx) and the tests.
import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nobody listens on right now, chosen by the system (listen on port
 * 0, read the port, close).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
