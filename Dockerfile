# Parley production image (D47). Three stages: the first installs production dependencies only,
# the second builds the web console, the last holds both with the sources and runs as the
# unprivileged `node` user.
# scripts/check-image-steps.mjs performs these same steps without Docker (npm run check:image).

# The current LTS; the code also runs on Node 20 (engines), where CI runs the whole suite too.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# --ignore-scripts: the root `prepare` builds the client workspace (packages/client), which the server
# neither needs nor copies. No production dependency needs its install script (esbuild's only checks
# its binary, found through its platform package all the same).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# The web console (D102), built with the development dependencies (Vite) that the image leaves out.
FROM node:${NODE_VERSION}-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY scripts/build-console.mjs ./scripts/build-console.mjs
COPY packages/client ./packages/client
COPY src/client ./src/client
COPY console ./console
# npm ci runs `prepare`, which builds the client workspace and then, with it, the console into
# console/dist.
RUN npm ci --no-audit --no-fund && test -f console/dist/index.html

FROM node:${NODE_VERSION}-bookworm-slim
LABEL org.opencontainers.image.title="parley" \
      org.opencontainers.image.description="Conversation storage for AI applications"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json package-lock.json ./
COPY --chown=node:node bin ./bin
COPY --chown=node:node migrations ./migrations
COPY --chown=node:node scripts/healthcheck.mjs ./scripts/healthcheck.mjs
COPY --chown=node:node src ./src
COPY --from=console --chown=node:node /app/console/dist ./console/dist
# The embedded database (used when DATABASE_URL is unset) lives here; mount a volume on it.
RUN mkdir -p data && chown node:node data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
# No --start-period: dockerfilelint 1.8 rejects it (its option pattern stops at the hyphen);
# six retries at 10 s give a first start (initdb of the embedded database) a minute instead.
HEALTHCHECK --interval=10s --timeout=5s --retries=6 CMD ["node", "scripts/healthcheck.mjs"]
STOPSIGNAL SIGTERM
# node itself is PID 1 (exec form, no npm or shell in between), so SIGTERM reaches the server's
# graceful shutdown; tsx is loaded as a module hook instead of a wrapper process for the same reason.
CMD ["node", "--import", "tsx", "src/server.ts"]
