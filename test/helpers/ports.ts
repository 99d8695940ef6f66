// A spare loopback port, for a test that starts a server (or redis-server) on it. Apart from redis.ts so that a unit
// test needing only a port does not import what starts redis-server (test/architecture/projects.ts).
import { createServer } from 'node:net';

/** A port nothing listens on right now (the OS picks it; the caller then binds it). */
export function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
