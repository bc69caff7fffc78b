/**
 * Query text → clauses. One clause per distinct query word (stop words dropped unless nothing
 * else is left); a clause's alternatives are the word's own term (weight 1) and its synonyms'
 * terms (a lower weight). A document's clause score is its best alternative, so a document that
 * uses three synonyms of one query word is not rewarded three times. A synonym phrase present in
 * the query ("pull request") adds one clause whose alternatives are the rest of its groups.
 */

import type { SynonymGroups } from './synonyms.js';
import type { Analyzer } from './tokenizer.js';
import { tokenizeWords } from './tokenizer.js';

export interface Alternative {
  /** Index terms; a multi-term alternative (a phrase synonym) scores the mean of its terms. */
  terms: readonly string[];
  weight: number;
}

export interface QueryClause {
  /** The query word (or phrase) this clause stands for, as reported in `matches`. */
  label: string;
  alternatives: Alternative[];
}

/** Synonym groups analysed into terms: term key (terms joined by a space) → alternatives. */
export interface SynonymTable {
  readonly single: ReadonlyMap<string, readonly Alternative[]>;
  readonly phrases: ReadonlyMap<string, readonly Alternative[]>;
  /** The longest phrase, in terms. */
  readonly maxPhrase: number;
}

export const EMPTY_SYNONYMS: SynonymTable = { single: new Map(), phrases: new Map(), maxPhrase: 1 };

export function compileSynonyms(groups: SynonymGroups, analyzer: Analyzer, weight: number): SynonymTable {
  const single = new Map<string, Alternative[]>();
  const phrases = new Map<string, Alternative[]>();
  let maxPhrase = 1;
  for (const group of groups) {
    const entries = group.map((entry) => analyzer.terms(entry)).filter((terms) => terms.length > 0);
    for (const entry of entries) {
      const key = entry.join(' ');
      const target = entry.length === 1 ? single : phrases;
      maxPhrase = Math.max(maxPhrase, entry.length);
      let alternatives = target.get(key);
      if (!alternatives) {
        alternatives = [];
        target.set(key, alternatives);
      }
      for (const other of entries) {
        const otherKey = other.join(' ');
        if (otherKey === key || alternatives.some((a) => a.terms.join(' ') === otherKey)) continue;
        alternatives.push({ terms: other, weight });
      }
    }
  }
  return { single, phrases, maxPhrase };
}

export interface QueryOptions {
  stopWords: ReadonlySet<string>;
  synonyms: SynonymTable;
}

export function parseQuery(query: string, analyzer: Analyzer, options: QueryOptions): QueryClause[] {
  const words = tokenizeWords(query);
  const isStop = (word: string[]) => word.length === 1 && options.stopWords.has(word[0]!);
  const kept = words.filter((w) => !isStop(w));
  const used = kept.length > 0 ? kept : words;
  const clauses: QueryClause[] = [];
  const seen = new Set<string>();
  for (const word of used) {
    if (word.length > 1) {
      // A split word (GitHub, getIssueComments): its whole form, or failing that all its pieces —
      // never one piece alone (a query for GitHub is not a query for git).
      const whole = analyzer.term(word.join(''));
      if (seen.has(whole)) continue;
      seen.add(whole);
      clauses.push({
        label: word.join(''),
        alternatives: [
          { terms: [whole], weight: 1 },
          { terms: word.map((p) => analyzer.term(p)), weight: 1 },
        ],
      });
      continue;
    }
    const token = word[0]!;
    const term = analyzer.term(token);
    if (seen.has(term)) continue;
    seen.add(term);
    const alternatives: Alternative[] = [{ terms: [term], weight: 1 }];
    for (const alt of options.synonyms.single.get(term) ?? []) {
      if (alt.terms.length === 1 && seen.has(alt.terms[0]!)) continue;
      alternatives.push(alt);
    }
    clauses.push({ label: token, alternatives });
  }
  // Phrase synonyms, matched on the full token sequence (a phrase may hold a stop word: "go to").
  if (options.synonyms.phrases.size > 0) {
    const tokens = words.flat();
    const terms = tokens.map((t) => analyzer.term(t));
    for (let n = 2; n <= options.synonyms.maxPhrase; n++) {
      for (let i = 0; i + n <= terms.length; i++) {
        const key = terms.slice(i, i + n).join(' ');
        const alternatives = options.synonyms.phrases.get(key);
        if (!alternatives || seen.has(key)) continue;
        seen.add(key);
        clauses.push({ label: tokens.slice(i, i + n).join(' '), alternatives: [...alternatives] });
      }
    }
  }
  return clauses;
}
