/** `$<name>` in the person's message: the one way a typed message names a skill (and grants it). */
import { describe, expect, it } from 'vitest';
import { mentionedSkills } from '../../../src/skills/extension.js';

describe('mentionedSkills', () => {
  it('finds $name at the start, after a space, a bracket or a quote, ending at a non-name character', () => {
    expect(mentionedSkills('$deploy now')).toEqual(['deploy']);
    expect(mentionedSkills('ship it with $deploy.')).toEqual(['deploy']);
    expect(mentionedSkills('("$pdf-tools", [$deploy]) and $deploy again')).toEqual(['pdf-tools', 'deploy']);
    expect(mentionedSkills('line one\n$deploy')).toEqual(['deploy']);
  });

  it('ignores a $ inside a word, the start of a longer name, an upper-case shell variable and a bare name', () => {
    expect(mentionedSkills('echo a$deploy')).toEqual([]);
    expect(mentionedSkills('use $deployment')).toEqual(['deployment']);
    expect(mentionedSkills('use $deploy_x')).toEqual([]);
    expect(mentionedSkills('echo $HOME')).toEqual([]);
    expect(mentionedSkills('use the deploy skill')).toEqual([]);
  });
});
