/**
 * The default query-time synonym table: groups of interchangeable intent words, so that a
 * paraphrase ("take a picture of the web page", "open a ticket") reaches a tool or text that uses
 * other words (browser_take_screenshot, create_issue). Entries may be phrases ("pull request");
 * they are analysed like any text (tokenised, stemmed) when a table is compiled. A word may sit in
 * several groups (`open`: read, create, navigate). Kept small and generic on purpose: it names
 * common intents, not any particular server's tools.
 */
export type SynonymGroups = readonly (readonly string[])[];

export const DEFAULT_SYNONYMS: SynonymGroups = [
  ['find', 'search', 'lookup', 'look up', 'query', 'locate', 'seek', 'grep'],
  ['list', 'enumerate', 'show', 'display', 'browse', 'all'],
  ['create', 'add', 'new', 'make', 'insert', 'open', 'generate', 'compose'],
  ['delete', 'remove', 'drop', 'destroy', 'erase', 'purge', 'discard', 'trash'],
  ['update', 'edit', 'modify', 'change', 'patch', 'alter', 'set', 'rename', 'replace'],
  ['read', 'get', 'fetch', 'retrieve', 'open', 'view', 'load', 'obtain', 'inspect', 'show', 'see'],
  ['write', 'save', 'store', 'put', 'persist', 'record', 'keep'],
  ['run', 'execute', 'exec', 'invoke', 'call', 'launch', 'trigger', 'start'],
  ['file', 'document', 'doc'],
  ['folder', 'directory', 'dir'],
  ['issue', 'ticket', 'bug'],
  ['repo', 'repository', 'project', 'codebase'],
  ['pr', 'pull request', 'merge request', 'mr'],
  ['browser', 'page', 'web', 'website', 'site', 'tab'],
  ['screenshot', 'capture', 'snapshot', 'picture', 'image', 'photo', 'screen'],
  ['navigate', 'goto', 'go to', 'open url', 'visit', 'url', 'link'],
  ['commit', 'git', 'change'],
  ['message', 'chat', 'msg', 'post', 'send', 'dm'],
  ['comment', 'reply', 'note', 'remark'],
  ['user', 'member', 'person', 'people', 'account', 'profile'],
  ['click', 'press', 'tap'],
  ['type', 'fill', 'enter', 'input'],
  ['close', 'shut', 'exit', 'quit'],
  ['copy', 'duplicate', 'clone'],
  ['move', 'rename', 'relocate'],
  ['diff', 'compare', 'difference'],
  ['log', 'history'],
  ['error', 'exception', 'crash', 'failure', 'problem'],
  ['text', 'content', 'contents'],
  ['download', 'save', 'export'],
  ['upload', 'attach'],
  ['wait', 'pause', 'sleep'],
  ['time', 'date', 'clock'],
];
