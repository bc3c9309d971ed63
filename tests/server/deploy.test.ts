import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startServer, type TestServer } from './harness.js';

/**
 * The deployment files (issue 25): Dockerfile, .dockerignore, deploy/compose.yaml, deploy/Caddyfile, deploy/.env.example.
 * CI has no Docker daemon, so nothing here builds an image: the files are parsed and checked against each other and
 * against the repository (every file the image copies exists and reaches the build; the health check command, run as
 * the image would run it, tells a ready server from a failing or absent one).
 */

const root = path.resolve(import.meta.dirname, '../..');
const deployDir = path.join(root, 'deploy');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

// ── Dockerfile ──────────────────────────────────────────────────────────────────────────────────────────────────────

const INSTRUCTIONS = new Set([
  'FROM',
  'RUN',
  'CMD',
  'LABEL',
  'EXPOSE',
  'ENV',
  'ADD',
  'COPY',
  'ENTRYPOINT',
  'VOLUME',
  'USER',
  'WORKDIR',
  'ARG',
  'ONBUILD',
  'STOPSIGNAL',
  'HEALTHCHECK',
  'SHELL',
]);

interface Instruction {
  /** Line of the file where the instruction starts (1-based). */
  line: number;
  keyword: string;
  args: string;
}

interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** Dockerfile syntax as BuildKit reads it: parser directives at the top, comments, `\` line continuations. */
function parseDockerfile(text: string): { directives: Record<string, string>; instructions: Instruction[] } {
  const lines = text.split('\n');
  const directives: Record<string, string> = {};
  let i = 0;
  for (; i < lines.length; i++) {
    const m = /^#\s*([a-zA-Z]+)\s*=\s*(.+?)\s*$/.exec(lines[i]);
    if (!m) break;
    directives[m[1].toLowerCase()] = m[2];
  }
  const instructions: Instruction[] = [];
  while (i < lines.length) {
    const start = i;
    let logical = '';
    for (; i < lines.length; i++) {
      const raw = lines[i];
      // A comment line, even inside a continued instruction, is dropped.
      if (/^\s*#/.test(raw)) continue;
      if (/\\\s*$/.test(raw)) {
        logical += `${raw.replace(/\\\s*$/, '')} `;
        continue;
      }
      logical += raw;
      i++;
      break;
    }
    const trimmed = logical.trim();
    if (!trimmed) continue;
    const m = /^(\S+)\s*(.*)$/.exec(trimmed)!;
    instructions.push({ line: start + 1, keyword: m[1].toUpperCase(), args: m[2].trim() });
  }
  return { directives, instructions };
}

/** Splits an instruction's arguments as the shell form does: on blanks, keeping quoted parts together. */
function words(args: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** `ENV a=b c="d e"` → { a: 'b', c: 'd e' }; also the old one-pair form `ENV a b`. */
function envPairs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const [key, ...rest] = args.split(/\s+/);
    out[key] = rest.join(' ');
    return out;
  }
  const re = /([A-Za-z_][A-Za-z0-9_]*)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S*))/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out[m[1]] = m[2] ?? m[3] ?? m[4];
  return out;
}

/** COPY/ADD: leading --flags, then sources and the destination (shell or JSON form). */
function copyArgs(args: string): { flags: Record<string, string>; sources: string[]; dest: string } {
  const flags: Record<string, string> = {};
  let rest = args;
  for (let m = /^--([a-z-]+)(?:=(\S+))?\s+/.exec(rest); m; m = /^--([a-z-]+)(?:=(\S+))?\s+/.exec(rest)) {
    flags[m[1]] = m[2] ?? 'true';
    rest = rest.slice(m[0].length);
  }
  const parts = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : words(rest);
  return { flags, sources: parts.slice(0, -1), dest: parts[parts.length - 1] };
}

/** HEALTHCHECK [--option=value …] CMD … → its options and the command (exec form kept as an array). */
function healthcheck(args: string): { options: Record<string, string>; command: string[] | string } {
  const options: Record<string, string> = {};
  let rest = args;
  for (let m = /^--([a-z-]+)=(\S+)\s+/.exec(rest); m; m = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    options[m[1]] = m[2];
    rest = rest.slice(m[0].length);
  }
  const cmd = /^CMD\s+(.*)$/s.exec(rest);
  if (!cmd) throw new Error(`HEALTHCHECK without CMD: ${args}`);
  const body = cmd[1].trim();
  return { options, command: body.startsWith('[') ? (JSON.parse(body) as string[]) : body };
}

const seconds = (d: string) => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(d);
  if (!m) throw new Error(`not a duration: ${d}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2] as 'ms' | 's' | 'm'];
};

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const w = words(ins.args).filter((x) => !x.startsWith('--'));
      stages.push({ base: w[0], name: w[1]?.toUpperCase() === 'AS' ? w[2] : '', instructions: [] });
    } else {
      // Only ARG may come before the first FROM.
      if (!stages.length && ins.keyword !== 'ARG') throw new Error(`line ${ins.line}: ${ins.keyword} before FROM`);
      stages.at(-1)?.instructions.push(ins);
    }
  }
  return stages;
}

// ── .dockerignore, as Docker matches it (moby/patternmatcher) ─────────────────────────────────────────────────────────

interface IgnoreRule {
  re: RegExp;
  exclusion: boolean;
}

function ignoreRules(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split('\n')) {
    let p = rawLine.trim();
    if (!p || p.startsWith('#')) continue;
    const exclusion = p.startsWith('!');
    if (exclusion) p = p.slice(1).trim();
    p = path.posix.normalize(p).replace(/^\/+/, '').replace(/\/+$/, '');
    let re = '';
    for (let i = 0; i < p.length; i++) {
      const ch = p[i];
      if (ch === '*' && p[i + 1] === '*') {
        i++;
        if (p[i + 1] === '/') i++;
        re += i + 1 >= p.length ? '.*' : '(.*/)?';
      } else if (ch === '*') re += '[^/]*';
      else if (ch === '?') re += '[^/]';
      else if (ch === '\\' && i + 1 < p.length) re += `\\${p[++i]}`;
      else re += /[.+()|{}$^[\]]/.test(ch) ? `\\${ch}` : ch;
    }
    rules.push({ re: new RegExp(`^${re}$`), exclusion });
  }
  return rules;
}

/** Whether a path of the build context (relative, posix) is left out: the last rule matching it or a parent wins. */
function ignored(rules: IgnoreRule[], rel: string): boolean {
  const parts = rel.split('/');
  let out = false;
  for (const rule of rules) {
    let match = rule.re.test(rel);
    for (let i = 1; !match && i < parts.length; i++) match = rule.re.test(parts.slice(0, i).join('/'));
    if (match) out = !rule.exclusion;
  }
  return out;
}

function filesUnder(rel: string): string[] {
  const full = path.join(root, rel);
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs.readdirSync(full).flatMap((entry) => filesUnder(`${rel}/${entry}`));
}

// ── compose.yaml and the Caddyfile ──────────────────────────────────────────────────────────────────────────────────

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string };
  environment?: Record<string, string>;
  env_file?: Array<string | { path: string }>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  command?: string[];
}

interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const composeText = read('deploy/compose.yaml');
// Compose files use `<<: *anchor` merge keys (YAML 1.1); Docker Compose supports them, so parse with them on.
const compose = parseYaml(composeText, { merge: true }) as Compose;
const dockerfile = parseDockerfile(read('Dockerfile'));
const stages = stagesOf(dockerfile.instructions);
const finalStage = stages.at(-1)!;
const finalOf = (keyword: string) => finalStage.instructions.filter((i) => i.keyword === keyword);
const check = healthcheck(finalOf('HEALTHCHECK')[0]?.args ?? 'CMD []');
const caddyfile = read('deploy/Caddyfile');
const envExample = Object.fromEntries(
  read('deploy/.env.example')
    .split('\n')
    .filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

describe('Dockerfile', () => {
  it('is made of known instructions, with named stages, each built on an image or an earlier stage', () => {
    expect(dockerfile.instructions.length).toBeGreaterThan(10);
    for (const ins of dockerfile.instructions) expect(INSTRUCTIONS.has(ins.keyword), `line ${ins.line}: ${ins.keyword}`).toBe(true);
    expect(stages.length).toBeGreaterThanOrEqual(3);
    const names = stages.map((s) => s.name);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_.-]*$/);
    expect(new Set(names).size).toBe(names.length);
    stages.forEach((stage, i) => {
      expect(names.slice(0, i).includes(stage.base) || /^[a-z0-9./-]+:[\w.-]+$/.test(stage.base), `FROM ${stage.base}`).toBe(true);
    });
    // JSON-form arguments must be valid JSON, or Docker silently runs them through a shell as a string.
    for (const ins of dockerfile.instructions.filter((i) => ['CMD', 'ENTRYPOINT'].includes(i.keyword))) {
      expect(() => JSON.parse(ins.args), `line ${ins.line}`).not.toThrow();
    }
  });

  it('runs on the Node version package.json asks for, with the C++ toolchain where packages are installed', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const wantMajor = Number(/(\d+)/.exec(engines)![1]);
    const nodeBases = stages.map((s) => s.base).filter((b) => b.startsWith('node:'));
    expect(nodeBases.length).toBeGreaterThan(0);
    for (const base of nodeBases) expect(Number(/^node:(\d+)/.exec(base)![1])).toBeGreaterThanOrEqual(wantMajor);
    const install = stages.find((s) => s.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args)));
    expect(install, 'a stage runs npm ci').toBeDefined();
    const apt = install!.instructions.filter((i) => i.keyword === 'RUN' && /apt-get install/.test(i.args)).map((i) => i.args);
    for (const pkg of ['python3', 'make', 'g++']) expect(apt.join(' ')).toMatch(new RegExp(`\\s${pkg.replace('+', '\\+')}(\\s|$)`));
  });

  it('final stage: production mode, CJK fonts, a non-root user, a data volume, a health check and a start command', () => {
    const env = Object.assign({}, ...finalOf('ENV').map((i) => envPairs(i.args))) as Record<string, string>;
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', DATA_DIR: '/data' });
    const apt = finalOf('RUN')
      .map((i) => i.args)
      .join(' ');
    expect(apt).toMatch(/apt-get install[^&;]*\bfonts-noto-cjk\b/);
    // The path the PDF and poster code reads by default is the one that package installs on Debian.
    expect(read('server/volunteer/export.ts')).toContain('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc');
    const users = finalOf('USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.args.split(':')[0];
    expect(['root', '0', '']).not.toContain(user);
    // Everything after the last USER runs as that user: the start command must not come before it.
    const userIndex = finalStage.instructions.lastIndexOf(users.at(-1)!);
    expect(finalStage.instructions.findIndex((i) => i.keyword === 'CMD')).toBeGreaterThan(userIndex);
    expect(
      finalOf('VOLUME')
        .map((i) => i.args)
        .join(' '),
    ).toContain(env.DATA_DIR);
    expect(finalOf('HEALTHCHECK')).toHaveLength(1);
    // The command itself gives up before Docker's timeout, so a hung server counts as a failed check, not a kill.
    const ownLimitMs = Number(/AbortSignal\.timeout\((\d+)\)/.exec(String(check.command))?.[1]);
    expect(ownLimitMs / 1000).toBeLessThan(seconds(check.options.timeout ?? '30s'));
    const cmd = JSON.parse(finalOf('CMD').at(-1)!.args) as string[];
    expect(cmd[0]).toBe('node');
    const entry = cmd.find((a) => /\.(ts|mjs|js)$/.test(a))!;
    expect(fs.existsSync(path.join(root, entry)), entry).toBe(true);
    // The entry file's folder is copied into the final stage.
    const copied = finalOf('COPY').flatMap((i) => copyArgs(i.args).sources);
    expect(copied).toContain(entry.split('/')[0]);
  });

  it('carries a pg_dump/pg_restore at least as new as the PostgreSQL of compose.yaml, where the backup code looks', () => {
    // ARG defaults of the final stage, as `docker build` without --build-arg resolves them.
    const args = Object.fromEntries(finalOf('ARG').map((i) => i.args.split('=') as [string, string]));
    const resolve = (s: string) => s.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (m, name: string) => args[name] ?? m);
    const installed = finalOf('RUN')
      .map((i) => resolve(i.args))
      .join(' ');
    const client = /\bpostgresql-client-(\d+)\b/.exec(installed);
    expect(client, 'postgresql-client-<major> installed in the final stage').not.toBeNull();
    const serverMajor = Number(/^postgres:(\d+)/.exec(compose.services.postgres.image ?? '')?.[1]);
    expect(Number(client![1])).toBeGreaterThanOrEqual(serverMajor);
    const env = Object.assign({}, ...finalOf('ENV').map((i) => envPairs(resolve(i.args)))) as Record<string, string>;
    expect(env.PG_BIN_DIR).toBe(`/usr/lib/postgresql/${client![1]}/bin`);
    expect(read('server/db/backup.ts')).toContain('process.env.PG_BIN_DIR');
  });

  it('every COPY --from names an earlier stage and every file copied from the repository exists and reaches the build', () => {
    const rules = ignoreRules(read('.dockerignore'));
    let fromRepo = 0;
    stages.forEach((stage, index) => {
      for (const ins of stage.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
        const { flags, sources } = copyArgs(ins.args);
        if (flags.from) {
          expect(
            stages.slice(0, index).map((s) => s.name),
            `line ${ins.line}: --from=${flags.from}`,
          ).toContain(flags.from);
          continue;
        }
        for (const src of sources) {
          fromRepo++;
          const rel = path.posix.normalize(src).replace(/\/+$/, '');
          expect(fs.existsSync(path.join(root, rel)), `line ${ins.line}: ${src}`).toBe(true);
          if (rel !== '.') expect(ignored(rules, rel), `line ${ins.line}: ${src} is excluded by .dockerignore`).toBe(false);
        }
      }
    });
    expect(fromRepo).toBeGreaterThan(3);
  });

  it('.dockerignore keeps local data, keys, secrets and build output out of the image, and the sources in', () => {
    const rules = ignoreRules(read('.dockerignore'));
    for (const p of [
      'node_modules/vite/package.json',
      'dist/index.html',
      'data/keys/card.key',
      'data/zhiyuan.sqlite',
      '.git/HEAD',
      'deploy/.env',
      '.env',
      'server.log',
    ]) {
      expect(ignored(rules, p), p).toBe(true);
    }
    // What the image does not need may stay out; everything else in the repository goes to the build — in
    // particular server/db/seed/data/ (admissions reference data), which a root-only `data` rule must not catch.
    const notNeeded = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'test-results', '.tmp', '.ci', 'bench', 'deploy', 'docs', 'tests']);
    const sent = fs
      .readdirSync(root)
      .filter((e) => !notNeeded.has(e) && !e.startsWith('.env') && !e.endsWith('.log') && fs.statSync(path.join(root, e)).isDirectory())
      .flatMap(filesUnder);
    expect(sent.filter((f) => f.startsWith('server/db/seed/data/')).length).toBeGreaterThan(0);
    // Logs and env files are left out wherever they are, on purpose.
    const wronglyIgnored = sent.filter((f) => ignored(rules, f) && !/(^|\/)(\.env[^/]*|[^/]*\.log)$/.test(f));
    expect(wronglyIgnored).toEqual([]);
    for (const f of ['package.json', 'package-lock.json', 'index.html', 'vite.config.ts', 'tsconfig.json']) {
      expect(ignored(rules, f), f).toBe(false);
    }
  });
});

describe('the image health check', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer('sqlite', { seed: false, jobs: { enabled: false } });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Runs the HEALTHCHECK command as Docker would inside the container (PORT from the image's environment). */
  function runCheck(port: number): Promise<number | null> {
    expect(Array.isArray(check.command), 'exec form').toBe(true);
    const [bin, ...args] = check.command as string[];
    expect(bin).toBe('node');
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', (code) => resolve(code));
    });
  }

  it('passes on a server that is ready', async () => {
    const port = (server.app.server.address() as net.AddressInfo).port;
    expect(await runCheck(port)).toBe(0);
  });

  it('fails when the server answers 503 (database away, migrations pending)', async () => {
    const down = http.createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"DOWN"}');
    });
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    try {
      expect(await runCheck((down.address() as net.AddressInfo).port)).toBe(1);
    } finally {
      await new Promise((resolve) => down.close(resolve));
    }
  });

  it('fails when nothing listens on the port', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    expect(await runCheck(port)).toBe(1);
  });

  it('asks the same readiness path that Caddy checks before sending traffic', async () => {
    const checked = /https?:\/\/127\.0\.0\.1:[^/]+(\/[a-z]+)/.exec((check.command as string[]).join(' '))?.[1];
    expect(checked).toBe('/ready');
    expect(/^\s*health_uri\s+(\S+)/m.exec(caddyfile)?.[1]).toBe(checked);
    const res = await server.app.inject({ method: 'GET', url: checked! });
    expect(res.statusCode).toBe(200);
  });
});

describe('deploy/compose.yaml', () => {
  const services = compose.services ?? {};
  const apps = ['app1', 'app2'] as const;

  it('has two app processes, PostgreSQL, Redis and the reverse proxy', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['app1', 'app2', 'postgres', 'redis', 'proxy']));
    expect(services.postgres.image).toMatch(/^postgres:\d+/);
    expect(services.redis.image).toMatch(/^redis:\d+/);
  });

  it('builds both app processes from the repository Dockerfile as one image', () => {
    for (const name of apps) {
      const build = services[name].build!;
      expect(path.resolve(deployDir, build.context)).toBe(root);
      expect(fs.existsSync(path.join(root, build.dockerfile ?? 'Dockerfile'))).toBe(true);
    }
    expect(services.app1.image).toBeTruthy();
    expect(services.app2.image).toBe(services.app1.image);
  });

  it('runs the apps in production mode on the shared PostgreSQL and Redis, trusting the one proxy in front', () => {
    const port = words(finalOf('EXPOSE')[0].args)[0];
    for (const name of apps) {
      const env = services[name].environment!;
      expect(env, name).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: port, DATA_DIR: '/data' });
      expect(new URL(env.DATABASE_URL.replace(/\$\{[^}]*\}/g, 'x')).hostname).toBe('postgres');
      expect(env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
      expect(new URL(env.REDIS_URL.replace(/\$\{[^}]*\}/g, 'x')).hostname).toBe('redis');
      expect(env.REDIS_URL).toMatch(/^rediss?:\/\//);
      expect(env.TRUST_PROXY).toBe('1');
      expect(services[name].depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    }
    expect(services.postgres.healthcheck?.test).toBeTruthy();
    expect(services.redis.healthcheck?.test).toBeTruthy();
  });

  it('gives both apps the same data volume at DATA_DIR (keys, uploads, downloads)', () => {
    const dataMount = (name: string) =>
      (services[name].volumes ?? []).map((v) => v.split(':')).find(([, target]) => target === services[name].environment!.DATA_DIR)?.[0];
    const volume = dataMount('app1');
    expect(volume).toBeTruthy();
    expect(dataMount('app2')).toBe(volume);
    // A named volume (declared below), not a folder of one host path that a second machine would not see.
    expect(Object.keys(compose.volumes ?? {})).toContain(volume);
  });

  it('publishes only the proxy, which waits for the apps and balances them from the Caddyfile', () => {
    for (const name of ['app1', 'app2', 'postgres', 'redis']) expect(services[name].ports ?? [], name).toEqual([]);
    const published = (services.proxy.ports ?? []).map((p) => String(p).split(':')[0]);
    expect(published).toEqual(expect.arrayContaining(['80', '443']));
    expect(Object.keys(services.proxy.depends_on ?? {})).toEqual(expect.arrayContaining(['app1', 'app2']));
    const mount = (services.proxy.volumes ?? []).find((v) => v.includes('/etc/caddy/Caddyfile'))!;
    expect(fs.existsSync(path.resolve(deployDir, mount.split(':')[0]))).toBe(true);
    const port = services.app1.environment!.PORT;
    const upstreams = /^\s*reverse_proxy\s+([^{\n]+)\{/m.exec(caddyfile)?.[1].trim().split(/\s+/);
    expect(upstreams).toEqual(apps.map((a) => `${a}:${port}`));
    expect(caddyfile).toMatch(/^\{\$DOMAIN\}\s*\{/m);
    expect(services.proxy.environment?.DOMAIN).toMatch(/^\$\{DOMAIN:\?/);
    // Balanced braces: a missing one makes Caddy refuse the whole file.
    const braces = caddyfile.replace(/\{\$[A-Z_]+(:[^}]*)?\}/g, '').replace(/#.*$/gm, '');
    expect((braces.match(/\{/g) ?? []).length).toBe((braces.match(/\}/g) ?? []).length);
  });

  it('takes every value it interpolates from deploy/.env, and refuses to start without the passwords', () => {
    const used = [...composeText.matchAll(/\$\{([A-Z_][A-Z0-9_]*)(:?[-?])?/g)].map((m) => ({ name: m[1], op: m[2] ?? '' }));
    expect(used.length).toBeGreaterThan(0);
    for (const { name, op } of used) {
      if (!op.endsWith('-')) expect(Object.keys(envExample), `${name} is used without a default`).toContain(name);
    }
    for (const secret of ['POSTGRES_PASSWORD', 'REDIS_PASSWORD']) {
      const uses = used.filter((u) => u.name === secret);
      expect(uses.length, secret).toBeGreaterThan(0);
      for (const u of uses) expect(u.op, `${secret} must be required (:?)`).toBe(':?');
      // The example ships no password that could end up in production unchanged.
      expect(envExample[secret], secret).toBe('');
    }
    // The filled-in copy never reaches git.
    const git = spawnSync('git', ['check-ignore', '-q', 'deploy/.env'], { cwd: root });
    expect(git.status).toBe(0);
  });
});
