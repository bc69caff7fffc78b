// After the core bundle is written: every module body esbuild wrapped for lazy initialisation
// (`var init_x = __esm(() => { … })`, minified `g(()=>{…})`) becomes a parenthesised function,
// `g((function(){…}))`. V8 compiles a function written in parentheses together with its script
// ("likely called"), so those bodies land in Node's compile cache, which holds only what is compiled
// when the file is; as arrows, each module body a run initialises was compiled again at every start
// (~7 ms of CPU before a `-p` turn's first request on Node 24, bench/README.md). A module body runs
// at most once and never reads `this` or `arguments` (esbuild rewrites an ES module's top-level
// `this`), so the function behaves as the arrow did. The source map's columns move with the text.
import ts from 'typescript-api';

/** esbuild's __esm helper as minified: `var g=(t,e,n)=>()=>{if(n)throw n[0];try{return t&&(e=t(t=0)),e}…`. */
const ESM_HELPER =
  /var ([\w$]+)=\(([\w$]),([\w$]),([\w$])\)=>\(\)=>\{if\(\4\)throw \4\[0\];try\{return \2&&\(\3=\2\(\2=0\)\),\3\}/;

/**
 * `code` with each __esm module body as a parenthesised function, and `map` (an esbuild source
 * map, JSON text) with its generated columns moved to match. Throws when the helper is missing.
 */
export function eagerModuleInits(code, map) {
  const helper = ESM_HELPER.exec(code)?.[1];
  if (!helper) throw new Error("eager-inits: esbuild's __esm helper was not found in the bundle");
  const file = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  /** [start, end, text]: the text that replaces code[start, end). */
  const edits = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === helper &&
      node.arguments.length === 1
    ) {
      const init = node.arguments[0];
      // An async body (a module with top-level await) stays an arrow.
      if (ts.isArrowFunction(init) && !init.modifiers?.length && ts.isBlock(init.body)) {
        edits.push([init.getStart(file), init.body.getStart(file), '(function()']);
        edits.push([init.end, init.end, ')']);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (edits.length === 0) throw new Error('eager-inits: no __esm module body found in the bundle');
  edits.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end, text] of edits) {
    out += code.slice(at, start) + text;
    at = end;
  }
  out += code.slice(at);
  return { code: out, map: shiftMap(map, code, edits), wrapped: edits.length / 2 };
}

/** The map with each generated column moved by the edits before it on its line. */
function shiftMap(mapText, code, edits) {
  const map = JSON.parse(mapText);
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  // Per generated line: [column, delta] of each edit on it, in order.
  const byLine = new Map();
  for (const [start, end, text] of edits) {
    let line = lineStarts.length - 1;
    while (lineStarts[line] > start) line--;
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push([start - lineStarts[line], end - start, text.length]);
  }
  const lines = map.mappings.split(';').map((segments, line) => {
    const lineEdits = byLine.get(line);
    if (!lineEdits || segments === '') return segments;
    let column = 0;
    let written = 0;
    return segments
      .split(',')
      .map((segment) => {
        const [delta, rest] = readVlq(segment);
        column += delta;
        let moved = column;
        for (const [start, removed, inserted] of lineEdits) {
          if (column >= start + removed) moved += inserted - removed;
          // Inside a replaced span (`()=>`): where its replacement starts.
          else if (column > start) moved -= column - start;
        }
        const out = writeVlq(moved - written) + rest;
        written = moved;
        return out;
      })
      .join(',');
  });
  map.mappings = lines.join(';');
  return JSON.stringify(map);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The first VLQ value of a segment, and the segment's remaining text. */
function readVlq(segment) {
  let value = 0;
  let shift = 0;
  let i = 0;
  for (;;) {
    const digit = BASE64.indexOf(segment[i++]);
    value += (digit & 31) << shift;
    shift += 5;
    if ((digit & 32) === 0) break;
  }
  return [value & 1 ? -(value >>> 1) : value >>> 1, segment.slice(i)];
}

function writeVlq(number) {
  let value = number < 0 ? (-number << 1) | 1 : number << 1;
  let out = '';
  do {
    let digit = value & 31;
    value >>>= 5;
    if (value > 0) digit |= 32;
    out += BASE64[digit];
  } while (value > 0);
  return out;
}
