/**
 * Every component that draws untrusted text shows its control characters (`^[`), while our own
 * colours still work: transcript entries and Markdown (entities included), questions, forms, the
 * activity line, the panel and the input line.
 */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/permissions/types.js';
import { Activity } from '../../../src/tui/components/Activity.js';
import { FormBody } from '../../../src/tui/components/FormBody.js';
import { InputLine } from '../../../src/tui/components/InputLine.js';
import { QuestionBody } from '../../../src/tui/components/Question.js';
import { Transcript } from '../../../src/tui/components/Transcript.js';
import type { FormView } from '../../../src/tui/elicitor.js';
import { panelRows } from '../../../src/tui/panel-lines.js';
import type { Entry, LineKind } from '../../../src/tui/types.js';
import { colourOf, drawInColour, panelData, plain, withMarkdown } from './helpers.js';

drawInColour();

const ESC = '\u001b';
const BEL = '\u0007';
const TITLE = `${ESC}]0;pwned${BEL}`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const CLIPBOARD = `${ESC}]52;c;ZXZpbA==${BEL}`;

const rendered: Array<{ unmount(): void }> = [];
afterEach(() => {
  for (const instance of rendered.splice(0)) instance.unmount();
});

function frame(node: ReactElement): string {
  const instance = render(withMarkdown(node));
  rendered.push(instance);
  return instance.lastFrame() ?? '';
}

// Built from strings: biome rightly dislikes control characters in regex literals.
const OUR_COLOURS = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');
const CONTROL = new RegExp(`[${String.fromCharCode(0)}-\\u0009\\u000b-\\u001f\\u007f-\\u009f]`);

/** The frame holds no control character but the colour codes Ink itself draws. */
function expectOnlyOurColours(text: string): void {
  const rest = text.replace(OUR_COLOURS, '');
  expect(rest.match(CONTROL), JSON.stringify(rest)).toBeNull();
}

describe('transcript entries', () => {
  const entries = (list: Array<{ kind: LineKind; text: string }>): Entry[] =>
    list.map((entry, id) => ({ ...entry, id }));

  it('shows escapes in every kind of line, keeping the kind colours', () => {
    const out = frame(
      <Transcript
        entries={entries([
          { kind: 'user', text: `hi ${TITLE}` },
          { kind: 'tool', text: `[Calling tool x → ${CLEAR}]` },
          { kind: 'system', text: `× srv: died ${CLIPBOARD}` },
          { kind: 'error', text: `boom ${ESC}[1A` },
        ])}
      />,
    );
    expectOnlyOurColours(out);
    const text = plain(out);
    expect(text).toContain('You › hi ^[]0;pwned^G');
    expect(text).toContain('[Calling tool x → ^[[2J^[[H]');
    expect(text).toContain('× srv: died ^[]52;c;ZXZpbA==^G');
    expect(text).toContain('boom ^[[1A');
    expect(colourOf(out, 'boom')).toBe('red');
    expect(colourOf(out, '× srv')).toBe('red');
    expect(colourOf(out, '[Calling tool')).toBe('yellow');
  });

  it('escapes model Markdown after lexing: raw escapes, entities, code, links and tables', () => {
    const markdown = [
      `Para ${CLIPBOARD} and &#27;]0;entity&#7; and **bold ${ESC}[2J**`,
      '',
      `Inline \`code ${ESC}[1A\` and [link](http://x.test/${'%1B'}) <http://a.test>`,
      '',
      '```sh',
      `echo ${TITLE}`,
      '```',
      '',
      '| a | b |',
      '|---|---|',
      `| ${ESC}[31mcell | \u009b2J |`,
    ].join('\n');
    const out = frame(<Transcript entries={entries([{ kind: 'model', text: markdown }])} />);
    expectOnlyOurColours(out);
    const text = plain(out);
    expect(text).toContain('Para ^[]52;c;ZXZpbA==^G and ^[]0;entity^G and bold ^[[2J');
    expect(text).toContain('code ^[[1A');
    expect(text).toContain('echo ^[]0;pwned^G');
    expect(text).toContain('^[[31mcell │ <U+009B>2J');
    expect(colourOf(out, 'Para')).toBe('green');
  });
});

describe('questions', () => {
  it('shows a run_shell command exactly, escapes visible, so it cannot redraw itself', () => {
    const request: ApprovalRequest = {
      toolName: 'run_shell',
      title: 'About to run a shell command',
      detail: `touch x #${ESC}[2K\r${ESC}[1A${ESC}[2Kls -la\necho two`,
      kind: 'command',
    };
    const out = frame(<QuestionBody request={request} />);
    expectOnlyOurColours(out);
    expect(plain(out).split('\n')).toEqual([
      'About to run a shell command',
      '$ touch x #^[[2K^M^[[1A^[[2Kls -la',
      '  echo two',
    ]);
  });

  it('shows an MCP title on one line and its arguments and diff lines escaped', () => {
    const mcp: ApprovalRequest = {
      toolName: 'mcp_s_t',
      title: `About to call MCP tool: mcp_s_t (from server s${TITLE}\nfake)`,
      detail: `{\n  "text": "${CLEAR}"\n}`,
      kind: 'mcp',
      server: 's',
    };
    const text = plain(frame(<QuestionBody request={mcp} />));
    expect(text.split('\n')[0]).toBe('About to call MCP tool: mcp_s_t (from server s^[]0;pwned^G^Jfake)');
    expect(text).toContain('"text": "^[[2J^[[H"');

    const diff: ApprovalRequest = {
      toolName: 'patch',
      title: 'About to patch a.txt',
      detail: `--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new ${CLIPBOARD}`,
      kind: 'diff',
    };
    const out = frame(<QuestionBody request={diff} />);
    expectOnlyOurColours(out);
    expect(colourOf(out, '+new ^[]52')).toBe('green');
  });
});

describe('forms, activity, panel and input', () => {
  it('shows an elicitation form from the server escaped', () => {
    const form: FormView = {
      id: 1,
      key: '1:1',
      server: `srv${TITLE}`,
      message: `Please ${CLEAR} answer`,
      fields: [
        { name: 'a', label: `Done${ESC}[1A`, type: 'string', required: false },
        {
          name: 'b',
          label: `Pick${ESC}[2K`,
          description: `about ${CLIPBOARD}`,
          type: 'choice',
          options: [`one${ESC}[31m`, 'two'],
          required: true,
        },
      ],
      values: { a: `typed${BEL}` },
      index: 1,
      error: `bad ${ESC}[2J`,
      prefill: '',
    };
    const out = frame(<FormBody form={form} />);
    expectOnlyOurColours(out);
    const text = plain(out);
    expect(text).toContain('MCP server srv^[]0;pwned^G asks for input:');
    expect(text).toContain('Please ^[[2J^[[H answer');
    expect(text).toContain('Done^[[1A: typed^G');
    expect(text).toContain('Pick^[[2K');
    expect(text).toContain('1=one^[[31m 2=two');
    expect(text).toContain('about ^[]52;c;ZXZpbA==^G');
    expect(text).toContain('bad ^[[2J');
  });

  it('shows a running tool name, its progress message and queued text escaped', () => {
    const out = frame(
      <Activity
        busy
        turnStartedAt={0}
        tools={[
          {
            callId: 'c1',
            name: `mcp_s_t${ESC}[2J`,
            startedAt: 0,
            progress: { progress: 1, total: 2, message: `half ${TITLE}\nnext` },
          },
        ]}
        queued={[`later ${CLIPBOARD}`]}
        waitingForAnswer={false}
        now={() => 0}
      />,
    );
    expectOnlyOurColours(out);
    const text = plain(out);
    expect(text).toContain('mcp_s_t^[[2J 0.0s');
    expect(text).toContain('50% half ^[]0;pwned^G^Jnext');
    expect(text).toContain('queued › later ^[]52;c;ZXZpbA==^G');
  });

  it('shows panel values (model name, root, MCP line) escaped', () => {
    const rows = panelRows(panelData({ model: `m${TITLE}`, root: `/r${ESC}[2J`, mcp: `s${BEL}(1)` }));
    const value = (label: string) => rows.find((row) => row.label === label)?.value;
    expect(value('Model')).toBe('m^[]0;pwned^G');
    expect(value('Root')).toBe('/r^[[2J');
    expect(value('MCP')).toBe('s^G(1)');
  });

  it('shows a prefilled or recalled input buffer escaped, the cursor on the right character', () => {
    const text = `ab${ESC}[2Jcd`;
    const out = frame(<InputLine buffer={{ text, cursor: 2 }} question={false} />);
    expectOnlyOurColours(out);
    expect(plain(out)).toBe('› ab^[[2Jcd');
  });
});
