/**
 * The one search module: BM25 ranking shared by MCP tool search, long-term memory recall and the
 * knowledge base. Owns analysis (tokenizer, Porter stemming, query stop words and synonyms), the
 * incremental index, its compact JSON form, and text chunking. No I/O: callers own files.
 *
 * ```ts
 * // Tool search: TOOL_FIELDS = name, server, description, params with tuned boosts.
 * const tools = createIndex({ fields: TOOL_FIELDS });
 * tools.add('mcp_github_create_issue', toolDocument({ server: 'github', name: 'create_issue',
 *   description: 'Create a new issue…', inputSchema }));
 * tools.search('open a ticket', { limit: 5 });  // → [{ id, score, matches: ['open', 'ticket'] }]
 * // Memory / knowledge base: one text field, chunks as documents.
 * const rag = createIndex({ fields: { text: {} } });
 * for (const c of chunkText(text, RAG_CHUNK.size, RAG_CHUNK.overlap))
 *   rag.add(`${source}:${c.start}`, { text: c.text });   // c.line / c.endLine for citations
 * rag.replace(id, doc);  rag.remove(id);              // add-or-replace; remove → false if absent
 * const json = rag.toJSON();                          // plain JSON value: JSON.stringify to store
 * const again = loadIndex(JSON.parse(stored));        // SearchIndexFormatError on a bad/old file
 * const big = loadIndexBytes(rag.toBytes());          // binary form: faster for large indexes
 * tokenize('getIssueComments');                       // → ['get', 'issue', 'comments']
 * ```
 *
 * Parameters: BM25F with k1 1.2 and b 0.75 (bm25-index.ts; classic BM25 for a single field);
 * synonyms weigh 0.5 of the word itself and a query word scores only its best synonym; English
 * stop words are dropped from queries. Query-time behaviour (synonyms, stop words) is not stored
 * in the JSON: give it to `loadIndex` again. Ids are the caller's strings; the index stores no
 * text (keep chunks and their citations next to it).
 */

import { decodeIndexBytes } from './binary.js';
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

/** An index from `index.toBytes()`'s output; throws `SearchIndexFormatError` on anything else. */
export function loadIndexBytes(bytes: Uint8Array, options: LoadOptions = {}): SearchIndex {
  return new SearchIndex(decodeIndexBytes(bytes, options.fields), options);
}
