import { defineConfig } from 'vite';

// GraphiQL, built from npm packages into graphiql/dist and served by the service at /graphiql
// (src/web/graphiql.ts): nothing is loaded from a CDN.
export default defineConfig({
  base: '/graphiql/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // monaco-editor is one large chunk by nature
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      // React packages mark their modules "use client" (for server components): meaningless in this bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
