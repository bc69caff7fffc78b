/**
 * Elicitation forms in the TUI: fields built from the schema, defaults prefilled, validation
 * errors that keep the field open, the step counter, accept / decline, and a withdrawn request.
 */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../../src/mcp/client-features.js';
import { FormBody } from '../../../src/tui/components/FormBody.js';
import { TuiElicitor } from '../../../src/tui/elicitor.js';
import { plain } from './helpers.js';

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

const request: ElicitationRequest = {
  server: 'deploy',
  message: 'Where should it go?',
  schema: {
    type: 'object',
    properties: {
      target: { type: 'string', title: 'Target', description: 'host name' },
      replicas: { type: 'integer', default: 2 },
      region: { type: 'string', enum: ['eu', 'us'] },
      confirm: { type: 'boolean' },
    },
    required: ['target'],
  },
};

function formText(elicitor: TuiElicitor): string {
  const form = elicitor.current();
  if (!form) return '';
  const instance = render(<FormBody form={form} />);
  rendered.push(instance);
  return plain(instance.lastFrame() ?? '');
}

describe('elicitation form', () => {
  it('walks the fields in order with a counter, validates, and accepts the values', async () => {
    const elicitor = new TuiElicitor();
    const answer = elicitor.elicit(request, new AbortController().signal);

    expect(formText(elicitor)).toContain('MCP server deploy asks for input:');
    expect(formText(elicitor)).toContain('Target [1/4] (string, required) — host name');

    elicitor.input('');
    expect(formText(elicitor)).toContain('Target is required');
    expect(elicitor.current()?.index).toBe(0);

    elicitor.input('web-1');
    expect(elicitor.current()?.prefill).toBe('2');
    expect(formText(elicitor)).toContain('replicas [2/4] (integer)');
    elicitor.input('2.5');
    expect(formText(elicitor)).toContain('replicas must be a whole number');
    elicitor.input('3');

    expect(formText(elicitor)).toContain('region [3/4] (choose, 1=eu 2=us)');
    elicitor.input('2');
    elicitor.input('y');

    const done = formText(elicitor);
    expect(done).toContain('Target: web-1');
    expect(done).toContain('region: us');
    expect(done).toContain('Enter = accept · d Enter = decline · Esc = cancel');
    elicitor.input('');
    expect(await answer).toEqual({
      action: 'accept',
      content: { target: 'web-1', replicas: 3, region: 'us', confirm: true },
    });
    expect(elicitor.current()).toBeUndefined();
  });

  it('declines at the last step, and a withdrawn request removes its form', async () => {
    const elicitor = new TuiElicitor();
    const declined = elicitor.elicit(
      { server: 's', message: 'ok?', schema: { type: 'object', properties: {} } },
      new AbortController().signal,
    );
    const withdrawn = new AbortController();
    const cancelled = elicitor.elicit(request, withdrawn.signal);

    elicitor.input('d');
    expect(await declined).toEqual({ action: 'decline' });
    expect(elicitor.current()?.server).toBe('deploy');

    withdrawn.abort();
    expect(await cancelled).toEqual({ action: 'cancel' });
    expect(elicitor.current()).toBeUndefined();
  });
});
