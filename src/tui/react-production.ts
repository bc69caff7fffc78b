/**
 * Loads React and Ink as their production builds. React picks its build from `NODE_ENV` when it is
 * first loaded, and the development one records a performance mark per component per render and
 * checks every prop: while a fast answer streams that was a third of the TUI's CPU, and keys waited
 * behind it. `NODE_ENV` is set only while the modules load and then put back, so the person's own
 * value still reaches the commands and servers the agent starts. `GEEKAGENT_REACT_DEV=1` keeps the
 * development build (React's warnings, for working on the TUI). This matters unbundled (tests, tsc's
 * output): the bundle carries one build, chosen when it is made (scripts/bundle.mjs), so there
 * `GEEKAGENT_REACT_DEV=1 npm run build` is the switch.
 */
export async function loadProductionReact<T>(
  load: () => Promise<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  if (env.GEEKAGENT_REACT_DEV === '1') return load();
  const had = Object.hasOwn(process.env, 'NODE_ENV');
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await load();
  } finally {
    if (had) process.env.NODE_ENV = before;
    else delete process.env.NODE_ENV;
  }
}
