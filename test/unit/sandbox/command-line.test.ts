/**
 * `allowUnconfined` patterns read as a shell reads the line (sandbox/command-line.ts): a `*` stands
 * for plain words only — never a chained command, a substitution or an unchecked redirection —
 * and a line the scanner is not sure of matches only an exact pattern.
 */
import { describe, expect, it } from 'vitest';
import { commandPatternAllows, scanCommandLine } from '../../../src/sandbox/command-line.js';

/** Redirection targets: a plain relative name without `..` is "inside". */
const inside = async (target: string) => !target.startsWith('/') && !target.split('/').includes('..');

const allows = (pattern: string, command: string) => commandPatternAllows([pattern], command, inside);

const table: Array<[pattern: string, command: string, allowed: boolean, why: string]> = [
  ['npm publish*', 'npm publish', true, '`*` may stand for nothing'],
  ['npm publish*', 'npm publish --dry-run --tag beta', true, 'plain arguments'],
  ['npm publish*', "npm publish --tag 'a;b'", true, '`;` inside single quotes is a character'],
  ['npm publish*', 'npm publish --tag "a && b | c"', true, 'operators inside double quotes are characters'],
  ['npm publish*', 'npm publish --tag a\\;b', true, 'an escaped `;` is a character'],
  ['npm publish*', 'npm publish $HOME ${USER} "$1"', true, 'plain parameter expansions run nothing'],
  ['npm publish*', 'npm publish --dry-run; touch x', false, '`;` chains a command'],
  ['npm publish*', 'npm publish && touch x', false, '`&&`'],
  ['npm publish*', 'npm publish || touch x', false, '`||`'],
  ['npm publish*', 'npm publish | sh', false, 'a pipe'],
  ['npm publish*', 'npm publish & touch x', false, 'a background `&`'],
  ['npm publish*', 'npm publish &> out', false, '`&>` is a background `&` to /bin/sh (dash)'],
  ['npm publish*', 'npm publish $(touch x)', false, 'command substitution'],
  ['npm publish*', 'npm publish "$(touch x)"', false, 'command substitution inside double quotes'],
  ['npm publish*', 'npm publish `touch x`', false, 'backticks'],
  ['npm publish*', 'npm publish "`touch x`"', false, 'backticks inside double quotes'],
  ['npm publish*', 'npm publish $((1+2))', false, 'arithmetic expansion'],
  ['npm publish*', 'npm publish ${X:-$(touch x)}', false, 'a ${…} with an operator'],
  ['npm publish*', 'npm publish ${X@P}', false, "bash's prompt expansion of a value"],
  ['npm publish*', "npm publish $'\\x3b'", false, "bash's $'…' is not read here"],
  ['npm publish*', 'npm publish <(touch x)', false, 'process substitution'],
  ['npm publish*', 'npm publish >(touch x)', false, 'process substitution (output)'],
  ['npm publish*', 'npm publish\ntouch x', false, 'a newline'],
  ['npm publish*', 'npm publish\rtouch x', false, 'a carriage return'],
  ['npm publish*', "npm publish 'a\nb'", false, 'a newline even inside quotes'],
  ['npm publish*', 'npm publish (touch x)', false, 'a subshell'],
  ['npm publish*', 'npm publish { touch x; }', false, 'braces'],
  ['npm publish*', 'npm publish # ; touch x', false, 'a comment is not read here'],
  ['npm publish*', "npm publish 'unterminated", false, 'an open quote'],
  ['npm publish*', 'npm publish \\', false, 'a trailing backslash'],
  ['npm publish*', 'npm publish <<EOF', false, 'a here-document'],
  ['npm publish*', 'npm publish > publish.log 2>&1', true, 'a redirection inside the root, a dup'],
  ['npm publish*', 'npm publish >> logs/p.log', true, 'an append inside the root'],
  ['npm publish*', 'npm publish > ../outside', false, 'a redirection out of the root'],
  ['npm publish*', 'npm publish>/home/me/.bashrc', false, 'an absolute target out of the root'],
  ['npm publish*', 'npm publish 2> ~/.profile', false, '`~` is not a plain target'],
  ['npm publish*', 'npm publish > $HOME/x', false, 'an expanded target is not plain'],
  ['npm publish*', 'npm publish > *.log', false, 'a glob target is not plain'],
  ['npm publish*', 'npm publish >&../file', false, '`>&word` writes a file (bash): its target is checked'],
  ['npm publish*', 'npm publish < ../secret', false, 'an input redirection out of the root'],
  ['npm publish*', 'npm publisher', true, '`*` is any plain text (patterns are the person’s)'],
  ['npm publish --dry-run', 'npm publish --dry-run', true, 'an exact pattern'],
  ['npm publish --dry-run', 'npm publish --dry-run; touch x', false, 'an exact pattern is the whole line'],
  [
    'cd web && npm run build',
    'cd web && npm run build',
    true,
    'an exact pattern may chain: the person wrote it',
  ],
  ['cd web && npm run *', 'cd web && npm run build', true, 'the operator is the pattern’s own text'],
  ['cd web && npm run *', 'cd web && npm run build; touch x', false, 'what `*` stands for is still checked'],
  ['echo x > ../*', 'echo x > ../outside', false, 'a `*` inside a redirection out of the root'],
  ['echo x > ../outside', 'echo x > ../outside', true, 'the exact line, redirection and all'],
  ['*', 'touch x', true, '`*` alone: any one command'],
  ['*', 'touch x; touch y', false, '`*` alone: still one command'],
  ['git *', 'git commit -m "fix: a; b"', true, 'quoted text'],
  ["echo '*'", "echo 'a'; touch x; 'b'", false, 'the quote the pattern opened, closed inside `*`'],
];

describe('commandPatternAllows', () => {
  it.each(table)('%j allows %j: %s (%s)', async (pattern, command, allowed) => {
    expect(await allows(pattern, command)).toBe(allowed);
  });

  it('any of several patterns; surrounding blanks do not count', async () => {
    expect(await commandPatternAllows(['make*', ' npm publish* '], '  npm publish  ', inside)).toBe(true);
    expect(await commandPatternAllows([], 'npm publish', inside)).toBe(false);
  });

  it('asks the caller about each redirection a `*` might stand for', async () => {
    const asked: string[] = [];
    const record = async (target: string) => {
      asked.push(target);
      return true;
    };
    expect(await commandPatternAllows(['cat*'], 'cat <"in put" >out 2>>\'err log\'', record)).toBe(true);
    expect(asked).toEqual(['in put', 'out', 'err log']);
  });
});

describe('scanCommandLine', () => {
  it('marks operators and redirections as not free', () => {
    const scan = scanCommandLine('a;b >c')!;
    expect(scan.free).toEqual([true, false, true, true, false, false]);
    expect(scan.redirections).toEqual([{ start: 4, end: 6, target: 'c' }]);
  });

  it('a lone `$` and `$"` inside double quotes are characters', () => {
    expect(scanCommandLine('echo "costs $" $ a$')).toBeDefined();
  });
});
