// Module hooks for node20-register.mjs: bare `fs` imported from inside the conformance package
// resolves to fs-shim.mjs; everything else resolves as usual.
const SHIM = new URL('./fs-shim.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromConformance = context.parentURL?.includes('/@modelcontextprotocol/conformance/');
  if (fromConformance && (specifier === 'fs' || specifier === 'node:fs'))
    return { url: SHIM, shortCircuit: true };
  return nextResolve(specifier, context);
}
