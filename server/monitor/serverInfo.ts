import fs from 'node:fs';
import os from 'node:os';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * 服务监控 figures of this process and its host: CPU, memory, disk, Node.js heap and event-loop delay, uptime, process
 * and host facts. Each process writes its latest snapshot to sys_monitor_node (plugin.ts), so the page lists them all.
 */
export class ServerProbe {
  private readonly loop: IntervalHistogram;
  private lastCpu = process.cpuUsage();
  private lastAt = process.hrtime.bigint();
  private lastHostTimes = hostCpuTimes();
  readonly startedAt = Date.now();

  constructor(
    readonly nodeId: string,
    private readonly dataDir: string,
  ) {
    this.loop = monitorEventLoopDelay({ resolution: 20 });
    this.loop.enable();
  }

  stop() {
    this.loop.disable();
  }

  snapshot() {
    const now = process.hrtime.bigint();
    const elapsedUs = Number(now - this.lastAt) / 1000;
    const cpu = process.cpuUsage(this.lastCpu);
    this.lastCpu = process.cpuUsage();
    this.lastAt = now;
    const host = hostCpuTimes();
    const busy = host.busy - this.lastHostTimes.busy;
    const total = host.total - this.lastHostTimes.total;
    this.lastHostTimes = host;
    const mem = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    let disk: { path: string; total: number; free: number; used: number } | null = null;
    try {
      const s = fs.statfsSync(this.dataDir);
      disk = { path: this.dataDir, total: s.blocks * s.bsize, free: s.bavail * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
    } catch {
      disk = null;
    }
    const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;
    const loop = {
      meanMs: ms(Number.isNaN(this.loop.mean) ? 0 : this.loop.mean),
      p50Ms: ms(this.loop.percentile(50)),
      p99Ms: ms(this.loop.percentile(99)),
      maxMs: ms(this.loop.max),
    };
    this.loop.reset();
    const cpus = os.cpus();
    return {
      nodeId: this.nodeId,
      time: Date.now(),
      cpu: {
        cores: cpus.length,
        model: cpus[0]?.model ?? '',
        loadavg: os.loadavg(),
        hostUsage: total > 0 ? busy / total : 0,
        processUsage: elapsedUs > 0 ? (cpu.user + cpu.system) / elapsedUs / Math.max(1, cpus.length) : 0,
      },
      memory: { total: os.totalmem(), free: os.freemem(), used: os.totalmem() - os.freemem() },
      process: {
        pid: process.pid,
        node: process.version,
        rss: mem.rss,
        heapUsed: mem.heapUsed,
        heapTotal: mem.heapTotal,
        heapLimit: heap.heap_size_limit,
        external: mem.external,
        uptimeSec: Math.round(process.uptime()),
        startedAt: this.startedAt,
        cwd: process.cwd(),
        argv: process.argv
          .slice(1)
          .map((a) => a.split('/').slice(-2).join('/'))
          .join(' '),
      },
      eventLoop: loop,
      host: {
        hostname: os.hostname(),
        platform: `${os.type()} ${os.release()}`,
        arch: os.arch(),
        uptimeSec: Math.round(os.uptime()),
        ips: Object.values(os.networkInterfaces())
          .flat()
          .filter((i) => i && !i.internal && i.family === 'IPv4')
          .map((i) => i?.address as string),
      },
      disk,
    };
  }
}

function hostCpuTimes() {
  let busy = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    busy += t.user + t.nice + t.sys + t.irq;
    total += t.user + t.nice + t.sys + t.irq + t.idle;
  }
  return { busy, total };
}

export type ServerSnapshot = ReturnType<ServerProbe['snapshot']>;
