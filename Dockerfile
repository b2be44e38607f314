FROM node:20
WORKDIR /app
COPY package.json package-lock.json ./
# the npm workspaces' manifests (the SDK and the example bot), so that the install below resolves them
COPY sdk/package.json sdk/
COPY examples/bot/package.json examples/bot/
# `npm install`, not `npm ci` (see docs/development.md / stack notes)
RUN npm install --no-audit --no-fund
COPY . .
# the service, then the API reference it serves at /docs
RUN npm run build && npm run docs
ENV NODE_ENV=production PORT=3000
# the environment of src/node-flags.ts (SERVICE_ENVIRONMENT)
ENV MALLOC_ARENA_MAX=2
EXPOSE 3000
# the flags of src/node-flags.ts
CMD ["node", "--heap-growing-percent=200", "--v8-pool-size=0", "dist/main.js"]
