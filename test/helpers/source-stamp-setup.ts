/**
 * Vitest global setup: the sources' stamp as the run starts, so the end-to-end tests compare the
 * build with the tree they were started on (editing a file while the suite runs changes nothing).
 */
import type { TestProject } from 'vitest/node';
// @ts-expect-error: a build script without types.
import { sourceStamp } from '../../scripts/source-stamp.mjs';
import { REPO_ROOT } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    sourceStampAtStart: string;
  }
}

export default function setup(project: TestProject): void {
  project.provide('sourceStampAtStart', JSON.stringify(sourceStamp(REPO_ROOT)));
}
