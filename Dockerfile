# The console server's image (README: "Several replicas on PostgreSQL" → "Deployment"). Two stages:
#   build   — installs every dependency with the toolchain, so better-sqlite3 is compiled inside the image for
#             its own Node (never a module built on the host), builds the app (dist/), then drops dev tools;
#   runtime — the slim Node image with the built app, the pruned node_modules and the server's sources (it
#             runs them through tsx), as the unprivileged `node` user, its store in /data.
# Build: docker build -t agent-platform-console .   (deploy/compose.production.yaml builds it too)

FROM node:20-bookworm-slim AS build
WORKDIR /app
# The native module (better-sqlite3) is compiled here when no prebuilt binary fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json /app/tsconfig.base.json /app/tsconfig.app.json /app/tsconfig.node.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src ./src
COPY --from=build /app/public ./public
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
VOLUME ["/data"]
# Readiness (store and API reachable); the process exiting is what a restart policy acts on, never this.
HEALTHCHECK --interval=5s --timeout=4s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/console/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node_modules/.bin/tsx", "src/cli/main.ts"]
