/** The error for a stored index that cannot be used (damaged, foreign, or from an older analysis). */
export class SearchIndexFormatError extends Error {
  override name = 'SearchIndexFormatError';
}

export function formatError(problem: string): never {
  throw new SearchIndexFormatError(`not a usable search index: ${problem}`);
}
