// Preload (`node --import`) that lets @modelcontextprotocol/conformance 0.1.16 run on Node 20:
// it imports `globSync` from 'fs', which Node 20 lacks. A resolve hook hands that package (only)
// an `fs` shim that re-exports node:fs and adds globSync.
import { register } from 'node:module';

register('./node20-hooks.mjs', import.meta.url);
