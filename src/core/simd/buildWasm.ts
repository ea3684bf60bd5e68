/** `npm run build:wasm`: assemble src/core/simd/kernels.wat into src/core/simd/kernelsWasm.ts. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assembleWat, generatedModuleSource } from './assemble';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const bytes = await assembleWat('kernels.wat', readFileSync(here('./kernels.wat'), 'utf8'));
writeFileSync(here('./kernelsWasm.ts'), generatedModuleSource(bytes));
console.log(`kernelsWasm.ts: ${bytes.length} bytes of wasm`);
