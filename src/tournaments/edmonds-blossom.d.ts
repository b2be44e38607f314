// Types for `edmonds-blossom-fixed` (a CommonJS port of Van Rantwijk's mwmatching.py, without its own types).
declare module 'edmonds-blossom-fixed' {
  /**
   * Maximum-weight matching of an undirected graph given as [i, j, weight]
   * edges over vertices 0..n-1; with `maxCardinality`, the heaviest among the
   * matchings of maximum cardinality. Returns mate[v] (-1 when unmatched).
   */
  function blossom(edges: [number, number, number][], maxCardinality?: boolean): number[];
  export default blossom;
}
