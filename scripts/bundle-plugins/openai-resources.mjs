// The openai SDK's client constructs every API resource it knows (admin, beta agents, live,
// realtime, evals, fine-tuning, vector stores, …: ~85% of the SDK's code) whatever a program
// calls, so none of it is left out of a bundle. GeekAgent calls two: `chat.completions` (the Chat
// Completions provider) and `responses` (the Responses provider). In lib/openai.cjs every other
// resource module becomes a stand-in with the same export names — empty classes and functions,
// re-exports kept — so the client still builds (an unused resource is an empty object) and the
// bundle holds only what the two providers run. The kept list is by folder, so a resource a new
// SDK release adds is left out too; the providers' tests run the real SDK code through the built
// CLI, so a kept resource that starts to need a left-out one fails there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript-api';

/** Resource modules the providers run, relative to openai/resources/. */
const KEPT = [/^chat(\.mjs$|\/)/, /^responses(\.mjs$|\/)/, /^shared\.mjs$/, /^index\.mjs$/];

const RESOURCE_FILE = /[\\/]node_modules[\\/]openai[\\/]resources[\\/].+\.mjs$/;

/** Whether `file` (an absolute path under openai/resources/) is one the providers run. */
export function keptResource(file) {
  const at = file.replaceAll('\\', '/').lastIndexOf('/openai/resources/');
  const relative = file.replaceAll('\\', '/').slice(at + '/openai/resources/'.length);
  return KEPT.some((pattern) => pattern.test(relative));
}

/**
 * A module with the same exports as `source` (an ES module) and none of its code: classes and
 * functions become empty ones, other bindings `undefined`, re-exports from other modules stay
 * (those modules are stand-ins or kept resources themselves). Throws on an export form it does
 * not know, so an SDK change fails the build instead of a run.
 */
export function standIn(source, file) {
  const unit = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const lines = [];
  const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const node of unit.statements) {
    if (ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier) lines.push(node.getText(unit));
      else
        for (const spec of node.exportClause?.elements ?? [])
          lines.push(`export const ${spec.name.text} = undefined;`);
    } else if (ts.isClassDeclaration(node) && exported(node)) {
      if (!node.name) throw new Error(`openai-resources: an unnamed exported class in ${file}`);
      lines.push(`export class ${node.name.text} {}`);
    } else if (ts.isFunctionDeclaration(node) && exported(node)) {
      if (!node.name) throw new Error(`openai-resources: an unnamed exported function in ${file}`);
      lines.push(`export function ${node.name.text}() {}`);
    } else if (ts.isVariableStatement(node) && exported(node)) {
      for (const declaration of node.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name))
          throw new Error(`openai-resources: a destructured export in ${file}`);
        lines.push(`export const ${declaration.name.text} = undefined;`);
      }
    } else if (ts.isExportAssignment(node)) {
      throw new Error(`openai-resources: a default export in ${file}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export const openaiUsedResources = {
  name: 'openai-used-resources',
  setup(build) {
    build.onLoad({ filter: RESOURCE_FILE }, (args) =>
      keptResource(args.path)
        ? undefined
        : {
            contents: standIn(readFileSync(args.path, 'utf8'), args.path),
            resolveDir: path.dirname(args.path),
            loader: 'js',
          },
    );
  },
};
