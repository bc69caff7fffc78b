/** `/commands`: every custom command file found, what it is called and why one does not load. */
import path from 'node:path';
import { visibleLine } from '../util/terminal-text.js';
import type { CustomCommand } from './parse.js';

export function formatCommands(commands: readonly CustomCommand[], projectDir: string): string {
  if (commands.length === 0)
    return 'no custom commands: add Markdown files to .geekagent/commands/ (project) or ~/.geekagent/commands/ (yours)';
  const lines = ['custom commands (a project command wins over yours of the same name):'];
  for (const command of commands) {
    const file = visibleLine(shown(command.file, projectDir));
    const name = `/${visibleLine(command.name)}`;
    switch (command.status.kind) {
      case 'ok': {
        const extras = [
          command.model ? `model ${visibleLine(command.model)}` : '',
          command.allowedTools.length > 0
            ? `allowed-tools ${visibleLine(command.allowedTools.join(', '))}`
            : '',
          command.ignoredTools.length > 0
            ? `ignored (rules name whole tools): ${visibleLine(command.ignoredTools.join(', '))}`
            : '',
        ].filter((text) => text !== '');
        lines.push(
          `  ${name}  ${visibleLine(command.description)}  [${command.plugin ? `plugin ${visibleLine(command.plugin)}` : command.source}: ${file}]`,
        );
        if (extras.length > 0) lines.push(`      ${extras.join(' · ')}`);
        break;
      }
      case 'error':
        lines.push(`  ✗ ${name}  ${file}:${command.status.line}: ${visibleLine(command.status.message)}`);
        break;
      case 'untrusted':
        lines.push(
          `  – ${name}  not loaded: ${command.status.changed ? 'new or changed since you trusted the folder' : 'the folder is not trusted'}  [${file}]`,
        );
        break;
      case 'shadowed':
        lines.push(
          `  – ${name}  not loaded: ${visibleLine(shown(command.status.by, projectDir))} has that name  [${file}]`,
        );
        break;
    }
  }
  return lines.join('\n');
}

function shown(file: string, projectDir: string): string {
  const relative = path.relative(projectDir, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
