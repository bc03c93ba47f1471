import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The built client is package data of the Python package: `tk20 serve` serves it at `/`,
// so a wheel needs no Node. Nothing is fetched at run time: every asset is bundled.
const outDir = fileURLToPath(new URL("../src/taistelukentta/web_dist", import.meta.url));

export default defineConfig({
  base: "/",
  resolve: {
    alias: {
      "milsymbol-src": fileURLToPath(new URL("./node_modules/milsymbol/src", import.meta.url)),
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:8420", ws: true } },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
  },
});
