/**
 * Model text as Markdown: marked's lexer gives the tokens, this maps them to Ink boxes and texts
 * (paragraphs, headings, lists, code blocks, quotes, emphasis, inline code, links).
 * Every string taken from a token goes through `visible`: the lexer decodes entities (`&#27;`
 * becomes a real ESC), so escaping the input alone would not be enough.
 *
 * The lexer comes through `MarkdownLexer` (mount.tsx loads marked behind the first frame, which
 * has no answer to show); until it is there, the text shows plain.
 */
import { Box, Text } from 'ink';
import type { MarkedToken, Token, Tokens } from 'marked';
import { createContext, memo, type ReactNode, useContext, useMemo } from 'react';
import { visible, visibleLine } from '../../util/terminal-text.js';

const PROSE = 'green';

export type Lexer = (text: string) => Token[];

/** marked's lexer, once loaded; undefined before. */
export const MarkdownLexer = createContext<Lexer | undefined>(undefined);

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const lexer = useContext(MarkdownLexer);
  const tokens = useMemo(() => lexer?.(text), [lexer, text]);
  if (!tokens) return <Text color={PROSE}>{visible(text)}</Text>;
  return <Box flexDirection="column">{blocks(tokens)}</Box>;
});

function blocks(tokens: readonly Token[]): ReactNode[] {
  const out: ReactNode[] = [];
  // A blank line between blocks, but none trailing: streamed text often ends in "\n\n".
  const last = lastContentIndex(tokens);
  for (let i = 0; i <= last; i++) out.push(block(tokens[i] as MarkedToken, `b${i}`));
  return out;
}

function lastContentIndex(tokens: readonly Token[]): number {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]?.type === 'space') last--;
  return last;
}

function block(token: MarkedToken, key: string): ReactNode {
  switch (token.type) {
    case 'paragraph':
      return (
        <Text key={key} color={PROSE}>
          {inline(token.tokens)}
        </Text>
      );
    case 'heading':
      return (
        <Text key={key} color={PROSE} bold underline={token.depth === 1}>
          {inline(token.tokens)}
        </Text>
      );
    case 'text':
      return (
        <Text key={key} color={PROSE}>
          {token.tokens ? inline(token.tokens) : visible(token.text)}
        </Text>
      );
    case 'code':
      return <CodeBlock key={key} code={token.text} lang={token.lang} />;
    case 'list':
      return <List key={key} list={token} />;
    case 'blockquote':
      return (
        <Box
          key={key}
          flexDirection="column"
          paddingLeft={1}
          borderStyle="single"
          borderTop={false}
          borderRight={false}
          borderBottom={false}
          borderDimColor
        >
          {blocks(token.tokens)}
        </Box>
      );
    case 'hr':
      return (
        <Text key={key} dimColor>
          {'─'.repeat(24)}
        </Text>
      );
    case 'space':
      return <Text key={key}> </Text>;
    case 'table':
      return <Table key={key} table={token} />;
    default:
      return (
        <Text key={key} color={PROSE}>
          {visible('text' in token ? token.text : token.raw)}
        </Text>
      );
  }
}

function CodeBlock({ code, lang }: { code: string; lang: string | undefined }) {
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {lang ? <Text dimColor>{visibleLine(lang)}</Text> : null}
      <Text>{visible(code)}</Text>
    </Box>
  );
}

function List({ list }: { list: Tokens.List }) {
  const start = typeof list.start === 'number' ? list.start : 1;
  const items: ReactNode[] = [];
  for (let i = 0; i < list.items.length; i++) {
    const item = list.items[i]!;
    const marker = item.task ? (item.checked ? '[x] ' : '[ ] ') : list.ordered ? `${start + i}. ` : '• ';
    items.push(
      <Box key={`i${i}`} flexDirection="row">
        <Text color={PROSE}>{marker}</Text>
        <Box flexDirection="column">{blocks(item.tokens.filter((t) => t.type !== 'checkbox'))}</Box>
      </Box>,
    );
  }
  return <Box flexDirection="column">{items}</Box>;
}

function Table({ table }: { table: Tokens.Table }) {
  const rows = [table.header, ...table.rows].map((cells) =>
    cells.map((cell) => visibleLine(cell.text)).join(' │ '),
  );
  const lines: ReactNode[] = [];
  for (let i = 0; i < rows.length; i++) {
    lines.push(
      <Text key={`r${i}`} color={PROSE} bold={i === 0}>
        {rows[i]}
      </Text>,
    );
  }
  return <Box flexDirection="column">{lines}</Box>;
}

function inline(tokens: readonly Token[]): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < tokens.length; i++) out.push(span(tokens[i] as MarkedToken, `s${i}`));
  return out;
}

function span(token: MarkedToken, key: string): ReactNode {
  switch (token.type) {
    case 'strong':
      return (
        <Text key={key} bold>
          {inline(token.tokens)}
        </Text>
      );
    case 'em':
      return (
        <Text key={key} italic>
          {inline(token.tokens)}
        </Text>
      );
    case 'del':
      return (
        <Text key={key} strikethrough>
          {inline(token.tokens)}
        </Text>
      );
    case 'codespan':
      return (
        <Text key={key} color="cyanBright">
          {visible(token.text)}
        </Text>
      );
    case 'link':
      return (
        <Text key={key} underline>
          {inline(token.tokens)}
          {token.href !== token.text ? ` (${visibleLine(token.href)})` : ''}
        </Text>
      );
    case 'br':
      return '\n';
    case 'text':
      return token.tokens ? <Text key={key}>{inline(token.tokens)}</Text> : visible(token.text);
    default:
      return visible('text' in token ? token.text : token.raw);
  }
}
