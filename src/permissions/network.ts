/**
 * The fetch tool's network policy (private addresses, the allow list). The implementation is a
 * bottom-layer helper (util/network.ts) so the fetch tool can use it; re-exported here for the
 * permission config, which reads the allow list.
 */
export * from '../util/network.js';
