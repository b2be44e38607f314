import { defineConfig } from 'vite';

// The reference web client: built into web/dist, which the service serves at `/`.
// `npm run dev:web` proxies the API to a service running on PORT (default 3000).
const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  server: {
    proxy: {
      '/graphql': { target: api, ws: true },
      '/v1': api,
      '/health': api,
    },
  },
});
