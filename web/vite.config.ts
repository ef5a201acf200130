// The dashboard's build (DESIGN §15): `npm run build:web` writes web/dist, which the
// Fastify app serves at `/`. Assets are also written pre-compressed (gzip and brotli) so
// the server sends them compressed without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

function precompress(): Plugin {
  return {
    name: 'beacon-precompress',
    apply: 'build',
    closeBundle() {
      const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]))
      for (const file of walk(join(root, 'dist'))) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue
        const body = readFileSync(file)
        if (body.length < 1024) continue
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
      }
    },
  }
}

export default defineConfig({
  root,
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: join(root, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles: the server's Content-Security-Policy allows 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 700,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
})
