# syntax=docker/dockerfile:1
# 志愿填报管理系统: one image holding the built console (dist/) and the reference server, in production mode.
#   docker build -t zhiyuan-console .
# Running it (two processes, PostgreSQL, Redis, Caddy with HTTPS): deploy/compose.yaml and docs/deploy.md.
# Needs BuildKit (Docker 23+ uses it by default) for the npm cache mount.

# ── deps: every package, dev tools included (the console build needs Vite) ────────────────────────────────────────────
FROM node:20-bookworm-slim AS deps
# better-sqlite3 downloads a prebuilt binary when one fits this platform and Node version; when none does (or the
# download is blocked) it compiles from source with node-gyp, which needs python3, make and a C++ compiler.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# A closer registry mirror can be passed with --build-arg NPM_CONFIG_REGISTRY=https://registry.npmmirror.com/
ARG NPM_CONFIG_REGISTRY=https://registry.npmjs.org/
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# ── build: the console (vite build → dist/) ──────────────────────────────────────────────────────────────────────────
FROM deps AS build
COPY . .
RUN npm run build

# ── prod-deps: the same node_modules without the dev tools; native modules stay as built above ───────────────────────
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

# ── pgdg-key: the signing key of the PostgreSQL project's apt repository (shipped in Debian's postgresql-common) ───
FROM node:20-bookworm-slim AS pgdg-key
RUN apt-get update \
  && apt-get install -y --no-install-recommends postgresql-common \
  && rm -rf /var/lib/apt/lists/*

# ── runtime ──────────────────────────────────────────────────────────────────────────────────────────────────────────
FROM node:20-bookworm-slim AS runtime
# `npm run backup` / `npm run restore` and the 系统备份 job call pg_dump / pg_restore, which refuse a server of a newer
# major version than theirs. Debian 12 only has version 15, so the client comes from apt.postgresql.org, with the
# same major version as the postgres image of deploy/compose.yaml (--build-arg PG_MAJOR=17 for a PostgreSQL 17).
ARG PG_MAJOR=16
COPY --from=pgdg-key /usr/share/postgresql-common/pgdg/apt.postgresql.org.gpg /usr/share/keyrings/apt.postgresql.org.gpg
# Plan PDFs, appraisal PDFs and posters are drawn with Noto Sans CJK
# (/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc); without it those downloads fail with 服务器缺少中文字体.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates fonts-noto-cjk \
  && . /etc/os-release \
  && echo "deb [signed-by=/usr/share/keyrings/apt.postgresql.org.gpg] https://apt.postgresql.org/pub/repos/apt ${VERSION_CODENAME}-pgdg main" \
    > /etc/apt/sources.list.d/pgdg.list \
  && apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client-${PG_MAJOR} \
  && rm -rf /var/lib/apt/lists/*
# HOST=0.0.0.0: production mode listens on 127.0.0.1 unless told otherwise, which a container's port cannot reach.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  DATA_DIR=/data \
  PG_BIN_DIR=/usr/lib/postgresql/${PG_MAJOR}/bin
WORKDIR /app
# The code stays owned by root: the server's user can read it but a compromised process cannot rewrite it.
COPY package.json package-lock.json tsconfig.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY common ./common
COPY schemas ./schemas
COPY server ./server
COPY --from=build /app/dist ./dist
# DATA_DIR holds the generated keys, uploads, export downloads and (without DATABASE_URL) the SQLite file. A named
# volume mounted here starts out owned by the server's user because the folder already is.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# /ready answers 200 once the database is reachable and every migration is applied (server/monitor/routes.ts).
# The first start applies migrations and loads the admissions reference data: allow it two minutes.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready',{signal:AbortSignal.timeout(4000)}).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The server runs its TypeScript through tsx, exactly as `npm start` does after its build check (dist/ is built above).
CMD ["node", "--import", "tsx", "server/main.ts"]
