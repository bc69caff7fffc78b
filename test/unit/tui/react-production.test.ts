/**
 * The TUI loads React and Ink as their production builds (the development build's per-render
 * bookkeeping cost a third of the CPU while a stream came in, and its timing marks grew the
 * memory), without leaving NODE_ENV changed for the commands and servers the agent starts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadProductionReact } from '../../../src/tui/react-production.js';

const saved = process.env.NODE_ENV;
afterEach(() => {
  if (saved === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = saved;
});

describe('loadProductionReact', () => {
  it('sets NODE_ENV=production only while the modules load, then puts the person’s value back', async () => {
    process.env.NODE_ENV = 'development';
    const seen = await loadProductionReact(async () => process.env.NODE_ENV, {});
    expect(seen).toBe('production');
    expect(process.env.NODE_ENV).toBe('development');
  });

  it('leaves NODE_ENV unset when it was, even if the load fails', async () => {
    delete process.env.NODE_ENV;
    await expect(
      loadProductionReact(async () => {
        throw new Error('load failed');
      }, {}),
    ).rejects.toThrow('load failed');
    expect('NODE_ENV' in process.env).toBe(false);
  });

  it('keeps the development build with GEEKAGENT_REACT_DEV=1', async () => {
    process.env.NODE_ENV = 'test';
    const seen = await loadProductionReact(async () => process.env.NODE_ENV, { GEEKAGENT_REACT_DEV: '1' });
    expect(seen).toBe('test');
  });
});
