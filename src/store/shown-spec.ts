/**
 * A store as shown to people (messages, reports, the tester page): a Redis URL without its
 * password, whatever its scheme (`redis://`, `rediss://`, `redis+cluster://`).
 */
export function shown(spec: string): string {
  return spec.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, "$1:***@");
}
