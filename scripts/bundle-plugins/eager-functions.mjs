// After a bundle is written and start turns have been profiled on it (start-profile.mjs): each
// function they called becomes one V8 compiles together with its file, so that Node's compile
// cache keeps its bytecode. The cache is made when a file is compiled and holds only what was
// compiled then; V8 compiles a function with its file when it is written in parentheses ("likely
// called"), and every other function again at its first call on every run (~900 of the core's
// before a `-p` turn's first request; bench/README.md, "Fourth pass"). So, for those functions:
//   an arrow or function expression      `x=>y`            ->  `(x=>y)`
//   an object literal's method           `k(a){…}`         ->  `k:(function(a){…})`  (no `super`)
//   a function declaration (in a file's  `function f(a){…}` -> `var f=(function (a){…});` at the
//     or a function's top level)                                top of its scope
// A declaration moves to where its hoisting put it: the top of its scope, before anything runs,
// so the name is bound to the same function at every point a call can come from. Functions the
// profile names that fit none of these (class methods, constructors, a declaration inside a block)
// stay as they are. The source map's positions move with the text.
import { decode, encode } from '@jridgewell/sourcemap-codec';
import ts from 'typescript-api';

/**
 * `code` with the functions that end at the offsets in `ends` (V8's end positions, as
 * `--log-function-events` writes them) made eager, and `map` (the bundle's source map, JSON text)
 * moved to match. `counts` says how many of each kind changed.
 */
export function eagerFunctions(code, map, ends) {
  const file = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** Edits by position: {at, end, text} replaces code[at, end); `moved` renders a range there. */
  const edits = [];
  const counts = { declarations: 0, expressions: 0, methods: 0 };
  const visit = (node) => {
    if (ends.has(node.end)) {
      if (ts.isFunctionDeclaration(node)) moveDeclaration(node, file, code, edits, counts);
      else if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
        if (!ts.isParenthesizedExpression(node.parent)) {
          const start = node.getStart(file);
          edits.push({ at: start, end: start, text: '(' }, { at: node.end, end: node.end, text: ')' });
          counts.expressions++;
        }
      } else if (ts.isMethodDeclaration(node) && ts.isObjectLiteralExpression(node.parent)) {
        methodAsExpression(node, file, code, edits, counts);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  // By position; at one position, insertions before a replacement that starts there.
  edits.sort((a, b) => a.at - b.at || a.end - a.at - (b.end - b.at));
  const out = { text: '', chunks: [] };
  render(code, edits, 0, code.length, false, out);
  return { code: out.text, map: moveMap(map, code, out.text, out.chunks), counts };
}

/** `function f(…){…}` out of its place and, as `var f=(function (…){…});`, to its scope's top. */
function moveDeclaration(node, file, code, edits, counts) {
  const scope = node.parent;
  const top = ts.isSourceFile(scope) || (ts.isBlock(scope) && ts.isFunctionLike(scope.parent));
  if (!top || !node.name || !node.body) return;
  // Two declarations of one name in a scope: the later wins at hoisting; moving one could flip that.
  const twice = scope.statements.filter(
    (s) => ts.isFunctionDeclaration(s) && s.name?.text === node.name.text,
  );
  if (twice.length > 1) return;
  // After the directive prologue, which must stay first ("use strict").
  let at = ts.isSourceFile(scope) ? 0 : scope.getStart(file) + 1;
  for (const statement of scope.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isStringLiteral(statement.expression)) break;
    at = statement.end;
  }
  if (at === 0 && code.startsWith('#!')) at = code.indexOf('\n') + 1;
  const start = node.getStart(file);
  edits.push({ at: start, end: node.end, text: '', removed: true });
  edits.push({ at, end: at, text: '', moved: { start, end: node.end, name: node.name.text } });
  // Without its name: in a named function expression the name is the function's own, read-only
  // binding, so a function that reassigns its name (`f = g`, as Emscripten's code does) would no
  // longer reach the variable. Anonymous, it takes the variable's name (`f.name` is still "f").
  edits.push({ at: node.name.getStart(file), end: node.name.end, text: '' });
  counts.declarations++;
}

/** `k(a){…}` in an object literal as `k:(function(a){…})`: the same function, compiled eagerly. */
function methodAsExpression(node, file, code, edits, counts) {
  // A method's `super` has no meaning in a function expression; computed keys are left alone.
  if (!node.body || !node.name || ts.isComputedPropertyName(node.name) || usesSuper(node)) return;
  const open = node.parameters.pos - 1;
  if (code[open] !== '(') return;
  const isAsync = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
  const name = code.slice(node.name.getStart(file), node.name.end);
  const head = `${name}:(${isAsync ? 'async ' : ''}function${node.asteriskToken ? '*' : ''}`;
  edits.push({ at: node.getStart(file), end: open, text: head }, { at: node.end, end: node.end, text: ')' });
  counts.methods++;
}

function usesSuper(node) {
  let found = false;
  const visit = (child) => {
    if (found) return;
    if (child.kind === ts.SyntaxKind.SuperKeyword) found = true;
    else ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/**
 * Appends code[start, end) with the edits inside it applied to `out.text`, and records each piece
 * of the original copied as [from, to, at] (at: its offset in the output) in `out.chunks`; a moved
 * declaration is rendered, edits included, where it is inserted.
 */
function render(code, edits, start, end, moving, out) {
  let at = start;
  for (const edit of edits) {
    if (edit.at < start || edit.at > end || (edit.at === end && edit.end > end)) continue;
    // Rendering a moved declaration: not its own removal, nor what its scope inserts at its edges
    // (it may be the scope's first statement).
    if (
      moving &&
      (edit.removed ? edit.at === start : edit.at === edit.end && (edit.at === start || edit.at === end))
    )
      continue;
    // Inside a range removed here: applied where that range is rendered.
    if (edit.at < at) continue;
    copy(code, at, edit.at, out);
    if (edit.moved) {
      out.text += `var ${edit.moved.name}=(`;
      render(code, edits, edit.moved.start, edit.moved.end, true, out);
      out.text += ');';
    } else {
      // A replaced span maps to where its replacement starts; a removed one is copied elsewhere.
      if (edit.end > edit.at && !edit.removed) out.chunks.push([edit.at, edit.end, out.text.length, true]);
      out.text += edit.text;
    }
    at = edit.end;
  }
  copy(code, at, end, out);
}

function copy(code, from, to, out) {
  if (to <= from) return;
  out.chunks.push([from, to, out.text.length, false]);
  out.text += code.slice(from, to);
}

/** The source map with every generated position moved to where its text now is. */
function moveMap(mapText, oldCode, newCode, chunks) {
  const map = JSON.parse(mapText);
  const oldStarts = lineStarts(oldCode);
  const newStarts = lineStarts(newCode);
  const sorted = [...chunks].sort((a, b) => a[0] - b[0]);
  const lines = newStarts.map(() => []);
  decode(map.mappings).forEach((segments, line) => {
    for (const segment of segments) {
      const moved = movedOffset(sorted, oldStarts[line] + segment[0]);
      if (moved === undefined) continue;
      const newLine = lineOf(newStarts, moved);
      lines[newLine].push([moved - newStarts[newLine], ...segment.slice(1)]);
    }
  });
  for (const segments of lines) segments.sort((a, b) => a[0] - b[0]);
  map.mappings = encode(lines);
  return JSON.stringify(map);
}

function movedOffset(chunks, offset) {
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (chunks[mid][0] <= offset) lo = mid;
    else hi = mid - 1;
  }
  const [from, to, at, replaced] = chunks[lo] ?? [];
  if (from === undefined || offset < from || offset >= to) return undefined;
  return replaced ? at : at + offset - from;
}

function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts, offset) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
