/**
 * English stop words, dropped from queries only (documents keep them: BM25's idf already makes
 * them cheap, and a query of nothing but stop words falls back to using them). Chosen for how
 * people phrase requests ("how do I get the list of …"), so intent words such as `open`, `new`,
 * `all`, `show`, `get` and `find` are deliberately not here.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against am an and any are as at be because been before being below
  between both but by can could did do does doing don down during each few for from further had
  has have having he her here hers herself him himself his how i if in into is it its itself just
  let lets me might more most must my myself no nor not of off on once only or other ought our ours
  ourselves out over own please same shall she should so some such than that the their theirs them
  themselves then there these they this those through thus to too under until up very via was we
  were what when where which while who whom whose why will with would you your yours yourself
  yourselves s t d ll m re ve want wants wanted need needs needed like would something anything
  thing things way somehow also`
    .split(/\s+/)
    .filter(Boolean),
);
