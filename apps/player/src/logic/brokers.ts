/**
 * Which broker the browser player connects to (docs/device-protocol.md 2.3 and 3.7): the
 * credentials' WebSocket URLs in order, the next one after each failed attempt (`attempt`
 * counts the attempts since the last connection), so a player whose broker (a server
 * instance) stopped comes back through another. Without one, the server it was loaded from.
 */
export function brokerUrlFor(brokerUrls: readonly string[], attempt: number, fallback: string): string {
  const ws = brokerUrls.filter((u) => u.startsWith('ws'));
  if (ws.length === 0) return fallback;
  return ws[Math.max(0, attempt) % ws.length];
}
