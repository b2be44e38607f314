import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The reference web client: built into web/dist, which the service serves at `/`.
// `npm run dev:web` proxies the API to a service running on PORT (default 3000).
const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  base: '/',
  // The SDK (an npm workspace) from its sources, as web/tsconfig.json's `paths` does for the types:
  // no SDK build needed first, and the page always matches the SDK of this checkout.
  resolve: { alias: { '@scopa/sdk': fileURLToPath(new URL('../sdk/src/index.ts', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // The SDK's loopback listener for native OAuth apps loads node:http when called, which a page never does.
    rolldownOptions: { external: [/^node:/] },
  },
  server: {
    proxy: {
      '/graphql': { target: api, ws: true },
      '/v1': api,
      '/health': api,
    },
  },
});
