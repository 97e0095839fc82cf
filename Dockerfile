# Pillar: one image runs the API and serves the built web app. Not built in CI here (no Docker engine).
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The npm scripts' pinned Node (a devDependency: tools/node-runtime, decision 015) is the image's own version.
COPY tools/node-runtime/package.json ./tools/node-runtime/
RUN npm ci --no-audit --no-fund
COPY . .
# The web app (dist/web), its dashboard render (dist/web-render, loaded by the server by path) and the compiled
# server and ops CLI (dist/server, esbuild; packages stay external).
RUN npx vite build --logLevel warn && npx vite build --ssr --logLevel warn && node scripts/build-server.mjs

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=5000 DATA_DIR=/data MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
COPY tools/node-runtime/package.json ./tools/node-runtime/
# Runtime packages only: the server is plain JavaScript, so neither tsx nor TypeScript is installed, nor the
# npm-packaged Node (a dev dependency): the image's own node runs the server.
RUN npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
# The compiled server reads the committed migrations and SQL functions from here (server/lib/project-root.ts).
COPY server/db/migrations ./server/db/migrations
COPY server/db/functions ./server/db/functions
USER node
EXPOSE 5000
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:5000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Ops commands: docker exec <container> node dist/server/cli.js ledger:verify
CMD ["node", "--max-semi-space-size=16", "dist/server/main.js"]
