import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';

/**
 * Helpers of the tests that start real processes (servers, redis-server): server tests and the browser suite's
 * global setup share them.
 */

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** The redis-server binary on PATH, or null (CI installs it: .ci/run). */
export function redisBinary(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

/** A throw-away redis-server child on a free port (no persistence), once it accepts connections. */
export async function startRedis(binary: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  // Waits on the port, not on a time: a loaded machine may take seconds to start it; a child that dies fails at once.
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  while (!(await accepts(port))) {
    if (exited) throw new Error(`redis-server 未能在端口 ${port} 启动`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url: `redis://127.0.0.1:${port}` };
}
