import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CacheLayer } from '../cache/index.js';

/**
 * Prometheus metrics of one server process (GET /metrics, token-protected): request rate and latency by route, errors
 * (HTTP 5xx and business codes other than 200), job runs, cache hit rate, plus Node's default process metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly latency: Histogram<'method' | 'route'>;
  readonly errors: Counter<'route' | 'code'>;
  readonly jobRuns: Counter<'handler' | 'status'>;
  readonly jobDuration: Histogram<'handler'>;

  constructor(cache: CacheLayer) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'zy_' });
    this.requests = new Counter({ name: 'zy_http_requests_total', help: 'HTTP requests by route', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'zy_http_request_duration_seconds',
      help: 'HTTP request latency by route',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.errors = new Counter({
      name: 'zy_http_errors_total',
      help: 'Answers with HTTP 5xx or a business code other than 200',
      labelNames: ['route', 'code'],
      registers,
    });
    this.jobRuns = new Counter({ name: 'zy_job_runs_total', help: 'Scheduled job runs by handler and outcome', labelNames: ['handler', 'status'], registers });
    this.jobDuration = new Histogram({
      name: 'zy_job_run_duration_seconds',
      help: 'Scheduled job run time',
      labelNames: ['handler'],
      buckets: [0.01, 0.1, 0.5, 1, 5, 30, 120, 600],
      registers,
    });
    const hits = new Gauge({ name: 'zy_cache_hits', help: 'Cache hits since start, by cache name', labelNames: ['cache'], registers });
    const misses = new Gauge({ name: 'zy_cache_misses', help: 'Cache misses since start, by cache name', labelNames: ['cache'], registers });
    new Gauge({
      name: 'zy_cache_hit_ratio',
      help: 'Cache hit ratio since start, by cache name',
      labelNames: ['cache'],
      registers,
      collect() {
        for (const s of cache.stats()) {
          this.set({ cache: s.name }, s.hitRate);
          hits.set({ cache: s.name }, s.hits);
          misses.set({ cache: s.name }, s.misses);
        }
      },
    });
  }
}
