/**
 * The one search module: BM25 ranking shared by MCP tool search, long-term memory recall and the
 * knowledge base. Owns analysis (tokenizer, Porter stemming, query stop words and synonyms),
 * the incremental index, its compact JSON form, and text chunking. No I/O: callers own files.
 *
 * ```ts
 * const index = createIndex({ fields: { name: { boost: 3 }, description: {}, params: { boost: 1.5 } } });
 * index.add('mcp_github_create_issue', { name: 'create_issue', description: '…', params: ['title', 'body'] });
 * index.replace(id, doc);           // add or replace by id
 * index.remove(id);                 // → false when absent
 * index.search('open a ticket', { limit: 5 });   // → [{ id, score, matches: ['open', 'ticket'] }]
 * const json = index.toJSON();      // plain JSON value; JSON.stringify it to store
 * const again = loadIndex(JSON.parse(text));   // throws SearchIndexFormatError on a bad file
 * chunkText(text, 800, 80);         // → [{ text, start, end, line, endLine }]  (RAG_CHUNK, MEMORY_CHUNK)
 * tokenize('getIssueComments');     // → ['get', 'issue', 'comments']
 * ```
 *
 * Parameters: BM25 k1 1.2, b 0.75 (per field, summed with boosts; idf ln(1 + (N − n + .5)/(n + .5)));
 * synonyms weigh 0.5 of the word itself; a query word scores its best synonym only. Query-time
 * behaviour (synonyms, stop words) is not stored in the JSON: pass it to `loadIndex` again.
 */
import { type QueryBehaviour, SearchIndex } from './bm25-index.js';
import { decodeIndexState } from './serialize.js';

export {
  createIndex,
  DEFAULT_B,
  DEFAULT_K1,
  DEFAULT_SYNONYM_WEIGHT,
  type FieldOptions,
  type IndexOptions,
  type QueryBehaviour,
  type SearchDocument,
  type SearchHit,
  SearchIndex,
  type SearchOptions,
} from './bm25-index.js';
export { chunkText, MEMORY_CHUNK, RAG_CHUNK, type TextChunk } from './chunk.js';
export { evaluateQueries, hitAt, type LabelledQuery, type QueryOutcome } from './evaluate.js';
export { porterStem } from './porter.js';
export type { Alternative, QueryClause } from './query.js';
export { INDEX_FORMAT, SearchIndexFormatError, type SerializedIndex } from './serialize.js';
export { ENGLISH_STOP_WORDS } from './stop-words.js';
export { DEFAULT_SYNONYMS, type SynonymGroups } from './synonyms.js';
export { ANALYZER_VERSION, createAnalyzer, tokenize } from './tokenizer.js';
export { TOOL_FIELDS, type ToolDefinition, toolDocument } from './tool-documents.js';

export interface LoadOptions extends QueryBehaviour {
  /** Boosts to use instead of the stored ones, by field name. */
  fields?: Record<string, { boost?: number }>;
}

/** An index from `index.toJSON()`'s value; throws `SearchIndexFormatError` on anything else. */
export function loadIndex(value: unknown, options: LoadOptions = {}): SearchIndex {
  return new SearchIndex(decodeIndexState(value, options.fields), options);
}
