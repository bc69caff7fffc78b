/**
 * An elicitation form as the person sees it: who asks and why, the fields answered so far, the
 * one being asked (type, choices, default) — filled in the input line — then accept / decline.
 * Everything in it comes from the server (or is typed back from it): shown through `visible`.
 */
import { Box, Text } from 'ink';
import { visible, visibleLine } from '../../util/terminal-text.js';
import type { FormField, FormView } from '../elicitor.js';

function hint(field: FormField): string {
  const parts: string[] = [field.type === 'choice' || field.type === 'choices' ? 'choose' : field.type];
  if (field.options) parts.push(field.options.map((o, i) => `${i + 1}=${visibleLine(o)}`).join(' '));
  if (field.type === 'choices') parts.push('comma-separated');
  if (field.required) parts.push('required');
  return parts.join(', ');
}

function about(field: FormField): string {
  return field.description ? ` — ${visible(field.description)}` : '';
}

function shown(value: unknown): string {
  return visibleLine(Array.isArray(value) ? value.join(', ') : String(value));
}

export function FormBody({ form }: { form: FormView }) {
  const field = form.fields[form.index];
  return (
    <Box flexDirection="column">
      <Text bold color="yellow">{`MCP server ${visibleLine(form.server)} asks for input:`}</Text>
      <Text>{visible(form.message)}</Text>
      {form.fields.slice(0, form.index).map((done) => (
        <Text key={done.name} dimColor>
          {`  ${visibleLine(done.label)}: ${done.name in form.values ? shown(form.values[done.name]) : '(empty)'}`}
        </Text>
      ))}
      {field ? (
        <Text>
          {`  ${visibleLine(field.label)}`}
          <Text dimColor>{` [${form.index + 1}/${form.fields.length}] (${hint(field)})${about(field)}`}</Text>
        </Text>
      ) : (
        <Text bold>Enter = accept · d Enter = decline · Esc = cancel</Text>
      )}
      {form.error ? <Text color="red">{`  ${visible(form.error)}`}</Text> : null}
    </Box>
  );
}
