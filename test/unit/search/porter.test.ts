import { describe, expect, it } from 'vitest';
import { porterStem } from '../../../src/search/porter.js';

// Examples from Porter's paper (1980) for each step, plus words the tool and memory searches meet.
const CASES: Record<string, string> = {
  // Step 1a
  caresses: 'caress',
  ponies: 'poni',
  ties: 'ti',
  caress: 'caress',
  cats: 'cat',
  // Step 1b
  feed: 'feed',
  agreed: 'agre',
  plastered: 'plaster',
  bled: 'bled',
  motoring: 'motor',
  sing: 'sing',
  conflated: 'conflat',
  troubled: 'troubl',
  sized: 'size',
  hopping: 'hop',
  tanned: 'tan',
  falling: 'fall',
  hissing: 'hiss',
  fizzed: 'fizz',
  failing: 'fail',
  filing: 'file',
  // Step 1c
  happy: 'happi',
  sky: 'sky',
  // Step 2
  relational: 'relat',
  conditional: 'condit',
  rational: 'ration',
  valenci: 'valenc',
  digitizer: 'digit',
  radicalli: 'radic',
  differentli: 'differ',
  vietnamization: 'vietnam',
  predication: 'predic',
  operator: 'oper',
  feudalism: 'feudal',
  decisiveness: 'decis',
  hopefulness: 'hope',
  callousness: 'callous',
  formaliti: 'formal',
  sensitiviti: 'sensit',
  sensibiliti: 'sensibl',
  // Step 3
  triplicate: 'triplic',
  formative: 'form',
  formalize: 'formal',
  electriciti: 'electr',
  electrical: 'electr',
  hopeful: 'hope',
  goodness: 'good',
  // Step 4
  revival: 'reviv',
  allowance: 'allow',
  inference: 'infer',
  airliner: 'airlin',
  gyroscopic: 'gyroscop',
  adjustable: 'adjust',
  defensible: 'defens',
  irritant: 'irrit',
  replacement: 'replac',
  adjustment: 'adjust',
  dependent: 'depend',
  adoption: 'adopt',
  communism: 'commun',
  activate: 'activ',
  angulariti: 'angular',
  homologous: 'homolog',
  effective: 'effect',
  bowdlerize: 'bowdler',
  // Step 5
  probate: 'probat',
  rate: 'rate',
  cease: 'ceas',
  controll: 'control',
  roll: 'roll',
  // Everyday words
  generalizations: 'gener',
  oscillators: 'oscil',
  connections: 'connect',
  connecting: 'connect',
  comments: 'comment',
  issues: 'issu',
  repositories: 'repositori',
  repository: 'repositori',
  screenshots: 'screenshot',
  creating: 'creat',
  created: 'creat',
  yes: 'ye',
  youth: 'youth',
};

describe('porterStem', () => {
  it.each(Object.entries(CASES))('%s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('leaves short words, non-ASCII words, digits and capitals alone', () => {
    for (const word of ['is', 'a', 'café', 'straße', '2024', 'HTTP', 'go_to'])
      expect(porterStem(word)).toBe(word);
  });

  it('conflates the inflections of a word', () => {
    const forms = ['connect', 'connected', 'connecting', 'connection', 'connections'];
    expect(new Set(forms.map(porterStem))).toEqual(new Set(['connect']));
  });
});
