// Writes each built asset compressed beside itself, `x.js.br` and `x.js.gz`,
// once per build: the server sends the copy a browser accepts
// (services/api-gateway/src/routes/spa.rs) and compresses nothing per
// request. A first load is then its gzip size or less on the wire, not its
// size as built (docs/web.md, "The initial load").
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /^assets\/[^/]+\.(js|css|svg|json)$/;
/** Below this a copy saves less than its headers cost. */
const SMALLEST = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export function precompress(): Plugin {
  return {
    name: 'wm-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(files.map(async (file) => {
        const path = join(dir, file);
        const built = await readFile(path);
        if (built.length < SMALLEST) return;
        const copies = await Promise.all([
          brotli(built, {
            params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: built.length },
          }),
          gz(built, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        await Promise.all([writeFile(`${path}.br`, copies[0]), writeFile(`${path}.gz`, copies[1])]);
      }));
    },
  };
}
