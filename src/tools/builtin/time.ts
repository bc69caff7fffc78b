/** get_current_time: the local date-time with its UTC offset and time zone, plus the ISO UTC form. */
import * as z from '../../util/schema.js';
import { toolArguments } from '../arguments.js';
import type { Tool } from '../types.js';

const timeArgs = toolArguments('get_current_time', () => z.object({}));

export interface TimeToolOptions {
  /** The clock; tests pass a fixed one. */
  now?: () => Date;
}

export function createTimeTool(options: TimeToolOptions = {}): Tool {
  const now = options.now ?? (() => new Date());
  return {
    name: 'get_current_time',
    description:
      'Returns the current local date and time with its UTC offset and time zone, and the same instant in UTC (ISO 8601).',
    get parameters() {
      return timeArgs.parameters;
    },
    async run(args) {
      timeArgs.parse(args);
      const date = now();
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const weekday = date.toLocaleDateString('en-US', { weekday: 'long' });
      return `local: ${localIso(date)} (${weekday}, ${zone})\nutc: ${date.toISOString()}`;
    },
  };
}

/** `2026-05-03T14:05:09+02:00`: ISO 8601 in local time, which Date itself cannot print. */
export function localIso(date: Date): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
